import { ConnectError } from "@connectrpc/connect";
import { ErrorInfoSchema, RetryInfoSchema } from "../../../gen/google/rpc/error_details_pb.js";

/**
 * The `reason` Gatehouse gives every error (API.md section 3: INVALID_CREDENTIALS,
 * RATE_LIMITED, …), read from the google.rpc.ErrorInfo detail on every protocol; undefined for
 * an error that is not Gatehouse's (a network failure, a proxy's page).
 */
export function errorReason(error: unknown): string | undefined {
  if (!(error instanceof ConnectError)) return undefined;
  return error.findDetails(ErrorInfoSchema)[0]?.reason;
}

/** Seconds to wait before retrying a RATE_LIMITED or SERVICE_UNAVAILABLE answer, if it says. */
export function retryAfterSeconds(error: unknown): number | undefined {
  if (!(error instanceof ConnectError)) return undefined;
  const delay = error.findDetails(RetryInfoSchema)[0]?.retryDelay;
  return delay === undefined ? undefined : Number(delay.seconds) + delay.nanos / 1e9;
}
