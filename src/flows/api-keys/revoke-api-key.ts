import { isIdOf } from "../../domain/ids.js";
import type { FlowDeps } from "../deps.js";
import { apiKeyNotFound } from "./not-found.js";

/**
 * Revokes a key for good. The credential check reads the key from the database on every
 * request, so the very next call with it fails, on every instance. A key already revoked is
 * NOT_FOUND, as the proto says: revoked keys are not listed either.
 */
export async function revokeApiKey(deps: FlowDeps, organizationId: string, id: string): Promise<{ revoked: true; id: string }> {
  if (!isIdOf("key", id)) throw apiKeyNotFound();
  const revoked = await deps.db.transaction((repos) => repos.apiKeys.revokeActive(organizationId, id, deps.clock.now()));
  if (!revoked) throw apiKeyNotFound();
  return { revoked: true, id };
}
