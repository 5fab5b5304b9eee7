import { generateSigningKey } from "../../crypto/signing-keys.js";
import type { SigningKey } from "../../domain/account.js";
import { isIdOf } from "../../domain/ids.js";
import type { AuditOrigin } from "../../domain/audit.js";
import type { FlowDeps } from "../deps.js";
import { projectNotFound } from "./not-found.js";

/**
 * RotateSigningKey: a new ES256 key signs from now on; the keys that signed until now are
 * retired (retired_at = now) in the same transaction. A retired key stays in the JWKS and
 * keeps verifying until token_expiry after its retirement (signing-keys listPublic), so no
 * token issued before the rotation stops working early. The key pair is made before the
 * transaction opens.
 */
export async function rotateSigningKey(
  deps: Pick<FlowDeps, "db" | "clock" | "secrets">,
  organizationId: string,
  projectId: string,
  origin: AuditOrigin,
): Promise<SigningKey> {
  if (!isIdOf("proj", projectId)) throw projectNotFound();
  const key = await generateSigningKey(deps.secrets);
  return deps.db.transaction(async (repos) => {
    const project = await repos.projects.get(organizationId, projectId);
    if (!project) throw projectNotFound();
    await repos.signingKeys.retire(project.id, deps.clock.now());
    const created = await repos.signingKeys.create(organizationId, { projectId: project.id, ...key });
    await repos.auditEvents.record({
      type: "project.signing_key.rotated",
      organizationId,
      projectId,
      targetId: projectId,
      details: { kid: created.kid },
      origin,
    });
    return created;
  });
}
