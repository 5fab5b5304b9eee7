import type { SsoConnection, SsoConnectionWithSecret } from "../../../domain/sso.js";

// Sign-in through an OAuth 2.0 provider without OpenID Connect (`github`, `generic_oauth2`):
// the authorization code with PKCE and the state, then the user read from the provider's API
// with the access token, since there is no ID token to verify (docs/sso-providers.md).

/** How long one call to the provider may take. */
const PROVIDER_TIMEOUT_MS = 10_000;
/** GitHub's API refuses a request without one. */
const USER_AGENT = "Gatehouse";

/** What the provider says of the user: its stable id there, and the address it vouches for. */
export interface OAuth2Profile {
  subject: string;
  email: string | undefined;
  /** Whether the provider says it verified the address. */
  verified: boolean;
}

/** A refusal in the provider's terms, for the application's fragment (`error`, `description`). */
export class OAuth2Refusal extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

export function oauth2AuthorizationUrl(
  connection: SsoConnection,
  input: { state: string; codeChallenge: string; callbackUrl: string },
): string {
  const url = new URL(connection.endpoints.authorizationUrl);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", connection.clientId);
  url.searchParams.set("redirect_uri", input.callbackUrl);
  if (connection.scopes.length > 0) url.searchParams.set("scope", connection.scopes.join(" "));
  url.searchParams.set("state", input.state);
  url.searchParams.set("code_challenge", input.codeChallenge);
  url.searchParams.set("code_challenge_method", "S256");
  return url.href;
}

/** Trades the code and reads who signed in. */
export async function oauth2Profile(
  connection: SsoConnectionWithSecret,
  input: { code: string; verifier: string; callbackUrl: string },
): Promise<OAuth2Profile> {
  const accessToken = await exchange(connection, input);
  const user = await readJson(connection.endpoints.userinfoUrl, accessToken, "the user");
  if (connection.provider === "github") return githubProfile(connection, accessToken, user);
  return mappedProfile(connection, user);
}

async function exchange(
  connection: SsoConnectionWithSecret,
  input: { code: string; verifier: string; callbackUrl: string },
): Promise<string> {
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    code: input.code,
    redirect_uri: input.callbackUrl,
    code_verifier: input.verifier,
    client_id: connection.clientId,
  });
  // GitHub takes the secret in the body; RFC 6749 section 2.3.1 prefers HTTP Basic.
  const headers: Record<string, string> = {
    accept: "application/json",
    "content-type": "application/x-www-form-urlencoded",
    "user-agent": USER_AGENT,
  };
  if (connection.provider === "github") body.set("client_secret", connection.clientSecret);
  else headers.authorization = `Basic ${basic(connection.clientId, connection.clientSecret)}`;
  const res = await call(connection.endpoints.tokenUrl, { method: "POST", headers, body }, "the code exchange");
  const answer = await jsonOf(res, "the code exchange");
  // GitHub answers a refused exchange with status 200 and an `error` member.
  if (typeof answer.error === "string" || !res.ok)
    throw new OAuth2Refusal(
      "sso_failed",
      `the provider refused the code: ${String(answer.error ?? res.status).slice(0, 64)}${
        typeof answer.error_description === "string" ? ` (${answer.error_description.slice(0, 200)})` : ""
      }`,
    );
  if (typeof answer.access_token !== "string" || answer.access_token === "")
    throw new OAuth2Refusal("sso_failed", "the provider's token answer has no access_token");
  return answer.access_token;
}

/**
 * GitHub: the numeric id, and the primary address only if GitHub verified it (`/user/emails`,
 * which needs the `user:email` scope). A public or secondary address is never taken: anyone can
 * add an address they do not own to their GitHub account.
 */
async function githubProfile(
  connection: SsoConnectionWithSecret,
  accessToken: string,
  user: Record<string, unknown>,
): Promise<OAuth2Profile> {
  if (typeof user.id !== "number" && typeof user.id !== "string")
    throw new OAuth2Refusal("sso_failed", "GitHub's user has no id");
  const emails = await readJson(`${connection.endpoints.userinfoUrl}/emails`, accessToken, "the user's addresses");
  const list = Array.isArray(emails) ? (emails as Array<Record<string, unknown>>) : [];
  const primary = list.find((e) => e.primary === true);
  return {
    subject: String(user.id),
    email: typeof primary?.email === "string" ? primary.email : undefined,
    verified: primary?.verified === true,
  };
}

/** A generic provider: the fields its claim mapping names, or the usual names. */
function mappedProfile(connection: SsoConnectionWithSecret, user: Record<string, unknown>): OAuth2Profile {
  const mapping = connection.claimMapping;
  const idField = mapping.id ?? ("sub" in user ? "sub" : "id");
  const id = user[idField];
  if (typeof id !== "string" && typeof id !== "number")
    throw new OAuth2Refusal("sso_failed", `the provider's user has no "${idField}"`);
  const email = user[mapping.email ?? "email"];
  const verified = user[mapping.email_verified ?? "email_verified"];
  return {
    subject: String(id),
    email: typeof email === "string" ? email : undefined,
    verified: verified === true || verified === "true",
  };
}

async function readJson(url: string, accessToken: string, what: string): Promise<Record<string, unknown>> {
  const res = await call(
    url,
    {
      headers: {
        authorization: `Bearer ${accessToken}`,
        accept: "application/vnd.github+json, application/json",
        "user-agent": USER_AGENT,
      },
    },
    what,
  );
  if (!res.ok) throw new OAuth2Refusal("sso_failed", `the provider refused to give ${what}: HTTP ${res.status}`);
  return jsonOf(res, what);
}

async function call(url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: "error", signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch {
    throw new OAuth2Refusal("sso_failed", `the identity provider cannot be reached for ${what}`);
  }
}

async function jsonOf(res: Response, what: string): Promise<Record<string, unknown>> {
  try {
    const value: unknown = await res.json();
    if (value !== null && typeof value === "object") return value as Record<string, unknown>;
  } catch {
    // not JSON
  }
  throw new OAuth2Refusal("sso_failed", `the provider's answer to ${what} is not JSON`);
}

/** RFC 6749 section 2.3.1: each part form-encoded before Basic. */
function basic(id: string, secret: string): string {
  const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, "+");
  return Buffer.from(`${encode(id)}:${encode(secret)}`).toString("base64");
}
