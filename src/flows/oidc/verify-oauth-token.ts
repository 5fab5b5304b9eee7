import { IAT_SKEW_SECONDS, type AccessClaims } from "../../crypto/access-tokens.js";
import type { Project } from "../../domain/account.js";
import type { FlowDeps } from "../deps.js";
import { issuerOf } from "../auth/issuer.js";
import { signedPayload } from "../auth/verify-access-token.js";

export interface VerifiedOAuthAccess {
  claims: AccessClaims & { client_id: string; scope?: string };
  clientId: string;
  /** The user; undefined for a client credentials token. */
  userId?: string;
  scopes: Set<string>;
}

/**
 * An access token the project's OpenID Provider issued to one of its OAuth clients (`aud` =
 * `client_id`, RFC 9068): signed by a key of the project, unexpired, of a client that still
 * exists; for a user's token, its Gatehouse session still live, its user enabled, its grant
 * not revoked (a replayed code, a revoked refresh token, a withdrawn consent: each deletes it)
 * and the user's consent to the client still given.
 */
export async function checkOAuthAccessToken(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "verification">,
  project: Project,
  token: string,
): Promise<VerifiedOAuthAccess | undefined> {
  const now = deps.clock.now();
  const payload = await signedPayload(deps.verification, project, token, now);
  if (!payload) return undefined;
  const seconds = Math.floor(now.getTime() / 1000);
  const { iss, aud, client_id: clientId, exp, iat, jti, sub, scope, sid } = payload;
  if (iss !== issuerOf(deps.config.publicUrl, project)) return undefined;
  if (typeof clientId !== "string" || aud !== clientId) return undefined;
  if (typeof exp !== "number" || exp <= seconds) return undefined;
  if (typeof iat !== "number" || iat > seconds + IAT_SKEW_SECONDS) return undefined;
  if (typeof jti !== "string" || typeof sub !== "string") return undefined;
  // A token asked for no scope carries none (client credentials, usually).
  if (scope !== undefined && typeof scope !== "string") return undefined;
  if (payload.project_id !== project.id) return undefined;
  if (await deps.verification.isRevoked(project.id, jti, now)) return undefined;
  const client = await deps.db.repos.oauthClients.findForProvider(project.id, clientId);
  if (!client) return undefined;
  const scopes = new Set((scope ?? "").split(" ").filter(Boolean));
  const claims = payload as VerifiedOAuthAccess["claims"];
  if (sub === clientId && sid === undefined) return { claims, clientId, scopes };
  if (typeof sid !== "string") return undefined;
  const session = await deps.verification.activeSession(project.id, sid, now);
  if (!session || session.userId !== sub) return undefined;
  const grantId = payload.grant_id;
  if (typeof grantId !== "string") return undefined;
  const grant = await deps.db.repos.oidcPayloads.find(project.id, "Grant", { id: grantId }, now);
  if (!grant || (grant.expiresAt && grant.expiresAt <= now)) return undefined;
  const consent = await deps.db.repos.oauthConsents.get(project.id, sub, clientId);
  if (!consent) return undefined;
  return { claims, clientId, userId: sub, scopes };
}
