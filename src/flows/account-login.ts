import { DomainError } from "../domain/errors.js";
import type { FlowDeps } from "./deps.js";
import { issueManagementToken, type IssuedManagementToken } from "./management-token.js";

export interface AccountLoginInput {
  email: string;
  password: string;
}

// An unknown email and a wrong password give the same answer after the same work: the
// hasher verifies against a dummy hash when there is no member.
export async function accountLogin(deps: FlowDeps, input: AccountLoginInput): Promise<IssuedManagementToken> {
  const { db, passwords, clock } = deps;
  const found = await db.repos.members.findCredentialsByEmail(input.email);
  const verdict = await passwords.verify(found?.passwordHash ?? null, input.password);
  if (!found || !verdict.ok) {
    throw new DomainError("INVALID_CREDENTIALS", "the email or password is incorrect");
  }
  const rehash = verdict.needsRehash ? await passwords.hash(input.password) : undefined;
  return db.transaction(async (repos) => {
    if (rehash) await repos.members.updatePasswordHash(found.member.id, rehash);
    return issueManagementToken(repos, found.member, clock.now());
  });
}
