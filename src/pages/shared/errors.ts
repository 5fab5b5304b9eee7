// What a failed call means to the person at the form. Gatehouse's answers carry a stable
// reason (google.rpc.ErrorInfo); the words come from that, never from the server's message or
// a raw body, and an error without a reason is the network's or a proxy's.
import { Code, ConnectError } from "@connectrpc/connect";
import { WebAuthnError } from "@simplewebauthn/browser";
import { BadRequestSchema, ErrorInfoSchema } from "../../../gen/google/rpc/error_details_pb.js";
import { errorReason, retryAfterSeconds } from "../../../sdk/ts/src/errors.js";
import { hasWords, t } from "./words.js";

export interface Explained {
  message: string;
  /** The request field the error is about (a violation's field), to mark that input. */
  field?: string;
  reason?: string;
}

// The words for each reason are the catalog's `reason.<REASON>` keys (src/i18n/catalogs/reasons,
// merged into the page's catalog by src/pages-route/words.ts; the SDK's errorMessage reads them too),
// the same codes API.md lists; a reason the catalog does not know reads as its code.

/** What the browser's own WebAuthn refusals mean, by simplewebauthn's code or the DOMException's name. */
const WEBAUTHN_WORDS: Record<string, string> = {
  ERROR_CEREMONY_ABORTED: "passkey.cancelled",
  NotAllowedError: "passkey.cancelled",
  AbortError: "passkey.cancelled",
  ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED: "passkey.exists",
  InvalidStateError: "passkey.exists",
  ERROR_INVALID_DOMAIN: "passkey.badAddress",
  SecurityError: "passkey.badAddress",
  ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT: "passkey.unsuitable",
  ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT: "passkey.unsuitable",
  ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG: "passkey.unsuitable",
  ConstraintError: "passkey.unsuitable",
  NotSupportedError: "passkey.unsuitable",
};

/** The words for a spent or broken link, shown before any call. */
export const invalidLink = (): string => t("reason.INVALID_LINK");
/** An OpenID Provider interaction the engine no longer knows. */
export const oauthExpired = (): string => t("reason.AUTHORIZATION_REQUEST_EXPIRED");
export const networkFailure = (): string => t("error.network");

/** A failure of the page itself rather than of a call (the bot check's widget), in the words to show. */
export class PageFailure extends Error {}

/**
 * `labelOf` names a request field as its form labels it, so a violation ("is required") reads
 * as a sentence about the input the person sees ("Email is required.").
 */
export function explain(error: unknown, labelOf: (field: string) => string | undefined = () => undefined): Explained {
  if (error instanceof PageFailure) return { message: error.message };
  const webAuthn = webAuthnWords(error);
  if (webAuthn) return { message: webAuthn };
  if (!(error instanceof ConnectError)) return { message: networkFailure() };
  const reason = errorReason(error);
  if (!reason) {
    // connect-web turns a failed fetch into Unknown/Unavailable; other codes without a
    // reason come from something in front of Gatehouse.
    const unreachable = [Code.Unknown, Code.Unavailable, Code.DeadlineExceeded, Code.Canceled].includes(error.code);
    return { message: unreachable ? networkFailure() : t("error.code", { code: Code[error.code] }) };
  }
  // The server sends every RATE_LIMITED with its wait (google.rpc.RetryInfo).
  if (reason === "RATE_LIMITED") return { reason, message: tooManyAttempts(retryAfterSeconds(error)) };
  if (reason === "SSO_FAILED") return { reason, message: ssoFailed(error.rawMessage) };
  // The project's before_user_created hook wrote this message for the person signing up.
  if (reason === "SIGNUP_REFUSED_BY_HOOK")
    return { reason, message: error.rawMessage.trim() || t("error.hookRefused") };
  if (reason === "VALIDATION_FAILED") {
    const violation = error.findDetails(BadRequestSchema)[0]?.fieldViolations[0];
    if (violation) {
      const name = labelOf(violation.field) ?? humanise(violation.field);
      const description = violation.description.trim().replace(/\.$/, "");
      return { reason, message: t("error.violation", { field: name, description }), field: violation.field };
    }
  }
  return { reason, message: reasonWords(reason) ?? t("error.code", { code: reason }) };
}

