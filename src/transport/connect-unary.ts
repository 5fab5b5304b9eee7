import type { ContextValues } from "@connectrpc/connect";
import type { UniversalHandler } from "@connectrpc/connect/protocol";
import { errorToJsonBytes } from "@connectrpc/connect/protocol-connect";
import { DomainError } from "../domain/errors.js";
import { kRequest } from "../interceptors/context.js";
import { domainToConnect } from "../interceptors/errors.js";
import { codeName, httpStatus, REASON_CODES } from "../interceptors/error-codes.js";
import { recordReason, writeReasonError, type NodeResponse } from "./error-body.js";
import { fixConnectErrorBody } from "./framework-errors.js";
import { nestsDeeperThan, TOO_DEEP_MESSAGE } from "./json-depth.js";
import { explainConnectDecodeFailure } from "./compat/json-decode-errors.js";
import { connectGetAsPost } from "./connect-get.js";
import { BodyTooLarge, readBody } from "./read-body.js";
import type { NodeRequest } from "./rest-handler.js";
import { connectLaneAnswer, headerValue, type ConnectLaneOptions, type ConnectRequest } from "./lane/serve-connect.js";
import type { LaneMethod } from "./lane/unary-methods.js";

/**
 * A Connect unary call: a POST of JSON or binary, as opposed to gRPC, gRPC-Web and streams, or
 * a GET (connect-get.ts; refused here unless the method is a read).
 */
export function isConnectUnary(req: NodeRequest): boolean {
  if (req.method === "GET") return true;
  if (req.method !== "POST") return false;
  const type = String(req.headers["content-type"] ?? "")
    .split(";", 1)[0]
    .trim()
    .toLowerCase();
  return type === "application/json" || type === "application/proto";
}

/**
 * A Connect unary call, POST or GET, with its body read in one piece and its answer written in
 * one piece by the lane (lane/serve-connect.ts): connect-node's generic adapters stream both (an
 * async iterator over the request, a write awaited per chunk), which costs more than the whole
 * of a VerifyToken. Same handler, same interceptors, same bytes on the wire. Here: the GET's
 * query read as the POST it stands for, what is refused before anything decodes, and
 * connect's own errors put in the API's terms on the way out.
 */
export async function serveConnectUnary(
  req: NodeRequest,
  res: NodeResponse,
  handler: UniversalHandler,
  /** The method's lane; none for a stream, which only a GET brings here (and is refused). */
  lane: LaneMethod | undefined,
  contextValues: ContextValues,
  requestId: string,
  options: ConnectLaneOptions & { maxBodyBytes: number },
): Promise<void> {
  const { maxBodyBytes } = options;
  let call: ConnectRequest;
  let method: LaneMethod;
  if (req.method === "GET") {
    const get = connectGetAsPost(req, handler.method, lane);
    if ("refused" in get) {
      if (get.refused.allow) res.setHeader("allow", get.refused.allow);
      return writeRefusal(res, contextValues, get.refused);
    }
    ({ call, lane: method } = get);
  } else {
    let body: Uint8Array;
    try {
      body = await readBody(req, maxBodyBytes);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      res.setHeader("connection", "close");
      return writeReasonError(res, requestId, "REQUEST_TOO_LARGE", `request body exceeds ${maxBodyBytes} bytes`, 413);
    }
    if (!lane) throw new Error(`no lane for ${handler.requestPath}`);
    method = lane;
    call = { contentType: headerValue(req, "content-type"), encoding: headerValue(req, "content-encoding"), body };
  }
  const refusal = refuseBeforeDecoding(call);
  if (refusal) return writeRefusal(res, contextValues, refusal);
  const answer = await connectLaneAnswer(req, res, method, call, contextValues, options);
  let { bytes } = answer;
  const { headers } = answer;
  if (answer.status === 400 && isJson(call.contentType)) {
    const explained = explainConnectDecodeFailure(
      call.encoding ?? undefined,
      method.method.input,
      call.body,
      bytes,
      headers,
      maxBodyBytes,
    );
    if (explained) {
      recordReason(contextValues.get(kRequest), explained.reason);
      bytes = errorToJsonBytes(domainToConnect(explained), ERROR_JSON);
    }
  }
  let status = answer.status;
  if (status >= 400 && headers["content-encoding"] === undefined) {
    // Raised by connect before the interceptors (protobuf that does not parse, a body that does
    // not inflate): put in the API's terms, malformed input as 400 rather than 500.
    const fixed = fixConnectErrorBody(bytes, requestId);
    if (fixed) {
      bytes = fixed.body;
      status = httpStatus(fixed.error.code);
      const record = contextValues.get(kRequest);
      if (record) {
        record.code = codeName(fixed.error.code);
        record.reason = fixed.reason;
      }
    }
  }
  headers["content-length"] = String(bytes.byteLength);
  res.writeHead(status, headers);
  res.end(bytes);
}

/** A refusal before the handler ran, as Connect's error JSON (with its ErrorInfo) under the status given. */
function writeRefusal(
  res: NodeResponse,
  contextValues: ContextValues,
  refusal: { status: number; error: DomainError },
): void {
  recordReason(contextValues.get(kRequest), refusal.error.reason);
  const bytes = errorToJsonBytes(domainToConnect(refusal.error), ERROR_JSON);
  res.writeHead(refusal.status, { "content-type": "application/json", "content-length": bytes.byteLength });
  res.end(bytes);
}

const ENCODINGS = new Set(["identity", "gzip", "br"]);

/**
 * What is refused before Connect decodes anything: a content coding the server does not speak
 * (415, not connect's 501: the fault is the request's), and JSON nested deeper than any request
 * needs, which would overflow the stack in the decoders (json-depth.ts).
 */
function refuseBeforeDecoding(call: ConnectRequest): { status: number; error: DomainError } | undefined {
  const encoding = call.encoding?.trim().toLowerCase();
  if (encoding !== undefined && !ENCODINGS.has(encoding)) {
    return {
      status: 415,
      error: new DomainError("UNSUPPORTED_MEDIA_TYPE", `content-encoding ${encoding} is not supported; use gzip or br`),
    };
  }
  if ((encoding === undefined || encoding === "identity") && isJson(call.contentType) && nestsDeeperThan(call.body)) {
    return {
      status: httpStatus(REASON_CODES.VALIDATION_FAILED),
      error: new DomainError("VALIDATION_FAILED", TOO_DEEP_MESSAGE),
    };
  }
  return undefined;
}

function isJson(contentType: string | null): boolean {
  return (contentType ?? "").split(";", 1)[0].trim().toLowerCase() === "application/json";
}

/** Error JSON keeps proto field names in its `debug` view, as the router writes it (server.ts JSON_OPTIONS). */
const ERROR_JSON = { useProtoFieldName: true } as const;
