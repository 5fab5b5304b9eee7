import { getOption, hasOption, type DescField, type DescMethod, type DescService } from "@bufbuild/protobuf";
import { Code, createConnectRouter } from "@connectrpc/connect";
import {
  access as accessExt,
  Credential,
  Publishable,
  Role,
  type Access,
} from "../gen/gatehouse/options/v1/options_pb.js";
import { REASONS } from "../src/domain/errors.js";
import { codeName } from "../src/interceptors/error-codes.js";
import { compileRestRoutes, type RestRoute } from "../src/transport/rest-routes.js";
import type { Comments } from "./openapi-comments.js";
import { rulesOf, Schemas, TEXT_WELL_KNOWN, type Schema } from "./openapi-schemas.js";

export interface OpenApiInput {
  /** The services whose `google.api.http` bindings make the REST surface, in document order. */
  services: readonly DescService[];
  comments: Comments;
  version: string;
}

type Json = { [key: string]: unknown };

/**
 * The OpenAPI 3.1 document of the REST paths, from the descriptors alone. The bindings come
 * from the router's own compiler (src/transport/rest-routes.ts) and the request is described
 * the way src/transport/rest-handler.ts assembles it: path variables first, then with body
 * `*` the whole JSON body and no query, with a named body field that field as the body and
 * the other fields in the query, and without a body every other field in the query.
 */
