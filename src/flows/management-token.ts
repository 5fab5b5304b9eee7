import { hashToken, randomToken } from "../crypto/tokens.js";
import type { Member } from "../domain/account.js";
import type { Repositories } from "../store/database.js";

/** Management tokens live 12 hours (API.md section 4). */
export const MANAGEMENT_TOKEN_TTL_MS = 12 * 60 * 60 * 1000;

export interface IssuedManagementToken {
  managementToken: string;
  expiresAt: Date;
}

/** Issues an opaque management token; only its hash is stored. */
export async function issueManagementToken(
  repos: Repositories,
  member: Member,
  now: Date,
): Promise<IssuedManagementToken> {
  const managementToken = randomToken("gmt");
  const expiresAt = new Date(now.getTime() + MANAGEMENT_TOKEN_TTL_MS);
  await repos.managementTokens.create(member.organizationId, {
    memberId: member.id,
    tokenHash: hashToken(managementToken),
    expiresAt,
  });
  return { managementToken, expiresAt };
}
