import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import { normalizeEmail } from "../../domain/account.js";
import type { Clock } from "../../domain/clock.js";
import type { IdentityCredentials, MemberIdentity } from "../../domain/member-identity.js";
import { MemberIdentityEntity } from "../entities/member-identity.entity.js";
import { translateUniqueViolation } from "../errors.js";
import { entityColumns, row, sql, statements, text } from "../sql/index.js";

// The search key stays in the database; the hash comes along for the credential checks.
const CREDENTIALS = entityColumns(MemberIdentityEntity, { omit: ["emailNormalized"] });

export function toMemberIdentity(e: Pick<MemberIdentityEntity, "id" | "email" | "createdAt">): MemberIdentity {
  return { id: e.id, email: e.email, createdAt: e.createdAt };
}

// Identities are global, not a tenant's: an email signs in first, then chooses among its
// organizations. Everything an organization may see of one goes through its membership
// (members.ts), never through this repository.
export function memberIdentitiesRepository(manager: EntityManager, clock: Clock) {
  const run = statements(manager);
  const credentials = CREDENTIALS.on(manager).joined("i");
  return {
    /** Throws UniqueViolation("member_identities_email_normalized_key") when the email is taken. */
    async create(input: { email: string; passwordHash: string }): Promise<MemberIdentity> {
      const now = clock.now();
      const row: MemberIdentityEntity = {
        id: newId("mid"),
        email: input.email,
        emailNormalized: normalizeEmail(input.email),
        passwordHash: input.passwordHash,
        createdAt: now,
        updatedAt: now,
      };
      await translateUniqueViolation(() => manager.insert(MemberIdentityEntity, row));
      return toMemberIdentity(row);
    },

    /** Sign-in lookup, by email alone. */
    async findCredentialsByEmail(email: string): Promise<IdentityCredentials | null> {
      const row = await manager.findOneBy(MemberIdentityEntity, { emailNormalized: normalizeEmail(email) });
      return row ? { identity: toMemberIdentity(row), passwordHash: row.passwordHash } : null;
    },

    async findByEmail(email: string): Promise<MemberIdentity | null> {
      const row = await manager.findOneBy(MemberIdentityEntity, { emailNormalized: normalizeEmail(email) });
      return row ? toMemberIdentity(row) : null;
    },

    /**
     * The identity behind a membership of this organization, with its hash: the signed-in
     * member's own credentials (ChangeMemberPassword).
     */
    async credentialsOfMember(organizationId: string, memberId: string): Promise<IdentityCredentials | null> {
      const found = await run.first(
        sql`SELECT ${credentials.list} FROM member_identities i JOIN members m ON m.identity_id = i.id
            WHERE m.organization_id = ${organizationId} AND m.id = ${memberId}`,
        credentials.decode,
      );
      return found ? { identity: toMemberIdentity(found), passwordHash: found.passwordHash } : null;
    },

    /**
     * Locks the identity's row for the rest of the transaction and answers its current hash:
     * a flow that verified a password outside the transaction checks it is still the one.
     */
    async lockPasswordHash(id: string): Promise<string | null> {
      const locked = await run.first(
        sql`SELECT password_hash FROM member_identities WHERE id = ${id} FOR UPDATE`,
        lockedHash,
      );
      return locked?.password_hash ?? null;
    },

    async updatePasswordHash(id: string, passwordHash: string): Promise<void> {
      await manager.update(MemberIdentityEntity, { id }, { passwordHash, updatedAt: clock.now() });
    },

    /**
     * A rehash after sign-in (outdated parameters) applies only while the old hash is still
     * stored, so it never undoes a password change that committed in between.
     */
    async rehashPassword(id: string, from: string, to: string): Promise<void> {
      await manager.update(MemberIdentityEntity, { id, passwordHash: from }, { passwordHash: to });
    },
  };
}

const lockedHash = row({ password_hash: text });

export type MemberIdentitiesRepository = ReturnType<typeof memberIdentitiesRepository>;
