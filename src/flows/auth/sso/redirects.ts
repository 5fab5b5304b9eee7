import type { SignInOutcome } from "../complete-sign-in.js";

// Where the SSO callback sends the browser back (API.md section 5): tokens and errors in the
// fragment, which browsers never send to a server or put in a Referer, so no token appears in
// a query string or a log line; the handover code, short-lived and useless without its
// verifier, in the query.

/** `redirectUrl#…` with the answer of the sign-in: tokens, or an MFA challenge. */
export function outcomeRedirect(redirectUrl: string, outcome: SignInOutcome): string {
  if (outcome.tokens) {
    const t = outcome.tokens;
    return withFragment(redirectUrl, {
      access_token: t.accessToken,
      refresh_token: t.refreshToken,
      expires_in: String(t.expiresIn),
      token_type: t.tokenType,
    });
  }
  const c = outcome.challenge;
  return withFragment(redirectUrl, {
    mfa_required: "true",
    mfa_token: c.mfaToken,
    mfa_methods: c.methods.join(","),
    expires_in: String(c.expiresIn),
  });
}

/** `redirectUrl#error=…&error_description=…`. */
export function errorRedirect(redirectUrl: string, error: string, description: string): string {
  return withFragment(redirectUrl, { error, error_description: description });
}

/** `redirectUrl?code=…&type=sso`, for SsoExchange. */
export function handoverRedirect(redirectUrl: string, code: string): string {
  const url = new URL(redirectUrl);
  url.searchParams.set("code", code);
  url.searchParams.set("type", "sso");
  url.hash = "";
  return url.href;
}

function withFragment(redirectUrl: string, fields: Record<string, string>): string {
  const url = new URL(redirectUrl);
  url.hash = new URLSearchParams(fields).toString();
  return url.href;
}
