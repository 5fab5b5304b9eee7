import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Validator } from "@seriousme/openapi-schema-validator";
import { generateOpenApi, OPENAPI_FILE } from "../../scripts/openapi.js";
import { openapi, operationFor, operations, schemaValidator, serverRoutes } from "./document.js";

// The committed gen/openapi.json: a valid OpenAPI 3.1 document whose schemas compile, made by
// the generator from the current descriptors, and naming exactly the routes the server has.
describe("gen/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document, and the validator does refuse a broken one", async () => {
    expect(openapi.openapi).toBe("3.1.0");
    const result = await new Validator().validate(structuredClone(openapi));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    const broken = structuredClone(openapi);
    broken.paths["/v1/auth/login"].post.responses["200"] = {}; // a response needs a description
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it("has schemas Ajv compiles in strict mode (the OpenAPI validator does not look inside them)", () => {
    expect(() => schemaValidator()).not.toThrow();
    const broken = structuredClone(openapi);
    broken.components.schemas["auth.v1.User"].properties.email.type = "text";
    expect(() => schemaValidator(broken)).toThrow();
  });

  it("is what the generator makes from the current descriptors and proto comments", async () => {
    expect(await generateOpenApi()).toBe(readFileSync(OPENAPI_FILE, "utf8"));
  });

  it("names every REST route the server compiles, and no other", () => {
    const routes = serverRoutes()
      .map((r) => `${r.verb} ${r.template}`)
      .sort();
    const documented = operations()
      .map(({ verb, template }) => `${verb} ${template}`)
      .sort();
    expect(routes.length).toBeGreaterThan(40);
    expect(documented).toEqual(routes);
    for (const route of serverRoutes()) {
      const op = operationFor(route.verb, route.template);
      expect(op["x-gatehouse-rpc"]).toBe(`${route.handler.service.typeName}/${route.handler.method.name}`);
    }
  });

  it("describes requests as the REST router reads them: path variables, the query on GET and DELETE, the body otherwise", () => {
    const listUsers = operationFor("GET", "/v1/auth/users");
    expect(listUsers.parameters.map((p: any) => `${p.in}:${p.name}`)).toEqual([
      "query:limit",
      "query:cursor",
      "query:search",
      "query:disabled",
      "query:email_verified",
      "query:mfa_enabled",
    ]);
    expect(listUsers.parameters.find((p: any) => p.name === "mfa_enabled").schema).toMatchObject({ type: "boolean" });
    expect(listUsers.requestBody).toBeUndefined();
    const limit = listUsers.parameters.find((p: any) => p.name === "limit");
    expect(limit.schema).toMatchObject({ type: "integer", minimum: 0, maximum: 100 });

    // body "*" with a path variable: the variable is a parameter and not part of the body.
    const updateUser = operationFor("PATCH", "/v1/auth/users/{id}");
    expect(updateUser.parameters).toEqual([expect.objectContaining({ name: "id", in: "path", required: true })]);
    expect(updateUser.requestBody.content["application/json"].schema.properties).not.toHaveProperty("id");
    expect(updateUser.requestBody.content["application/json"].schema.properties).toHaveProperty(
      "metadata",
      expect.objectContaining({ type: "object" }),
    );

    // body "*" without one: the request message itself, with its field rules.
    const login = operationFor("POST", "/v1/auth/login");
    expect(login.parameters).toBeUndefined();
    expect(login.requestBody).toMatchObject({
      required: true,
      content: { "application/json": { schema: { $ref: "#/components/schemas/auth.v1.LoginRequest" } } },
    });
    const loginRequest = openapi.components.schemas["auth.v1.LoginRequest"];
    expect(loginRequest.required).toEqual(["email", "password"]);
    expect(loginRequest.properties.email).toMatchObject({ type: "string", format: "email", maxLength: 254 });
  });

  it("describes answers in the proto3 JSON mapping the REST paths write", () => {
    const user = openapi.components.schemas["auth.v1.User"];
    expect(user.properties.created_at).toMatchObject({ type: "string", format: "date-time" });
    expect(user.properties.metadata).toMatchObject({ type: "object" });
    expect(user.properties.email_verified).toMatchObject({ type: "boolean" });
    // Implicit fields are always written (JSON_OPTIONS.alwaysEmitImplicit), so they are required.
    expect(user.required).toEqual(expect.arrayContaining(["id", "email", "email_verified"]));
    expect(user.required).not.toContain("created_at");
    const apiKey = openapi.components.schemas["account.v1.ApiKey"];
    expect(apiKey.properties.expires_at).not.toHaveProperty("type"); // google.protobuf.Value: any JSON, null included
  });

  it("declares each operation's credentials from its (gatehouse.options.v1.access) option", () => {
    expect(operationFor("POST", "/v1/account/login").security).toEqual([]);
    expect(operationFor("GET", "/v1/projects").security).toEqual([{ ManagementToken: [] }]);
    expect(operationFor("DELETE", "/v1/projects/x").security).toEqual([{ ManagementToken: ["admin"] }]);
    expect(operationFor("POST", "/v1/auth/token/verify").security).toEqual([{ ApiKey: ["auth:read"] }]);
    expect(operationFor("GET", "/v1/auth/sessions").security).toEqual([{ ApiKey: ["auth:read"], UserToken: [] }]);
    expect(operationFor("PATCH", "/v1/auth/users/x").security).toEqual([
      { ApiKey: ["users:write"] },
      { ApiKey: ["auth:write"], UserToken: [] },
    ]);
    expect(openapi.components.securitySchemes.ApiKey).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "X-Service-Key",
    });
    expect(openapi.components.securitySchemes.UserToken).toMatchObject({
      type: "http",
      scheme: "bearer",
      bearerFormat: "JWT",
    });
  });

  it("gives every operation the error body as its default answer, and the proto comments as descriptions", () => {
    for (const { op } of operations()) {
      expect(op.responses.default).toEqual({ $ref: "#/components/responses/Error" });
      expect(op.responses["4XX"]).toEqual({ $ref: "#/components/responses/Error" });
      expect(op.summary, op.operationId).toBeTruthy();
    }
    expect(openapi.components.schemas.ErrorBody.required).toEqual(["code", "reason", "message", "request_id"]);
    expect(openapi.components.schemas.ErrorBody.properties).toHaveProperty("retry_after_seconds");
    expect(operationFor("POST", "/v1/auth/token/verify").summary).toBe("Verifies an access token");
    expect(openapi.components.schemas["auth.v1.LoginRequest"].description).toBe("Password sign-in credentials.");
  });

  it("types Struct as a free-form JSON object and Value as any JSON value, so generated clients can set them", () => {
    const freeForm = { type: "object", additionalProperties: true };
    const update = operationFor("PATCH", "/v1/auth/users/{id}").requestBody.content["application/json"].schema;
    expect(update.properties.metadata).toMatchObject(freeForm);
    expect(update.properties.app_metadata).toMatchObject(freeForm);
    expect(openapi.components.schemas["auth.v1.User"].properties.metadata).toMatchObject(freeForm);
    expect(openapi.components.schemas["account.v1.AuditEvent"].properties.details).toMatchObject(freeForm);
    // A Value (an API key's `expires_at`: a time or null) is any JSON value: no type at all.
    expect(Object.keys(openapi.components.schemas["account.v1.ApiKey"].properties.expires_at)).toEqual(["description"]);
  });

  it("names a relative server, which a running server replaces with its PUBLIC_URL", () => {
    expect(openapi.servers).toEqual([expect.objectContaining({ url: "/" })]);
  });

  it("carries no note meant for proto maintainers (field numbers, tooling, to-dos)", () => {
    const descriptions: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === "object")
        for (const [key, value] of Object.entries(node)) {
          if (key === "description" && typeof value === "string") descriptions.push(value);
          else walk(value);
        }
    };
    walk(openapi);
    expect(descriptions.length).toBeGreaterThan(500);
    const internal = /\b(field numbers?|same numbers|reserved|TODO|FIXME|XXX|buf (lint|generate|breaking)|protoc)\b/;
    expect(descriptions.filter((d) => internal.test(d))).toEqual([]);
  });
});
