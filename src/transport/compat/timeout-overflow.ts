import type { NodeRequest } from "../rest-handler.js";

// Works around: @connectrpc/connect 2.1.2 refuses a deadline over the router's maxTimeoutMs
// (parseTimeout, dist/esm/protocol-grpc/parse-timeout.js and protocol-connect/parse-timeout.js)
// but hands the refused value to the handler context all the same (createHandlerContext in
// dist/esm/implementation.js), which arms a setTimeout with it. A delay past 2^31-1 ms fires
// after 1 ms instead, with a TimeoutOverflowWarning on stderr, once per such request.
// No upstream issue found.
//
// Header values in, header values out: the headers are rewritten before connect reads them.
// test/transport/compat/timeout-overflow.test.ts shows the framework still warns on such a
// header and fails once it stops.
//
// Drop when connect-es no longer arms a timer with a deadline it refused (the router's
// maxTimeoutMs in server.ts stays either way).

/** The longest delay Node's timers take; a longer one fires after 1 ms, with a TimeoutOverflowWarning. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

const GRPC_TIMEOUT = /^(\d{1,8})([HMSmun])$/;
const GRPC_UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 1e-3, n: 1e-6 };

/**
 * A client's deadline further away than Node's timers reach (2^31-1 ms, about 24.8 days) is
 * brought down to that reach, which no call outlives. The gRPC spec allows 8 digits of hours
 * (`99999999H`, 11,000 years) and Connect 10 digits of milliseconds. Such a deadline means
 * "no hurry": the call is served. Values that do not parse are left for connect to refuse.
 */
export function clampTimeoutHeaders(req: NodeRequest): void {
  const grpc = req.headers["grpc-timeout"];
  if (typeof grpc === "string") {
    const parsed = GRPC_TIMEOUT.exec(grpc);
    // Whole seconds: the most that fits in 8 digits and under the timer's reach.
    if (parsed && Number(parsed[1]) * GRPC_UNIT_MS[parsed[2]] > MAX_TIMER_MS)
      req.headers["grpc-timeout"] = `${Math.floor(MAX_TIMER_MS / 1000)}S`;
  }
  const connect = req.headers["connect-timeout-ms"];
  if (typeof connect === "string" && /^\d{1,10}$/.test(connect) && Number(connect) > MAX_TIMER_MS)
    req.headers["connect-timeout-ms"] = String(MAX_TIMER_MS);
}
