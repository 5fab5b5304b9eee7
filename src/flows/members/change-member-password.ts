import { DomainError } from "../../domain/errors.js";
import { requireAcceptablePassword } from "../../domain/password-policy.js";
import type { AuditOrigin } from "../../domain/audit.js";
import { normalizeEmail } from "../../domain/account.js";
import { ACCOUNT_SCOPE, checking } from "../../limits/limits.js";
import type { FlowDeps } from "../deps.js";

export const MEMBER_PASSWORD_CHANGED =
  "Your password has been changed. Your other management tokens have been revoked.";

export interface ChangeMemberPasswordInput {
  organizationId: string;
  memberId: string;
  /** The token of the request: it stays valid, every other one of the identity is revoked. */
  tokenId: string;
  currentPassword: string;
  newPassword: string;
}

// The password belongs to the identity, so a change applies to every organization it is a
// member of, and so does the revocation: a token stolen in one organization must not outlive
// the change the owner made from another.
export async function changeMemberPassword(
  deps: Pick<FlowDeps, "db" | "passwords" | "limits">,
  input: ChangeMemberPasswordInput,
  origin: AuditOrigin,
): Promise<{ message: string }> {
  requireAcceptablePassword(input.newPassword);
  const found = await deps.db.repos.memberIdentities.credentialsOfMember(input.organizationId, input.memberId);
  // A guess at the current password is a guess at the identity's password: it counts toward the
  // same limit as Login's (a stolen management token must not become an unlimited oracle).
  const account = found ? normalizeEmail(found.identity.email) : undefined;
  const limited = account === undefined ? undefined : await deps.limits.beginSignIn(ACCOUNT_SCOPE, account, origin.ip);
  const check = () => deps.passwords.verify(found?.passwordHash ?? null, input.currentPassword);
  const verdict = limited ? await checking(limited, check) : await check();
  if (!found || !verdict.ok) {
    await limited?.failed();
    throw new DomainError("INVALID_CREDENTIALS", "the current password is incorrect");
  }
  await limited?.succeeded();
  const passwordHash = await deps.passwords.hash(input.newPassword);
  await deps.db.transaction(async (repos) => {
    await repos.memberIdentities.updatePasswordHash(found.identity.id, passwordHash);
    await repos.managementTokens.revokeForIdentity(found.identity.id, input.tokenId);
    await repos.auditEvents.record({
      type: "member.password.changed",
      organizationId: input.organizationId,
      projectId: null,
      targetId: input.memberId,
      origin,
    });
  });
  return { message: MEMBER_PASSWORD_CHANGED };
}
