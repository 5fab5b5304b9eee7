import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { Http2ServerRequest } from "node:http2";
import {
  fromJson,
  ScalarType,
  toJson,
  type DescField,
  type DescMessage,
  type JsonObject,
  type JsonReadOptions,
  type JsonValue,
  type JsonWriteOptions,
} from "@bufbuild/protobuf";
import { errorToJson } from "@connectrpc/connect/protocol-connect";
import type { ConnectError, ContextValues } from "@connectrpc/connect";
import { DomainError } from "../domain/errors.js";
import { kRequest } from "../interceptors/context.js";
import {
  recordReason,
  restErrorFromConnect,
  writeDomainError,
  writeJson,
  writeJsonText,
  writeReasonError,
  type NodeResponse,
} from "./error-body.js";
import { explainJsonValue } from "./compat/json-decode-errors.js";
import { nestsDeeperThan, TOO_DEEP_MESSAGE } from "./json-depth.js";
import { readBody, BodyTooLarge } from "./read-body.js";
import type { RestMatch } from "./rest-routes.js";
import { nodeHeaders } from "./lane/node-headers.js";
import { jsonTextAnswer } from "./lane/answer-memo.js";
import { decodeRequest } from "./lane/decode.js";
import { runLane } from "./lane/run-lane.js";
import type { LaneMethod } from "./lane/unary-methods.js";

export type NodeRequest = IncomingMessage | Http2ServerRequest;

// A REST call is a unary call of the same handler on the lane, so the four protocols share one
// implementation and one interceptor chain. Only the envelope differs: the request message is
// assembled from path, query and body as JSON and decoded as connect decodes it; the answer's
// message (or its `response_body` field) is the JSON body; errors get the REST body.
export async function serveRest(
  req: NodeRequest,
  res: NodeResponse,
  match: RestMatch,
  requestId: string,
  contextValues: ContextValues,
  maxBodyBytes: number,
  /** The method's lean path (lane/unary-methods.ts). */
  lane: { method: LaneMethod; jsonOptions: Partial<JsonReadOptions & JsonWriteOptions> },
): Promise<void> {
  let message: JsonObject;
  try {
    message = await requestMessage(req, match, maxBodyBytes);
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      res.setHeader("connection", "close");
      return writeReasonError(res, requestId, "REQUEST_TOO_LARGE", `request body exceeds ${maxBodyBytes} bytes`, 413);
    }
    if (error instanceof DomainError) return writeReasonError(res, requestId, error.reason, error.message);
    throw error;
  }
  // Only these reach the interceptors: a REST call carries no other credential (no page header).
  const forwarded: IncomingHttpHeaders = { "content-type": "application/json" };
  for (const name of FORWARDED_HEADERS) {
    const value = req.headers[name];
    if (typeof value === "string") forwarded[name] = value;
  }
  const { method } = lane.method;
  const json = { ...lane.jsonOptions, ignoreUnknownFields: true };
  let decoded: unknown;
  try {
    decoded = fromJson(method.input, message, json);
  } catch {
    // Decoded once more as connect decodes the JSON text this call stands for, for its error.
    const text = Buffer.from(JSON.stringify(message));
    const again = decodeRequest(method, false, text, lane.jsonOptions, maxBodyBytes);
    if ("error" in again) return refuseUndecodable(res, match, requestId, contextValues, again.error, message, lane);
    decoded = again.message;
  }
  const answer = await runLane(
    req,
    res,
    lane.method,
    "connect",
    nodeHeaders(forwarded),
    decoded,
    contextValues,
    undefined,
  );
  if ("ok" in answer) {
    const responseBody = match.route.responseBody;
    if (responseBody === "")
      writeJsonText(res, 200, jsonTextAnswer(method.output, answer.ok.message, lane.jsonOptions));
    else
      writeJson(
        res,
        200,
        (toJson(method.output, answer.ok.message, lane.jsonOptions) as JsonObject)[responseBody] ?? null,
      );
    return;
  }
  const retryAfter = answer.error.metadata.get("retry-after");
  if (retryAfter) res.setHeader("retry-after", retryAfter);
  const error = restErrorFromConnect(errorToJson(answer.error, lane.jsonOptions), requestId);
  writeJson(res, error.status, error.body);
}

const FORWARDED_HEADERS = ["authorization", "x-service-key", "origin", "user-agent", "x-forwarded-for"];

/**
 * A message that does not decode (a value of the wrong JSON type), refused before the chain
 * runs: the field named in the API's terms (compat/json-decode-errors.ts), or, when no field is
 * to blame, connect's own decoding error, in the REST shape.
 */
function refuseUndecodable(
  res: NodeResponse,
  match: RestMatch,
  requestId: string,
  contextValues: ContextValues,
  refused: ConnectError,
  message: JsonObject,
  lane: { jsonOptions: Partial<JsonWriteOptions> },
): void {
  const explained = explainJsonValue(match.route.handler.method.input, message);
  if (explained) {
    recordReason(contextValues.get(kRequest), explained.reason);
    return writeDomainError(res, requestId, explained);
  }
  const error = restErrorFromConnect(errorToJson(refused, lane.jsonOptions), requestId);
  writeJson(res, error.status, error.body);
}

async function requestMessage(req: NodeRequest, match: RestMatch, maxBodyBytes: number): Promise<JsonObject> {
  const { route, params } = match;
  const input = route.handler.method.input;
  let message: JsonObject = {};
  if (route.body !== "") {
    const body = await parseJsonBody(req, maxBodyBytes);
    message = route.body === "*" ? body : { [route.body]: body };
  }
  if (route.body !== "*") {
    const query = new URL(req.url ?? "/", "http://localhost").searchParams;
    for (const key of new Set(query.keys())) {
      const field = fieldByName(input, key);
      if (field) message[field.name] = queryValue(field, query.getAll(key));
    }
  }
  for (const [name, value] of Object.entries(params)) message[name] = value;
  return message;
}

async function parseJsonBody(req: NodeRequest, maxBodyBytes: number): Promise<JsonObject> {
  const bytes = await readBody(req, maxBodyBytes);
  // Before JSON.parse: what it builds is stringified again, recursively, on the way to the handler.
  if (nestsDeeperThan(bytes)) throw new DomainError("VALIDATION_FAILED", TOO_DEEP_MESSAGE);
  const text = bytes.toString("utf8");
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new DomainError("VALIDATION_FAILED", "request body is not valid JSON");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new DomainError("VALIDATION_FAILED", "request body must be a JSON object");
  }
  return parsed as JsonObject;
}

function fieldByName(desc: DescMessage, key: string): DescField | undefined {
  return desc.fields.find((f) => f.name === key || f.jsonName === key);
}

// Query strings carry text only; convert to the JSON type the field expects so the
// proto JSON parser sees `limit=5` as a number and `keep_current=true` as a boolean.
function queryValue(field: DescField, values: string[]): JsonValue {
  if (field.fieldKind === "list") {
    return values
      .flatMap((v) => v.split(","))
      .map((v) => scalarValue(field.listKind === "scalar" ? field.scalar : undefined, v));
  }
  const last = values[values.length - 1];
  return scalarValue(field.fieldKind === "scalar" ? field.scalar : undefined, last);
}

function scalarValue(scalar: ScalarType | undefined, text: string): JsonValue {
  switch (scalar) {
    case ScalarType.BOOL:
      return text === "true" || text === "1" ? true : text === "false" || text === "0" ? false : text;
    case ScalarType.INT32:
    case ScalarType.UINT32:
    case ScalarType.SINT32:
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    default:
      return text;
  }
}
