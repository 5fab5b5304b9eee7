import type { ConnectError, ContextValues, UnaryResponse } from "@connectrpc/connect";
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
  const call = callSignal(res, timeoutMs);
  try {
    return {
      ok: await lane.run({
        protocolName,
        url: requestUrl(req, lane.path),
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

// As unary-call.ts builds it: connect's handlers read only the query string from it.
function requestUrl(req: NodeRequest, path: string): string {
  const authority = "authority" in req ? req.authority : req.headers.host;
  const encrypted = "encrypted" in req.socket && req.socket.encrypted === true;
  return `${encrypted ? "https" : "http"}://${authority ?? "localhost"}${path}`;
}
