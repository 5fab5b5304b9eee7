import type { NodeRequest } from "./rest-handler.js";

/** The longest delay Node's timers take; a longer one fires after 1 ms, with a TimeoutOverflowWarning. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

const GRPC_TIMEOUT = /^(\d{1,8})([HMSmun])$/;
const GRPC_UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 1e-3, n: 1e-6 };

/**
 * A client's deadline further away than Node's timers reach (2^31-1 ms, about 24.8 days) is
 * brought down to that reach, which no call outlives. The gRPC spec allows 8 digits of hours
 * (`99999999H`, 11,000 years) and Connect 10 digits of milliseconds; connect-es refuses a value
 * over `maxTimeoutMs`, but arms its timer with it all the same, and Node then prints a
 * TimeoutOverflowWarning on stderr for each such request. Such a deadline means "no hurry": the
 * call is served. Values that do not parse are left for connect to refuse.
 */
export function clampTimeoutHeaders(req: NodeRequest): void {
  const grpc = req.headers["grpc-timeout"];
  if (typeof grpc === "string") {
    const parsed = GRPC_TIMEOUT.exec(grpc);
    // Whole seconds: the most that fits in 8 digits and under the timer's reach.
    if (parsed && Number(parsed[1]) * GRPC_UNIT_MS[parsed[2]] > MAX_TIMER_MS) req.headers["grpc-timeout"] = `${Math.floor(MAX_TIMER_MS / 1000)}S`;
  }
  const connect = req.headers["connect-timeout-ms"];
  if (typeof connect === "string" && /^\d{1,10}$/.test(connect) && Number(connect) > MAX_TIMER_MS) req.headers["connect-timeout-ms"] = String(MAX_TIMER_MS);
}