/**
 * The seconds left of a destination's resend interval when `error` is that refusal: a code or
 * link went to the address less than a minute ago (RATE_LIMITED whose ErrorInfo names the
 * limit `resend_interval`), which is news about the last message, not a fault of the address.
 * Undefined for every other error, other limits' RATE_LIMITED included.
 */
export function resendWait(error: unknown): number | undefined {
  if (!(error instanceof ConnectError) || errorReason(error) !== "RATE_LIMITED") return undefined;
  if (error.findDetails(ErrorInfoSchema)[0]?.metadata.limit !== "resend_interval") return undefined;
  return Math.max(1, Math.ceil(retryAfterSeconds(error) ?? 60));
}

/**
 * What a failed JSON answer of the OpenID Provider's interaction endpoints means: the API's
 * error body (`reason`, or an ErrorInfo-like `details[].reason`, and `message`). An interaction
 * the engine does not know (expired, finished, or another browser's) is 400 or 404.
 */
export function explainHttp(status: number, body: unknown, retryAfter: string | null): string {
  const { reason, message, wait } = errorBodyOf(body);
  if (reason === "RATE_LIMITED")
    return tooManyAttempts(wait ?? (retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined));
  const words = reason ? reasonWords(reason) : undefined;
  if (reason === "OAUTH_CLIENT_NOT_FOUND" && words) return words;
  if (status === 400 || status === 404) return oauthExpired();
  if (words) return words;
  if (message) return message;
  return t("error.http", { status });
}

function reasonWords(reason: string): string | undefined {
  const key = `reason.${reason}`;
  return hasWords(key) ? t(key) : undefined;
}

function errorBodyOf(body: unknown): { reason?: string; message?: string; wait?: number } {
  if (typeof body !== "object" || body === null) return {};
  const b = body as { reason?: unknown; message?: unknown; retry_after_seconds?: unknown; details?: unknown };
  const details = Array.isArray(b.details) ? (b.details as Array<{ reason?: unknown } | null>) : [];
  const reason = [b.reason, ...details.map((d) => d?.reason)].find(
    (r): r is string => typeof r === "string" && r !== "",
  );
  return {
    reason,
    message: typeof b.message === "string" && b.message.trim() !== "" ? b.message.trim() : undefined,
    wait: typeof b.retry_after_seconds === "number" ? b.retry_after_seconds : undefined,
  };
}

/**
 * The browser's answer to a passkey request as words, or undefined for an error that is not
 * one. simplewebauthn wraps the DOMException (its `cause`) in a WebAuthnError with a code when
 * it can tell why, and passes a NotAllowedError (cancelled, timed out, no passkey chosen)
 * through under its own name.
 */
function webAuthnWords(error: unknown): string | undefined {
  if (error instanceof WebAuthnError) {
    const cause = error.cause instanceof Error ? error.cause.name : "";
    return t(WEBAUTHN_WORDS[error.code] ?? WEBAUTHN_WORDS[cause] ?? "passkey.failed");
  }
  if (error instanceof DOMException) return t(WEBAUTHN_WORDS[error.name] ?? "passkey.failed");
  return undefined;
}

export function ssoFailed(description: string): string {
  return t("sso.failed", { description });
}

function tooManyAttempts(seconds: number | undefined): string {
  if (seconds === undefined) return t("error.tooManyLater");
  if (seconds >= 120) return t("error.tooManyMinutes", { minutes: Math.ceil(seconds / 60) });
  return t("error.tooManySeconds", { seconds: Math.max(1, Math.ceil(seconds)) });
}

function humanise(field: string): string {
  const words = field.replace(/\[\d+\]$/, "").replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
