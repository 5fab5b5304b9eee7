import { errors as joseErrors } from "jose";
import * as oidc from "openid-client";
import { DomainError } from "../../../domain/errors.js";
import { OutboundFailure } from "../../../outbound/request.js";

// What the SSO callback tells the application when a sign-in fails: an `error` from a fixed set
// (RFC 6749's codes and Gatehouse's own) and an `error_description` from a fixed catalogue of
// Gatehouse's sentences. Never the provider's words, HTTP status or body: the provider is at a
// URL a project member chose, and whatever it answers must not be a way to read a service's
// answers back through the browser (the audit of issue 46 read an internal service's field out
// of a redirect). What the provider really said goes to the server log (`detail`) only.

/** RFC 6749 section 4.1.2.1: the codes a provider's redirect may carry, passed on as they are. */
const REDIRECT_ERRORS = [
  "invalid_request",
  "unauthorized_client",
  "access_denied",
  "unsupported_response_type",
  "invalid_scope",
  "server_error",
  "temporarily_unavailable",
] as const;
type RedirectError = (typeof REDIRECT_ERRORS)[number];

/** Gatehouse's own codes (API.md section 5, docs/api.md "SSO"). */
export type SsoError =
  | RedirectError
  | "sso_failed"
  | "flow_expired"
  | "email_missing"
  | "email_not_accepted"
  | "unverified_email"
  | "tenant_not_allowed"
  | "hosted_domain_mismatch";

const REDIRECT_DESCRIPTIONS: Record<RedirectError, string> = {
  invalid_request: "the identity provider found the sign-in request invalid",
  unauthorized_client: "the identity provider does not let this application sign in this way",
  access_denied: "the identity provider refused the sign-in, or the user cancelled it",
  unsupported_response_type: "the identity provider does not support this kind of sign-in",
  invalid_scope: "the identity provider refused the scopes the connection asks for",
  server_error: "the identity provider failed during the sign-in",
  temporarily_unavailable: "the identity provider is unavailable for now; try again later",
};

/** Every `sso_failed` the callback can send, by cause. */
const FAILURES = {
  unreachable: "the identity provider could not be reached, or its answer could not be read",
  discovery: "the identity provider's discovery document could not be read",
  invalid_client: "the identity provider did not accept the connection's client credentials (invalid_client)",
  invalid_grant: "the identity provider did not accept the authorization code (invalid_grant)",
  token_refused: "the identity provider refused the code exchange",
  no_access_token: "the identity provider's token answer has no access token",
  id_token_claims: "the ID token is not valid for this sign-in (its issuer, audience, nonce or times)",
  id_token_signature: "the ID token's signature does not verify against the identity provider's keys",
  answer_refused: "the identity provider's answer was refused",
  no_code: "the identity provider sent no code",
  no_subject: "the identity provider's user has no id",
  connection_gone: "the SSO connection no longer exists",
  not_form_post: "this sign-in's provider does not answer by form post",
  form_post_only: "Sign in with Apple answers by form post, not by redirect",
} as const;
export type FailureCause = keyof typeof FAILURES;

/** Fixed sentences of the other codes. */
export const DESCRIPTIONS = {
  flow_expired: "the sign-in took longer than 10 minutes; start again",
  email_missing: "the identity provider gave no email address",
  unverified_email: "the identity provider has not verified this email address",
} as const;

/**
 * A failure at the provider or in its answer, told to the application in the fragment as
 * `error` and `error_description` (SSO_FAILED in the audit log, with that `error` in its
 * details); `detail` is for the server log only.
 */
export class SsoRefusal extends DomainError {
  constructor(
    readonly error: SsoError,
    readonly description: string,
    readonly detail?: string,
  ) {
    super("SSO_FAILED", description);
  }
}

/** `sso_failed` for one of the fixed causes. */
export function ssoFailed(cause: FailureCause, detail?: string): SsoRefusal {
  return new SsoRefusal("sso_failed", FAILURES[cause], detail);
}

