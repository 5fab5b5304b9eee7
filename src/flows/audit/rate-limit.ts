import { DomainError, RateLimitedError } from "../../domain/errors.js";
import type { FlowDeps } from "../deps.js";

/** Written in every `rate_limit.exceeded` row: what one row stands for. */
export const RATE_LIMIT_THROTTLE = "first refusal per limited key and wait";

/**
 * The key a refusal is throttled under: the limit's own key in the limiter store, or, for a
 * refusal that names none (a resend wait a flow counts itself), `fallback`, a keyed hash of
 * what identifies the caller there.
 */
export function throttleKey(error: DomainError, fallback: () => string): string {
  return error instanceof RateLimitedError && error.limitedKey !== undefined ? error.limitedKey : `audit:${fallback()}`;
}

/**
 * Whether a RATE_LIMITED refusal is the first under its key within its Retry-After: only that
 * one is recorded, so a flood of refused requests writes one row per key and wait rather than
 * one per request. Counted in the limiter store, so instances sharing it count together. When
 * the count cannot be made, the event is recorded all the same: a duplicate row is better than
 * a missing one.
 */
export async function firstRefusal(
  deps: Pick<FlowDeps, "logger" | "limits">,
  key: string,
  error: DomainError,
): Promise<boolean> {
  try {
    return await deps.limits.firstRefusal(key, error.retryAfterSeconds ?? 1);
  } catch (failure) {
    deps.logger.warn({ err: failure }, "rate limit refusal not counted; recorded anyway");
    return true;
  }
}

/** The details a `rate_limit.exceeded` row carries besides its own (the RPC or sign-in method). */
export function rateLimitDetails(error: DomainError): { throttle: string; retry_after_seconds: number } {
  return { throttle: RATE_LIMIT_THROTTLE, retry_after_seconds: error.retryAfterSeconds ?? 0 };
}

/** A fallback key: an HMAC, so the store holds no address or email. */
export function refusalKey(deps: Pick<FlowDeps, "codes">, ...parts: string[]): string {
  return deps.codes.hmac("audit refusal", parts.join("\n")).slice(0, 32);
}
