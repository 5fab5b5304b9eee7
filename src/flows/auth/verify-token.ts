import type { Project } from "../../domain/account.js";
import type { AccessClaims } from "../../crypto/access-tokens.js";
import type { FlowDeps } from "../deps.js";
import { checkOAuthAccessToken } from "../oidc/verify-oauth-token.js";
import { checkAccessToken } from "./verify-access-token.js";

/**
 * VerifyToken: `{valid: false}` rather than an error for any token that does not hold. Gatehouse's
 * own access tokens first (the hot path), then those the project's OpenID Provider issued to its
 * OAuth clients (docs/openid-provider.md).
 */
export async function verifyToken(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "verification">,
  project: Project,
  token: string,
): Promise<{ valid: boolean; claims?: AccessClaims }> {
  const verified =
    (await checkAccessToken(deps, project, token)) ?? (await checkOAuthAccessToken(deps, project, token));
  return verified ? { valid: true, claims: verified.claims } : { valid: false };
}
