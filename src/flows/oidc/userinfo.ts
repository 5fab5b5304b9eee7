import type { Project } from "../../domain/account.js";
import type { FlowDeps } from "../deps.js";
import { userClaims } from "./claims.js";
import { checkOAuthAccessToken } from "./verify-oauth-token.js";

/** An RFC 6750 refusal: the status and the `WWW-Authenticate` error it names. */
export interface BearerRefusal {
  status: 401 | 403;
  error: "invalid_token" | "insufficient_scope";
  description: string;
}

/**
 * UserInfo (OpenID Connect Core 5.3): the claims of the user an OAuth access token with the
 * `openid` scope names, for the scopes it was granted. Gatehouse serves it rather than the
 * engine, whose userinfo takes only opaque tokens.
 */
export async function userinfo(
  deps: FlowDeps,
  project: Project,
  token: string | undefined,
): Promise<{ claims: Record<string, unknown> } | BearerRefusal> {
  const invalid: BearerRefusal = { status: 401, error: "invalid_token", description: "the access token is not valid" };
  if (!token) return { ...invalid, description: "no access token" };
  const verified = await checkOAuthAccessToken(deps, project, token);
  if (!verified?.userId) return invalid;
  if (!verified.scopes.has("openid"))
    return { status: 403, error: "insufficient_scope", description: "the token was not granted the openid scope" };
  const user = await deps.db.repos.users.get(project.id, verified.userId);
  if (!user || user.disabled) return invalid;
  return { claims: userClaims(user, verified.scopes) };
}
