import { readFileSync } from "node:fs";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { createConnectRouter } from "@connectrpc/connect";
import { AccountService } from "../../gen/gatehouse/account/v1/account_pb.js";
import { AuthService } from "../../gen/gatehouse/auth/v1/auth_pb.js";
import { compileRestRoutes, type RestRoute } from "../../src/transport/rest-routes.js";

export type Json = any;

/** The committed document, as the server serves it. */
export const openapi: Json = JSON.parse(readFileSync(new URL("../../gen/openapi.json", import.meta.url), "utf8"));

/** The REST table the server compiles (src/server.ts registers these two services on its API router). */
export function serverRoutes(): RestRoute[] {
  const router = createConnectRouter();
  router.service(AccountService, {});
  router.service(AuthService, {});
  return compileRestRoutes(router.handlers);
}

/** Every operation of the document, with its path template and HTTP method. */
export function operations(doc: Json = openapi): Array<{ template: string; verb: string; op: Json }> {
  return Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([template, item]) =>
    Object.entries(item).map(([verb, op]) => ({ template, verb: verb.toUpperCase(), op })),
  );
}

/** The operation a concrete request lands on, matched segment by segment as the router does. */
export function operationFor(verb: string, path: string): Json {
  const parts = path.split("?")[0].split("/").filter(Boolean);
  const found = operations().find(({ template, verb: v }) => {
    const segments = template.split("/").filter(Boolean);
    return (
      v === verb && segments.length === parts.length && segments.every((s, i) => s.startsWith("{") || s === parts[i])
    );
  });
  if (!found) throw new Error(`no operation for ${verb} ${path}`);
  return found.op;
}

/**
 * Every component schema compiled by Ajv in strict mode (JSON Schema 2020-12, OpenAPI 3.1's
 * dialect) with format checks: a schema Ajv cannot compile fails here, and so does an answer
 * that does not match.
 */
export function schemaValidator(doc: Json = openapi) {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats.default(ajv);
  // The document's $refs point into components; Ajv resolves them as $defs of one schema.
  const text = JSON.stringify(doc).replaceAll('"#/components/schemas/', '"https://gatehouse.invalid/schemas#/$defs/');
  const rewritten = JSON.parse(text);
  ajv.addSchema({ $id: "https://gatehouse.invalid/schemas", $defs: rewritten.components.schemas });
  for (const name of Object.keys(rewritten.components.schemas))
    ajv.getSchema(`https://gatehouse.invalid/schemas#/$defs/${name}`);
  const cache = new Map<string, ValidateFunction>();
  const compiled = (key: string, schema: Json) => {
    let validate = cache.get(key);
    if (!validate) {
      validate = ajv.compile(schema);
      cache.set(key, validate);
    }
    return validate;
  };
  const rewrittenOp = (verb: string, path: string) => {
    const op = operationFor(verb, path);
    return {
      op,
      rewritten: JSON.parse(
        JSON.stringify(op).replaceAll('"#/components/schemas/', '"https://gatehouse.invalid/schemas#/$defs/'),
      ),
    };
  };
  return {
    /** Ajv's errors for `body` as the 200 answer of `verb path`, or an empty list. */
    successErrors(verb: string, path: string, body: unknown): unknown[] {
      const { op, rewritten } = rewrittenOp(verb, path);
      const validate = compiled(`${op.operationId}:200`, rewritten.responses["200"].content["application/json"].schema);
      return validate(body) ? [] : (validate.errors ?? []);
    },
    /** Ajv's errors for `body` as an error answer (the ErrorBody schema). */
    errorErrors(body: unknown): unknown[] {
      const validate = compiled("ErrorBody", { $ref: "https://gatehouse.invalid/schemas#/$defs/ErrorBody" });
      return validate(body) ? [] : (validate.errors ?? []);
    },
    /** Ajv's errors for `body` as the request body of `verb path`. */
    requestErrors(verb: string, path: string, body: unknown): unknown[] {
      const { op, rewritten } = rewrittenOp(verb, path);
      const validate = compiled(`${op.operationId}:request`, rewritten.requestBody.content["application/json"].schema);
      return validate(body) ? [] : (validate.errors ?? []);
    },
  };
}
