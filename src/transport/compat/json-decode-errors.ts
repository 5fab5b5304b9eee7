import { brotliDecompressSync, gunzipSync } from "node:zlib";
import {
  fromJson,
  fromJsonString,
  ScalarType,
  type DescField,
  type DescMessage,
  type JsonValue,
} from "@bufbuild/protobuf";
import { isWrapperDesc } from "@bufbuild/protobuf/wkt";
import { DomainError, validationFailed, type Violation } from "../../domain/errors.js";
import { carriesReason, type ConnectErrorJson } from "../error-body.js";
import { nestsDeeperThan, TOO_DEEP_MESSAGE } from "../json-depth.js";
import { duplicateJsonKey } from "./duplicate-json-key.js";

// Works around: @connectrpc/connect 2.1.2 decodes a JSON request before any interceptor runs,
// and a body whose values have the wrong JSON type (`"password": 123`, `"limit": "ten"`,
// `"metadata": [1]`) fails there (createJsonSerialization's parse, dist/esm/protocol/
// serialization.js) as INVALID_ARGUMENT with protobuf's own message (`cannot decode field
// gatehouse.auth.v1.SignupRequest.password …`) and no details, so no reason and no field.
// Decoding stays the framework's job; only when it fails does the transport come here to say
// why in the API's terms: VALIDATION_FAILED with a violation per field, named by its proto field
// name as the validation interceptor names them. No upstream issue found: connect has no hook
// for errors raised before the interceptors.
//
// Matched structurally, not by text: an answer of HTTP 400 (or a REST call's 400) whose error
// carries no ErrorInfo never passed the error interceptor, so the framework wrote it. The body
// is then decoded once more, field by field, with protobuf's own decoder.
// test/transport/compat/json-decode-errors.test.ts shows the framework's reasonless answer.
//
// Drop when connect-es lets an interceptor or hook see the decoding error with the field path.

/** As the router reads JSON (server.ts JSON_OPTIONS): unknown fields are ignored. */
const READ = { ignoreUnknownFields: true } as const;

/**
 * Why this JSON text does not decode into `desc`, or undefined when it does (the failure was
 * something else, which keeps its own answer).
 */
export function explainJsonText(desc: DescMessage, text: string): DomainError | undefined {
  // A compressed body is only seen here, inflated: its depth is checked before anything recurses.
  if (nestsDeeperThan(Buffer.from(text))) return new DomainError("VALIDATION_FAILED", TOO_DEEP_MESSAGE);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return new DomainError("VALIDATION_FAILED", "request body is not valid JSON");
  }
  const explained = explainJsonValue(desc, json);
  if (explained) return explained;
  // JSON.parse keeps the last of two equal keys; protobuf refuses them.
  try {
    fromJsonString(desc, text, READ);
    return undefined;
  } catch (error) {
    const duplicate = duplicateJsonKey(error);
    if (duplicate !== undefined) return validationFailed([{ field: duplicate, description: "appears more than once" }]);
    return new DomainError("VALIDATION_FAILED", "request body does not match the request's fields");
  }
}

/**
 * Why Connect answered a unary JSON call 400 without a reason, as VALIDATION_FAILED naming
 * the fields; undefined when the answer is not that one. Only an uncompressed answer without
 * a reason is looked at: every error that passed the interceptors carries one.
 */
export function explainConnectDecodeFailure(
  /** The request's content coding, as sent. */
  encoding: string | undefined,
  input: DescMessage,
  body: Uint8Array,
  answer: Uint8Array,
  headers: Record<string, string>,
  maxBodyBytes: number,
): DomainError | undefined {
  if (headers["content-encoding"] !== undefined) return undefined;
  let json: ConnectErrorJson;
  try {
    json = JSON.parse(Buffer.from(answer).toString("utf8")) as ConnectErrorJson;
  } catch {
    return undefined;
  }
  if (carriesReason(json)) return undefined;
  const text = requestText(body, encoding, maxBodyBytes);
  return text === undefined ? undefined : explainJsonText(input, text);
}

/** Why this parsed JSON value does not decode into `desc`, or undefined when it does. */
export function explainJsonValue(desc: DescMessage, json: unknown): DomainError | undefined {
  if (!isObject(json)) return new DomainError("VALIDATION_FAILED", "request body must be a JSON object");
  const violations = messageViolations(desc, json, "");
  if (violations.length > 0) return validationFailed(violations);
  try {
    fromJson(desc, json as JsonValue, READ);
    return undefined;
  } catch {
    return new DomainError("VALIDATION_FAILED", "request body does not match the request's fields");
  }
}

