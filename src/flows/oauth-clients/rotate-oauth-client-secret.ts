import { hashToken, randomToken } from "../../crypto/tokens.js";
import type { AuditOrigin } from "../../domain/audit.js";
import { validationFailed } from "../../domain/errors.js";
import type { OAuthClient } from "../../domain/oauth-clients.js";
import type { FlowDeps } from "../deps.js";
import { assertClientId, oauthClientNotFound } from "./client-rules.js";

/**
 * A confidential client's new secret, shown in this answer only. Unlike a webhook's, the old
 * secret stops working at once: a leaked client secret is the usual reason to rotate, and
 * clients read theirs from configuration, so there is no delivery to keep going meanwhile.
 */
export async function rotateOAuthClientSecret(
  deps: Pick<FlowDeps, "db">,
  organizationId: string,
  clientId: string,
  origin: AuditOrigin,
): Promise<{ client: OAuthClient; secret: string }> {
  assertClientId(clientId);
  const secret = randomToken("gcs");
  const client = await deps.db.transaction(async (repos) => {
    const before = await repos.oauthClients.lock(organizationId, clientId);
    if (!before) throw oauthClientNotFound();
    if (before.type !== "confidential")
      throw validationFailed([{ field: "client_id", description: "is a public client: it has no secret to rotate" }]);
    const after = await repos.oauthClients.setSecret(organizationId, clientId, hashToken(secret), secret.slice(0, 8));
    if (!after) throw oauthClientNotFound();
    await repos.auditEvents.record({
      type: "oauth_client.secret_rotated",
      organizationId,
      projectId: after.projectId,
      targetId: clientId,
      origin,
    });
    return after;
  });
  return { client, secret };
}
