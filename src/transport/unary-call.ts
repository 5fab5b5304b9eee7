import type { ContextValues } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { createAsyncIterable, type UniversalHandler, type UniversalServerResponse } from "@connectrpc/connect/protocol";
import type { NodeResponse } from "./error-body.js";
import { copyNodeHeaders } from "./lane/node-headers.js";
import type { NodeRequest } from "./rest-handler.js";

export interface UnaryCall {
  /** The path the handler is called with (a REST route's RPC path); defaults to the request's. */
  path?: string;
  header: Headers;
  body: Uint8Array;
  contextValues: ContextValues;
}

/**
 * Runs a unary call whose body has already been read, the way connect-node's
 * universalRequestFromNodeRequest would, except for the call's signal: that one aborts with a
 * Canceled reason only if the client goes away before the answer. connect-node's aborts on
 * every response close, with no reason, which makes Node build a DOMException per request for a
 * signal nobody listens to any more.
 */
export async function runUnaryCall(
  req: NodeRequest,
  res: NodeResponse,
  handler: UniversalHandler,
  call: UnaryCall,
): Promise<UniversalServerResponse> {
  const controller = new AbortController();
  const onGone = () => controller.abort(new ConnectError("the client closed the connection", Code.Canceled));
  res.once("close", onGone);
  try {
    return await handler({
      httpVersion: req.httpVersion,
      method: "POST",
      url: requestUrl(req, call.path ?? req.url ?? "/"),
      header: call.header,
      body: createAsyncIterable([call.body]),
      signal: controller.signal,
      contextValues: call.contextValues,
    });
  } finally {
    res.off("close", onGone);
  }
}

/** The request's headers as fetch Headers, HTTP/2 pseudo-headers left out (as connect-node does). */
export function webHeaders(req: NodeRequest): Headers {
  return copyNodeHeaders(req.headers);
}

// Concatenated rather than parsed: connect's handler parses it once more anyway, for the query
// string only, and a path here always starts with "/" (the router matched it, or it is a
// handler's own requestPath). The lean path builds its calls' URL here too (lane/run-lane.ts).
export function requestUrl(req: NodeRequest, path: string): string {
  const authority = "authority" in req ? req.authority : req.headers.host;
  if (authority === undefined)
    throw new ConnectError("unable to determine request authority from Node.js server request", Code.Internal);
  const encrypted = "encrypted" in req.socket && req.socket.encrypted === true;
  return `${encrypted ? "https" : "http"}://${authority}${path}`;
}
