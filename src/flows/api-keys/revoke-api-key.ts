import { isIdOf } from "../../domain/ids.js";
import type { AuditOrigin } from "../../domain/audit.js";
import type { FlowDeps } from "../deps.js";
import { apiKeyNotFound } from "./not-found.js";

/**
 * Revokes a key for good. The credential check reads the key from the database on every
 * request, so the very next call with it fails, on every instance.
 *
 * Safe to repeat, like RevokeToken and RevokeSession: a key of the organization that is
 * already revoked answers `{revoked: false}` (a retry after a lost answer, or the loser of two
 * racing revokes, learns the key is off without an error). Only a key the organization never
 * had (unknown, or another organization's) is API_KEY_NOT_FOUND, so nothing is learnt about
 * other tenants.
 */
export async function revokeApiKey(
  deps: Pick<FlowDeps, "clock" | "db">,
  organizationId: string,
  id: string,
  origin: AuditOrigin,
): Promise<{ revoked: boolean; id: string }> {
  if (!isIdOf("key", id)) throw apiKeyNotFound();
  const outcome = await deps.db.transaction(async (repos) => {
    if (await repos.apiKeys.revokeActive(organizationId, id, deps.clock.now())) {
      const projectId = (await repos.apiKeys.projectOf(organizationId, id)) ?? null;
      await repos.auditEvents.record({ type: "api_key.revoked", organizationId, projectId, targetId: id, origin });
      return "revoked";
    }
    return (await repos.apiKeys.exists(organizationId, id)) ? "already" : "absent";
  });
  if (outcome === "absent") throw apiKeyNotFound();
  return { revoked: outcome === "revoked", id };
}
