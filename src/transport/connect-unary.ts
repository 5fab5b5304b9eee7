import type { ContextValues } from "@connectrpc/connect";
import { universalResponseToNodeResponse } from "@connectrpc/connect-node";
import type { UniversalHandler } from "@connectrpc/connect/protocol";
import { readAllBytes } from "@connectrpc/connect/protocol";
import { errorToJsonBytes } from "@connectrpc/connect/protocol-connect";
import type { DomainError } from "../domain/errors.js";
import { kRequest } from "../interceptors/context.js";
import { domainToConnect } from "../interceptors/errors.js";
import { carriesReason, recordReason, writeReasonError, type ConnectErrorJson, type NodeResponse } from "./error-body.js";
import { explainJsonText, requestText } from "./json-decode-errors.js";
import { BodyTooLarge, readBody } from "./read-body.js";
import type { NodeRequest } from "./rest-handler.js";
import { runUnaryCall, webHeaders } from "./unary-call.js";

/** A Connect unary POST (JSON or binary), as opposed to gRPC, gRPC-Web, streams and GET. */
export function isConnectUnaryPost(req: NodeRequest): boolean {
  if (req.method !== "POST") return false;
  const type = String(req.headers["content-type"] ?? "").split(";", 1)[0].trim().toLowerCase();
  return type === "application/json" || type === "application/proto";
}

/**
 * A Connect unary call with its body read in one piece and its answer written in one piece:
 * connect-node's generic adapters stream both (an async iterator over the request, a write
 * awaited per chunk), which costs more than the whole of a VerifyToken. Same handler, same
 * interceptors, same bytes on the wire.
 */
export async function serveConnectUnary(
  req: NodeRequest,
  res: NodeResponse,
  handler: UniversalHandler,
  contextValues: ContextValues,
  requestId: string,
  maxBodyBytes: number,
): Promise<void> {
  let body: Buffer;
  try {
    body = await readBody(req, maxBodyBytes);
  } catch (error) {
    if (!(error instanceof BodyTooLarge)) throw error;
    res.setHeader("connection", "close");
    return writeReasonError(res, requestId, "REQUEST_TOO_LARGE", `request body exceeds ${maxBodyBytes} bytes`, 413);
  }
  const answer = await runUnaryCall(req, res, handler, { header: webHeaders(req), body, contextValues });
  // Connect's unary protocol sends no trailers of its own; anything else takes the general path.
  if (answer.trailer !== undefined) return universalResponseToNodeResponse(answer, res);
  let bytes = answer.body ? await readAllBytes(answer.body, Number.MAX_SAFE_INTEGER) : new Uint8Array();
  const headers: Record<string, string> = {};
  answer.header?.forEach((value, name) => {
    headers[name] = value;
  });
  if (answer.status === 400 && isJson(req)) {
    const explained = explainDecodeFailure(req, handler, body, bytes, headers, maxBodyBytes);
    if (explained) {
      recordReason(contextValues.get(kRequest), explained.reason);
      bytes = errorToJsonBytes(domainToConnect(explained), ERROR_JSON);
    }
  }
  headers["content-length"] = String(bytes.byteLength);
  res.writeHead(answer.status, headers);
  res.end(bytes);
}

function isJson(req: NodeRequest): boolean {
  return String(req.headers["content-type"] ?? "").split(";", 1)[0].trim().toLowerCase() === "application/json";
}

/** Error JSON keeps proto field names in its `debug` view, as the router writes it (server.ts JSON_OPTIONS). */
const ERROR_JSON = { useProtoFieldName: true } as const;

/**
 * A JSON body that Connect could not decode answers 400 without a reason and with protobuf's
 * own words (json-decode-errors.ts); this answers it as VALIDATION_FAILED naming the fields
 * instead. Only an uncompressed answer without a reason is looked at: every error that passed
 * the interceptors carries one.
 */
function explainDecodeFailure(
  req: NodeRequest,
  handler: UniversalHandler,
  body: Buffer,
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
  const text = requestText(body, stringHeader(req.headers["content-encoding"]), maxBodyBytes);
  return text === undefined ? undefined : explainJsonText(handler.method.input, text);
}

function stringHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(",") : value;
}
