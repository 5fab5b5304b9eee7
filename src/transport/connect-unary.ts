import type { ContextValues } from "@connectrpc/connect";
import { universalResponseToNodeResponse } from "@connectrpc/connect-node";
import type { UniversalHandler } from "@connectrpc/connect/protocol";
import { readAllBytes } from "@connectrpc/connect/protocol";
import { writeReasonError, type NodeResponse } from "./error-body.js";
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
  const bytes = answer.body ? await readAllBytes(answer.body, Number.MAX_SAFE_INTEGER) : new Uint8Array();
  const headers: Record<string, string> = {};
  answer.header?.forEach((value, name) => {
    headers[name] = value;
  });
  headers["content-length"] = String(bytes.byteLength);
  res.writeHead(answer.status, headers);
  res.end(bytes);
}