/** The refusal for a code that has one fixed sentence. */
export function refusal(error: keyof typeof DESCRIPTIONS, detail?: string): SsoRefusal {
  return new SsoRefusal(error, DESCRIPTIONS[error], detail);
}

/**
 * The provider's redirect carried `error`: an RFC 6749 code is passed on with Gatehouse's
 * sentence for it; any other (Apple's `user_cancelled_authorize`, an unknown word) is
 * `access_denied`. The provider's own `error_description` only reaches the log.
 */
export function providerRedirectRefusal(error: string, description: string | null): SsoRefusal {
  const code = (REDIRECT_ERRORS as readonly string[]).includes(error) ? (error as RedirectError) : "access_denied";
  return new SsoRefusal(code, REDIRECT_DESCRIPTIONS[code], logText(`${error}: ${description ?? ""}`));
}

/** The token endpoint's codes (RFC 6749 section 5.2) and GitHub's names for the same. */
const TOKEN_ERRORS: Record<string, FailureCause> = {
  invalid_client: "invalid_client",
  unauthorized_client: "invalid_client",
  incorrect_client_credentials: "invalid_client",
  invalid_grant: "invalid_grant",
  bad_verification_code: "invalid_grant",
  redirect_uri_mismatch: "invalid_grant",
};

/** A token endpoint's error answer (`{"error": …}`), whatever else it says. */
export function tokenErrorRefusal(error: string, detail: string): SsoRefusal {
  return ssoFailed(TOKEN_ERRORS[error] ?? "token_refused", logText(detail));
}

/**
 * Any failure of the code exchange and the ID token checks, as one of the fixed causes: the
 * provider unreachable (or refused by the outbound rules: the two read the same), its error
 * answer, an ID token's claims or signature, or anything else in its answer.
 */
export function exchangeRefusal(error: unknown): SsoRefusal {
  if (error instanceof SsoRefusal) return error;
  const detail = failureDetail(error);
  if (causes(error).some((e) => e instanceof OutboundFailure)) return ssoFailed("unreachable", detail);
  if (error instanceof oidc.ResponseBodyError) return tokenErrorRefusal(error.error, detail);
  const code = error instanceof oidc.ClientError ? error.code : undefined;
  if (code === "OAUTH_JWT_CLAIM_COMPARISON_FAILED" || code === "OAUTH_JWT_TIMESTAMP_CHECK_FAILED")
    return ssoFailed("id_token_claims", detail);
  if (code === "OAUTH_RESPONSE_IS_NOT_CONFORM" || code === "OAUTH_RESPONSE_IS_NOT_JSON" || code === "OAUTH_PARSE_ERROR")
    return ssoFailed("unreachable", detail);
  if (
    error instanceof joseErrors.JWSSignatureVerificationFailed ||
    error instanceof joseErrors.JWKSNoMatchingKey ||
    error instanceof joseErrors.JWKSMultipleMatchingKeys
  )
    return ssoFailed("id_token_signature", detail);
  return ssoFailed("answer_refused", detail);
}

/** The error and its causes, outermost first (bounded: a cycle ends it). */
function causes(error: unknown): unknown[] {
  const seen: unknown[] = [];
  for (let e = error; e !== undefined && e !== null && seen.length < 8; e = (e as { cause?: unknown }).cause) {
    if (seen.includes(e)) break;
    seen.push(e);
  }
  return seen;
}

/** What the log says of a failure: each message down the cause chain (an outbound failure's detail), bounded. */
export function failureDetail(error: unknown): string {
  return logText(
    causes(error)
      .map((e) => (e instanceof OutboundFailure ? e.detail : e instanceof Error ? e.message : String(e)))
      .join(" <- "),
  );
}

/** A provider's text for the log: bounded, one line. */
export function logText(text: string): string {
  return text.replace(/[\x00-\x1f\x7f]+/g, " ").slice(0, 300);
}