/** A Connect request body as sent, decompressed for a diagnosis; undefined when that cannot be done. */
export function requestText(
  body: Uint8Array,
  contentEncoding: string | undefined,
  maxBytes: number,
): string | undefined {
  const encoding = (contentEncoding ?? "identity").trim().toLowerCase();
  try {
    const bytes =
      encoding === "identity"
        ? body
        : encoding === "gzip"
          ? gunzipSync(body, { maxOutputLength: maxBytes })
          : encoding === "br"
            ? brotliDecompressSync(body, { maxOutputLength: maxBytes })
            : undefined;
    return bytes === undefined
      ? undefined
      : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  } catch {
    return undefined;
  }
}

// Each field is tried alone with protobuf's own decoder, so what counts as a valid value is
// exactly what the framework accepts (numbers as strings, null for a default, …); this code
// only decides which field to name and how to describe what it expects.
function messageViolations(desc: DescMessage, json: Record<string, unknown>, prefix: string): Violation[] {
  const out: Violation[] = [];
  for (const [key, value] of Object.entries(json)) {
    const field = desc.fields.find((f) => f.name === key || f.jsonName === key);
    if (!field || decodes(desc, key, value)) continue;
    out.push(...fieldViolations(desc, key, field, value, prefix + field.name));
  }
  return out;
}

function fieldViolations(desc: DescMessage, key: string, field: DescField, value: unknown, name: string): Violation[] {
  if (field.fieldKind === "list") {
    const item = itemNoun(field);
    if (!Array.isArray(value)) return [{ field: name, description: `must be an array whose items are each ${item}` }];
    const out: Violation[] = [];
    value.forEach((entry, i) => {
      if (decodes(desc, key, [entry])) return;
      const nested =
        field.listKind === "message" && !isJsonShaped(field.message) && isObject(entry)
          ? messageViolations(field.message, entry, `${name}[${i}].`)
          : [];
      out.push(...(nested.length > 0 ? nested : [{ field: `${name}[${i}]`, description: `must be ${item}` }]));
    });
    return out.length > 0 ? out : [{ field: name, description: `must be an array whose items are each ${item}` }];
  }
  if (field.fieldKind === "message" && !isJsonShaped(field.message) && isObject(value)) {
    const nested = messageViolations(field.message, value, `${name}.`);
    if (nested.length > 0) return nested;
  }
  if (field.fieldKind === "map")
    return [{ field: name, description: `must be a JSON object whose values are each ${itemNoun(field)}` }];
  return [{ field: name, description: `must be ${itemNoun(field)}` }];
}

function decodes(desc: DescMessage, key: string, value: unknown): boolean {
  try {
    fromJson(desc, { [key]: value } as JsonValue, READ);
    return true;
  } catch {
    return false;
  }
}

/** What one value of the field (one item of a list, one value of a map) must be, in plain words. */
function itemNoun(field: DescField): string {
  switch (field.fieldKind) {
    case "scalar":
      return scalarNoun(field.scalar);
    case "enum":
      return `one of ${field.enum.values.map((v) => `"${v.name}"`).join(", ")}`;
    case "message":
      return messageNoun(field.message);
    case "list":
      return field.listKind === "scalar"
        ? scalarNoun(field.scalar)
        : field.listKind === "enum"
          ? `one of ${field.enum.values.map((v) => `"${v.name}"`).join(", ")}`
          : messageNoun(field.message);
    case "map":
      return field.mapKind === "scalar"
        ? scalarNoun(field.scalar)
        : field.mapKind === "enum"
          ? `one of ${field.enum.values.map((v) => `"${v.name}"`).join(", ")}`
          : messageNoun(field.message);
  }
}

function scalarNoun(scalar: ScalarType): string {
  switch (scalar) {
    case ScalarType.STRING:
      return "a string";
    case ScalarType.BOOL:
      return "true or false";
    case ScalarType.BYTES:
      return "a base64 string";
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return "a number";
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return "a whole number, 0 or more";
    default:
      return "a whole number";
  }
}

function messageNoun(desc: DescMessage): string {
  switch (desc.typeName) {
    case "google.protobuf.Struct":
      return "a JSON object";
    case "google.protobuf.ListValue":
      return "a JSON array";
    case "google.protobuf.Value":
      return "a JSON value";
    case "google.protobuf.Timestamp":
      return "an RFC 3339 date-time string, e.g. 2025-01-31T12:00:00Z";
    case "google.protobuf.Duration":
      return 'a duration string in seconds, e.g. "90s"';
    case "google.protobuf.FieldMask":
      return "a string of comma-separated field names";
  }
  if (isWrapperDesc(desc)) return scalarNoun(desc.fields[0].scalar ?? ScalarType.STRING);
  return "a JSON object";
}

/** Well-known types with a JSON form of their own: named as a whole, never field by field. */
function isJsonShaped(desc: DescMessage): boolean {
  return desc.typeName.startsWith("google.protobuf.");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