export function buildOpenApi(input: OpenApiInput): Json {
  const schemas = new Schemas(input.comments);
  const routes = input.services.flatMap((service) => routesOf(service));
  for (const route of routes) {
    const { whole, fields } = requestParts(route);
    if (whole) schemas.use(route.method.input, "request");
    for (const field of fields) schemas.useField(field, "request");
    const responseField = responseFieldOf(route);
    if (responseField) schemas.useField(responseField, "response");
    else schemas.use(route.method.output, "response");
  }
  schemas.finish();

  const paths: Record<string, Record<string, Json>> = {};
  const operationIds = new Set<string>();
  for (const route of routes) {
    const path = (paths[route.rest.template] ??= {});
    let operationId = `${route.method.parent.name}_${route.method.name}`;
    for (let n = 2; operationIds.has(operationId); n++)
      operationId = `${route.method.parent.name}_${route.method.name}_${n}`;
    operationIds.add(operationId);
    path[route.rest.verb.toLowerCase()] = operation(route, operationId, schemas, input.comments);
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Gatehouse",
      version: input.version,
      description:
        "The REST paths of Gatehouse, generated from the proto descriptors and their `google.api.http` options " +
        "(scripts/openapi.ts). The same operations are served over gRPC, gRPC-Web and Connect on the same port. " +
        "JSON uses the proto field names; fields with default values are written; errors have one shape (ErrorBody).",
    },
    // Relative, so a client generated from this file calls the host it fetched it from; the
    // served copy names the instance's PUBLIC_URL instead (src/routes/openapi.ts).
    servers: [
      {
        url: "/",
        description: "The host this document was fetched from; GET /openapi.json on a server names its PUBLIC_URL.",
      },
    ],
    // A tag per service with REST paths: health and reflection (gRPC only) have none, and
    // reflection's v1 and v1alpha would otherwise give two tags of one name.
    tags: input.services
      .filter((service) => routes.some((route) => route.method.parent === service))
      .map((service) => ({ name: service.name, ...describe(input.comments.get(service.typeName)) })),
    paths,
    components: {
      schemas: { ...schemas.components(), ErrorBody: ERROR_BODY, Violation: VIOLATION },
      responses: { Error: ERROR_RESPONSE },
      headers: HEADERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

interface BoundRoute {
  method: DescMethod;
  rest: RestRoute;
}

// The server's compiler, fed handlers that are never called: what it compiles is exactly what
// the server routes.
function routesOf(service: DescService): BoundRoute[] {
  const router = createConnectRouter().service(service, {});
  return compileRestRoutes(router.handlers)
    .map((rest) => ({ method: rest.handler.method, rest }))
    .sort((a, b) => a.method.parent.methods.indexOf(a.method) - b.method.parent.methods.indexOf(b.method));
}

interface RequestParts {
  path: DescField[];
  query: DescField[];
  /** The body is the whole input message (body `*`, no path variables): a $ref. */
  whole: boolean;
  /** Body `*` with path variables: the input message without them, inline. */
  inlineBody?: { omit: Set<string> };
  /** A named body field. */
  bodyField?: DescField;
  /** Every field whose schema the operation shows (for Schemas.useField). */
  fields: DescField[];
}

// How src/transport/rest-handler.ts builds the request message of a REST call.
function requestParts(route: BoundRoute): RequestParts {
  const { method, rest } = route;
  const input = method.input;
  const fieldNamed = (name: string): DescField => {
    const field = input.fields.find((f) => f.name === name);
    if (!field)
      throw new Error(
        `${method.parent.typeName}/${method.name}: ${rest.template} names ${name}, which ${input.typeName} lacks`,
      );
    return field;
  };
  const path = rest.segments.flatMap((s) => ("variable" in s ? [fieldNamed(s.variable)] : []));
  const omit = new Set(path.map((f) => f.name));
  const bodyField = rest.body === "" || rest.body === "*" ? undefined : fieldNamed(rest.body);
  const query =
    rest.body === "*" ? [] : input.fields.filter((f) => !omit.has(f.name) && f !== bodyField && fitsQuery(f));
  const whole = rest.body === "*" && path.length === 0;
  const inlineBody = rest.body === "*" && path.length > 0 ? { omit } : undefined;
  const inlineFields = inlineBody ? input.fields.filter((f) => !omit.has(f.name)) : [];
  return {
    path,
    query,
    whole,
    inlineBody,
    bodyField,
    fields: [...path, ...query, ...inlineFields, ...(bodyField ? [bodyField] : [])],
  };
}

function responseFieldOf(route: BoundRoute): DescField | undefined {
  const name = route.rest.responseBody;
  if (name === "") return undefined;
  const field = route.method.output.fields.find((f) => f.name === name);
  if (!field)
    throw new Error(
      `${route.method.parent.typeName}/${route.method.name}: response_body names ${name}, which ${route.method.output.typeName} lacks`,
    );
  return field;
}

function operation(route: BoundRoute, operationId: string, schemas: Schemas, comments: Comments): Json {
  const { method, rest } = route;
  const input = method.input;
  const parts = requestParts(route);
  const parameters = [
    ...parts.path.map((f) => parameter(f, "path", schemas)),
    ...parts.query.map((f) => parameter(f, "query", schemas)),
  ];
  const op: Json = {
    operationId,
    tags: [method.parent.name],
    ...describe(comments.get(`${method.parent.typeName}.${method.name}`), true),
  };
  if (parameters.length > 0) op.parameters = parameters;
  if (rest.body !== "") {
    const omit = parts.inlineBody?.omit ?? new Set<string>();
    const schema = parts.bodyField
      ? schemas.field(parts.bodyField, "request")
      : parts.inlineBody
        ? schemas.inline(input, "request", omit)
        : schemas.ref(input, "request");
    const required = parts.bodyField ? rulesOf(parts.bodyField)?.required === true : schemas.hasRequired(input, omit);
    op.requestBody = { required, content: { "application/json": { schema } } };
  }
  const output = method.output;
  const responseField = responseFieldOf(route);
  const responseSchema = responseField ? schemas.field(responseField, "response") : schemas.ref(output, "response");
  op.responses = {
    "200": {
      description: `${output.name}${responseField ? `.${responseField.name}` : ""}`,
      headers: { "x-request-id": { $ref: "#/components/headers/RequestId" } },
      content: { "application/json": { schema: responseSchema } },
    },
    // One body for every error status. 4XX is named so the caller's mistakes have a response
    // of their own (Redocly's operation-4xx-response); `default` covers the rest (5XX).
    "4XX": { $ref: "#/components/responses/Error" },
    default: { $ref: "#/components/responses/Error" },
  };
  const access = hasOption(method, accessExt) ? getOption(method, accessExt) : undefined;
  if (!access || access.credential === Credential.UNSPECIFIED)
    throw new Error(`${method.parent.typeName}/${method.name} declares no (gatehouse.options.v1.access)`);
  op.security = security(access);
  if (access.publishable !== Publishable.UNSPECIFIED) {
    op["x-gatehouse-publishable-key"] = access.publishable === Publishable.ALLOWED ? "allowed" : "with_user_token";
  }
  op["x-gatehouse-rpc"] = `${method.parent.typeName}/${method.name}`;
  return op;
}

function parameter(field: DescField, where: "path" | "query", schemas: Schemas): Json {
  const { description, ...schema } = schemas.field(field, "request");
  const out: Json = { name: field.name, in: where };
  if (typeof description === "string") out.description = description;
  out.required = where === "path" || rulesOf(field)?.required === true;
  out.schema = schema;
  return out;
}

/** What the REST router can fill from a query string: scalars, enums, lists of them, and well-known types written as text. */
function fitsQuery(field: DescField): boolean {
  switch (field.fieldKind) {
    case "scalar":
    case "enum":
      return true;
    case "list":
      return field.listKind !== "message";
    case "message":
      return TEXT_WELL_KNOWN.has(field.message.typeName);
    default:
      return false;
  }
}

// Scopes and roles go in the requirement's list, as OpenAPI 3.1 allows for any scheme.
function security(access: Access): Json[] {
  const keyScope = access.scope === "" ? [] : [access.scope];
  const userScope = access.userScope === "" ? keyScope : [access.userScope];
  switch (access.credential) {
    case Credential.NONE:
      return [];
    case Credential.API_KEY:
      return [{ ApiKey: keyScope }];
    case Credential.API_KEY_AND_USER_TOKEN:
      return [{ ApiKey: userScope, UserToken: [] }];
    case Credential.API_KEY_OPTIONAL_USER_TOKEN:
      return [{ ApiKey: keyScope }, { ApiKey: userScope, UserToken: [] }];
    case Credential.MANAGEMENT_TOKEN:
      return [{ ManagementToken: access.role === Role.ADMIN ? ["admin"] : [] }];
    case Credential.OPTIONAL_MANAGEMENT_TOKEN:
      // `{}`: no credential (the request carries an mfa_token instead).
      return [{}, { ManagementToken: access.role === Role.ADMIN ? ["admin"] : [] }];
    default:
      throw new Error(`unknown credential ${access.credential}`);
  }
}

/** A comment as summary (its first sentence) and description (all of it). */
function describe(comment: string | undefined, withSummary = false): Json {
  if (!comment) return {};
  if (!withSummary) return { description: comment };
  const paragraph = comment.split(/\n\s*\n/, 1)[0].replace(/\s*\n\s*/g, " ");
  const sentence = /^.*?[.:](?=\s|$)/.exec(paragraph)?.[0] ?? paragraph;
  return { summary: sentence.replace(/[.:]$/, ""), description: comment };
}

const CODE_NAMES = Object.values(Code)
  .filter((c): c is Code => typeof c === "number")
  .map((c) => codeName(c));

const VIOLATION: Schema = {
  type: "object",
  description: "One request field that broke its rule.",
  properties: {
    field: {
      type: "string",
      description: "The field's proto (JSON) name; `name[2]` for an item of a list, `a.b` inside a message.",
    },
    description: { type: "string", description: "What is wrong with it, in words." },
  },
  required: ["field", "description"],
};

const ERROR_BODY: Schema = {
  type: "object",
  description:
    "Every REST error (API.md section 3). `reason` is stable and machine-readable: branch on it, never on `message`. " +
    "Reasons are added, never renamed, so treat one not listed in `examples` as its `code`.",
  properties: {
    code: {
      type: "string",
      enum: CODE_NAMES,
      description: "The status code, in the Connect protocol's names; it decides the HTTP status.",
    },
    reason: { type: "string", examples: [...REASONS], description: "Why, in Gatehouse's vocabulary of reasons." },
    message: { type: "string", description: "For people: never a secret, a stack trace or SQL." },
    request_id: {
      type: "string",
      description: "The same id as the `x-request-id` header; quote it when reporting a problem.",
    },
    violations: {
      type: "array",
      items: { $ref: "#/components/schemas/Violation" },
      description: "VALIDATION_FAILED: every field that broke its rule.",
    },
    retry_after_seconds: {
      type: "integer",
      minimum: 0,
      description: "RATE_LIMITED and SERVICE_UNAVAILABLE: seconds to wait, as in `Retry-After`.",
    },
  },
  required: ["code", "reason", "message", "request_id"],
};

const ERROR_RESPONSE = {
  description:
    "An error: 400 invalid_argument and failed_precondition, 401, 403, 404, 409, 413, 429 (with Retry-After), 500, 503.",
  headers: {
    "x-request-id": { $ref: "#/components/headers/RequestId" },
    "retry-after": { $ref: "#/components/headers/RetryAfter" },
  },
  content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorBody" } } },
};

const HEADERS = {
  RequestId: { description: "The request's id, on every answer.", schema: { type: "string" } },
  RetryAfter: {
    description: "Seconds to wait before trying again (429 and 503).",
    schema: { type: "integer", minimum: 0 },
  },
};

const SECURITY_SCHEMES = {
  ApiKey: {
    type: "apiKey",
    in: "header",
    name: "X-Service-Key",
    description:
      "A project API key. Secret keys (`gk_…`) belong on servers and are refused with an `Origin` header; publishable keys (`gpk_…`) " +
      "reach only the operations marked `x-gatehouse-publishable-key`. The requirement lists the scope the key needs.",
  },
  ManagementToken: {
    type: "http",
    scheme: "bearer",
    description:
      "An organization member's management token, from POST /v1/account/login. The requirement lists the role needed beyond member (`admin`).",
  },
  UserToken: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "An end user's access token, beside the project API key: the request acts as that user.",
  },
};
