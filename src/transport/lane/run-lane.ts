import { Code, ConnectError, type ContextValues, type UnaryResponse } from "@connectrpc/connect";
import type { NodeResponse } from "../error-body.js";
import type { NodeRequest } from "../rest-handler.js";
import { callSignal } from "./deadline.js";
import { asConnectError, type LaneMethod } from "./unary-methods.js";

export type LaneAnswer = { ok: UnaryResponse } | { error: ConnectError };

/**
 * One call through a lane method, with its signal (client gone, deadline); whatever the chain throws comes back as the ConnectError connect's
 * handlers would have answered.
 */
export async function runLane(
  req: NodeRequest,
  res: NodeResponse,
  lane: LaneMethod,
  protocolName: "grpc" | "connect",
  header: Headers,
  message: unknown,
  contextValues: ContextValues,
  timeoutMs: number | undefined,
): Promise<LaneAnswer> {
  // Outside the try, as on the general path: a request with no authority is the handler's
  // failure (500), not an error of the call.
  const url = requestUrl(req, lane.path);
  const call = callSignal(res, timeoutMs);
  try {
    return {
      ok: await lane.run({
        protocolName,
        url,
        header,
        message,
        contextValues,
        signal: call.signal,
        deadline: timeoutMs === undefined ? undefined : Date.now() + timeoutMs,
      }),
    };
  } catch (thrown) {
    return { error: asConnectError(thrown) };
  } finally {
    call.done();
  }
}

// Concatenated rather than parsed: a handler that wants the query string parses it itself, and a
// path here always starts with "/" (a lane method's own path). Thrown, as connect-node's
// adapter throws it, when the request names no authority.
function requestUrl(req: NodeRequest, path: string): string {
  const authority = "authority" in req ? req.authority : req.headers.host;
  if (authority === undefined)
    throw new ConnectError("unable to determine request authority from Node.js server request", Code.Internal);
  const encrypted = "encrypted" in req.socket && req.socket.encrypted === true;
  return `${encrypted ? "https" : "http"}://${authority}${path}`;
}
