import type { SsoConnection, SsoConnectionWithSecret } from "../../../domain/sso.js";
import type { GuardedFetch } from "../../../outbound/request.js";
import { failureDetail, logText, ssoFailed, tokenErrorRefusal } from "./refusals.js";

// Sign-in through an OAuth 2.0 provider without OpenID Connect (`github`, `generic_oauth2`):
// the authorization code with PKCE and the state, then the user read from the provider's API
// with the access token, since there is no ID token to verify (docs/sso-providers.md). Every
// request goes through the providers' guarded fetch (providers.ts: the outbound rules, a
// deadline, a cap); every refusal is an SsoRefusal of a fixed cause (refusals.ts), whatever
// the provider answered.

/** What the provider says of the user: its stable id there, and the address it vouches for. */
export interface OAuth2Profile {
  subject: string;
  email: string | undefined;
  /** Whether the provider says it verified the address. */
  verified: boolean;
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
  send: GuardedFetch,
  connection: SsoConnectionWithSecret,
  input: { code: string; verifier: string; callbackUrl: string },
): Promise<OAuth2Profile> {
  const accessToken = await exchange(send, connection, input);
  const user = await readJson(send, connection.endpoints.userinfoUrl, accessToken, "the user");
  if (connection.provider === "github") return githubProfile(send, connection, accessToken, user);
  return mappedProfile(connection, user);
}

async function exchange(
  send: GuardedFetch,
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
  };
  if (connection.provider === "github") body.set("client_secret", connection.clientSecret);
  else headers.authorization = `Basic ${basic(connection.clientId, connection.clientSecret)}`;
  const res = await call(send, connection.endpoints.tokenUrl, { method: "POST", headers, body }, "the code exchange");
  const answer = await jsonOf(res, "the code exchange");
  // GitHub answers a refused exchange with status 200 and an `error` member.
  if (typeof answer.error === "string")
    throw tokenErrorRefusal(
      answer.error,
      `the token endpoint answered HTTP ${res.status} ${answer.error}: ${typeof answer.error_description === "string" ? answer.error_description : ""}`,
    );
  if (!res.ok) throw ssoFailed("unreachable", `the token endpoint answered HTTP ${res.status}`);
  if (typeof answer.access_token !== "string" || answer.access_token === "") throw ssoFailed("no_access_token");
  return answer.access_token;
}

/**
 * GitHub: the numeric id, and the primary address only if GitHub verified it (`/user/emails`,
 * which needs the `user:email` scope). A public or secondary address is never taken: anyone can
 * add an address they do not own to their GitHub account.
 */
async function githubProfile(
  send: GuardedFetch,
  connection: SsoConnectionWithSecret,
  accessToken: string,
  user: Record<string, unknown>,
): Promise<OAuth2Profile> {
  if (typeof user.id !== "number" && typeof user.id !== "string")
    throw ssoFailed("no_subject", "GitHub's user has no id");
  const emails = await readJson(
    send,
    `${connection.endpoints.userinfoUrl}/emails`,
    accessToken,
    "the user's addresses",
  );
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
    throw ssoFailed("no_subject", logText(`the provider's user has no "${idField}"`));
  const email = user[mapping.email ?? "email"];
  const verified = user[mapping.email_verified ?? "email_verified"];
  return {
    subject: String(id),
    email: typeof email === "string" ? email : undefined,
    verified: verified === true || verified === "true",
  };
}

async function readJson(
  send: GuardedFetch,
  url: string,
  accessToken: string,
  what: string,
): Promise<Record<string, unknown>> {
  const res = await call(
    send,
    url,
    {
      headers: {
        authorization: `Bearer ${accessToken}`,
        accept: "application/vnd.github+json, application/json",
      },
    },
    what,
  );
  if (!res.ok) throw ssoFailed("unreachable", `the provider answered HTTP ${res.status} for ${what}`);
  return jsonOf(res, what);
}

/** One request through the guarded fetch; a refusal or failure is the provider unreachable. */
async function call(
  send: GuardedFetch,
  url: string,
  init: { method?: string; headers: Record<string, string>; body?: URLSearchParams },
  what: string,
): Promise<Response> {
  try {
    return await send(url, init);
  } catch (error) {
    throw ssoFailed("unreachable", logText(`${what}: ${failureDetail(error)}`));
  }
}

async function jsonOf(res: Response, what: string): Promise<Record<string, unknown>> {
  try {
    const value: unknown = await res.json();
    if (value !== null && typeof value === "object") return value as Record<string, unknown>;
  } catch {
    // not JSON
  }
  throw ssoFailed("unreachable", `the provider's answer to ${what} is not JSON (HTTP ${res.status})`);
}

/** RFC 6749 section 2.3.1: each part form-encoded before Basic. */
function basic(id: string, secret: string): string {
  const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, "+");
  return Buffer.from(`${encode(id)}:${encode(secret)}`).toString("base64");
}
