// What a failed call means to the person at the form. Gatehouse's answers carry a stable
// reason (google.rpc.ErrorInfo); the words come from that, never from the server's message or
// a raw body, and an error without a reason is the network's or a proxy's.
import { Code, ConnectError } from "@connectrpc/connect";
import { WebAuthnError } from "@simplewebauthn/browser";
import { BadRequestSchema } from "../../../gen/google/rpc/error_details_pb.js";
import { errorReason, retryAfterSeconds } from "../../../sdk/ts/src/errors.js";

export interface Explained {
  message: string;
  /** The request field the error is about (a violation's field), to mark that input. */
  field?: string;
  reason?: string;
}

const PASSKEY_CANCELLED = "The passkey request was cancelled or timed out.";
const UNSUITABLE_AUTHENTICATOR = "This device or security key cannot make a passkey for this account. Try another one.";
const PASSKEY_FAILED = "The passkey could not be used. Try again, or sign in another way.";

const WORDS: Record<string, string> = {
  INVALID_CREDENTIALS: "That email and password don't match.",
  INVALID_CODE: "That code is not right. Check it and try again.",
  CODE_EXPIRED: "That code has expired. Ask for a new one.",
  INVALID_LINK: "This link has expired or was already used. Ask for a new one.",
  WEAK_PASSWORD: "Choose a longer, less common password.",
  EMAIL_EXISTS: "An account with this email already exists. Sign in instead.",
  USER_DISABLED: "This account is disabled.",
  INVALID_MFA_TOKEN: "This sign-in has expired. Start again.",
  INVALID_INVITATION: "This invitation has expired or was already used.",
  SERVICE_UNAVAILABLE: "The service is busy. Try again in a moment.",
  BOT_CHECK_FAILED: "The check that you are a person did not pass. Try again.",
  SIGNUPS_CLOSED: "New accounts cannot be created here with this email address.",
  // The security page acts with the access token the application opened it with.
  MISSING_ACCESS_TOKEN: "Your sign-in has expired. Go back to the application and open this page again.",
  INVALID_ACCESS_TOKEN: "Your sign-in has expired. Go back to the application and open this page again.",
  MFA_REQUIRED_BY_PROJECT:
    "This account must keep a second step at sign-in. Add another passkey or an authenticator app first.",
  MFA_NOT_ENROLLED: "There is no passkey that can finish this sign-in. Use a recovery code instead.",
  // One reason for every answer that does not verify; the words name the likeliest fix, a
  // passkey without user verification for an account with no other second step.
  PASSKEY_VERIFICATION_FAILED:
    "That passkey could not be verified. Try again with a passkey that asks for your PIN, fingerprint or face, or sign in another way.",
  PASSKEY_NOT_FOUND:
    "That passkey is not registered here. It may have been removed: use another one, or sign in another way.",
  PASSKEY_EXISTS: "This passkey is already registered.",
  PASSKEYS_UNAVAILABLE: "Passkeys cannot be used on this site yet. Sign in another way.",
  // The OpenID Provider's interaction endpoints (auth/oauth.ts).
  OAUTH_CLIENT_NOT_FOUND: "This application is not registered.",
};

/** What the browser's own WebAuthn refusals mean, by simplewebauthn's code or the DOMException's name. */
const WEBAUTHN_WORDS: Record<string, string> = {
  ERROR_CEREMONY_ABORTED: PASSKEY_CANCELLED,
  NotAllowedError: PASSKEY_CANCELLED,
  AbortError: PASSKEY_CANCELLED,
  ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED: "This device already has a passkey for your account.",
  InvalidStateError: "This device already has a passkey for your account.",
  ERROR_INVALID_DOMAIN: "Passkeys cannot be used at this page's address.",
  ERROR_INVALID_RP_ID: "Passkeys cannot be used at this page's address.",
  SecurityError: "Passkeys cannot be used at this page's address.",
  ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT: UNSUITABLE_AUTHENTICATOR,
  ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT: UNSUITABLE_AUTHENTICATOR,
  ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG: UNSUITABLE_AUTHENTICATOR,
  ConstraintError: UNSUITABLE_AUTHENTICATOR,
  NotSupportedError: UNSUITABLE_AUTHENTICATOR,
};

export const INVALID_LINK = WORDS["INVALID_LINK"]!;
export const OAUTH_EXPIRED = "This sign-in request has expired. Go back to the application and start again.";

/** A failure of the page itself rather than of a call (the bot check's widget), in the words to show. */
export class PageFailure extends Error {}
export const NETWORK_FAILURE = "Could not reach the server. Check your connection.";

/**
 * `labelOf` names a request field as its form labels it, so a violation ("is required") reads
 * as a sentence about the input the person sees ("Email is required.").
 */
export function explain(error: unknown, labelOf: (field: string) => string | undefined = () => undefined): Explained {
  if (error instanceof PageFailure) return { message: error.message };
  const webAuthn = webAuthnWords(error);
  if (webAuthn) return { message: webAuthn };
  if (!(error instanceof ConnectError)) return { message: NETWORK_FAILURE };
  const reason = errorReason(error);
  if (!reason) {
    // connect-web turns a failed fetch into Unknown/Unavailable; other codes without a
    // reason come from something in front of Gatehouse.
    const unreachable = [Code.Unknown, Code.Unavailable, Code.DeadlineExceeded, Code.Canceled].includes(error.code);
    return { message: unreachable ? NETWORK_FAILURE : `Something went wrong (${Code[error.code]}).` };
  }
  // The server sends every RATE_LIMITED with its wait (google.rpc.RetryInfo).
  if (reason === "RATE_LIMITED") return { reason, message: tooManyAttempts(retryAfterSeconds(error)) };
  if (reason === "SSO_FAILED") return { reason, message: ssoFailed(error.rawMessage) };
  // The project's before_user_created hook wrote this message for the person signing up.
  if (reason === "SIGNUP_REFUSED_BY_HOOK")
    return { reason, message: error.rawMessage.trim() || "This sign-up was refused." };
  if (reason === "VALIDATION_FAILED") {
    const violation = error.findDetails(BadRequestSchema)[0]?.fieldViolations[0];
    if (violation) {
      const name = labelOf(violation.field) ?? humanise(violation.field);
      return { reason, message: `${name} ${violation.description.trim().replace(/\.$/, "")}.`, field: violation.field };
    }
  }
  return { reason, message: WORDS[reason] ?? `Something went wrong (${reason}).` };
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
  if (reason === "OAUTH_CLIENT_NOT_FOUND") return WORDS[reason]!;
  if (status === 400 || status === 404) return OAUTH_EXPIRED;
  if (reason && WORDS[reason]) return WORDS[reason];
  if (message) return message;
  return `Something went wrong (HTTP ${status}).`;
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
    return WEBAUTHN_WORDS[error.code] ?? WEBAUTHN_WORDS[cause] ?? PASSKEY_FAILED;
  }
  if (error instanceof DOMException) return WEBAUTHN_WORDS[error.name] ?? PASSKEY_FAILED;
  return undefined;
}

export function ssoFailed(description: string): string {
  return `Single sign-on did not complete: ${description}`;
}

function tooManyAttempts(seconds: number | undefined): string {
  if (seconds === undefined) return "Too many attempts. Try again later.";
  if (seconds >= 120) return `Too many attempts. Try again in ${Math.ceil(seconds / 60)} minutes.`;
  return `Too many attempts. Try again in ${Math.max(1, Math.ceil(seconds))} seconds.`;
}

function humanise(field: string): string {
  const words = field.replace(/\[\d+\]$/, "").replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
