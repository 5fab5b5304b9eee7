import { hashToken, randomToken } from "../crypto/tokens.js";
import type { Member } from "../domain/account.js";
import type { Repositories } from "../store/database.js";

/** Management tokens live 12 hours (API.md section 4). */
export const MANAGEMENT_TOKEN_TTL_MS = 12 * 60 * 60 * 1000;

export interface IssuedManagementToken {
  managementToken: string;
  expiresAt: Date;
}

/**
 * Issues an opaque management token; only its hash is stored. `secondFactor`: the sign-in proved
 * one (such tokens stay when the organization starts requiring it).
 */
export async function issueManagementToken(
  repos: Repositories,
  member: Member,
  now: Date,
  options: { secondFactor?: boolean } = {},
): Promise<IssuedManagementToken> {
  const managementToken = randomToken("gmt");
  const expiresAt = new Date(now.getTime() + MANAGEMENT_TOKEN_TTL_MS);
  await repos.managementTokens.create(member.organizationId, {
    memberId: member.id,
    tokenHash: hashToken(managementToken),
    expiresAt,
    secondFactor: options.secondFactor ?? false,
  });
  return { managementToken, expiresAt };
}
