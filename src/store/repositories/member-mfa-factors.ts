import type { EntityManager } from "typeorm";
import { MemberMfaFactorEntity } from "../entities/member-mfa-factor.entity.js";
import { MEMBER_MFA_METHODS, type MemberMfaFactor, type MemberMfaMethod } from "../../domain/member-mfa.js";
import { bool, empty, entityColumns, int, oneOf, row, type RowOf, sql, statements, text } from "../sql/index.js";

const FACTOR = entityColumns(MemberMfaFactorEntity, {
  omit: ["lastStep"],
  narrow: { method: oneOf(...MEMBER_MFA_METHODS) },
});

function fromRow(r: RowOf<typeof FACTOR>): MemberMfaFactor {
  return {
    id: r.id,
    identityId: r.identityId,
    method: r.method,
    secretSealed: r.secretSealed,
    confirmedAt: r.confirmedAt,
    attempts: r.attempts,
    createdAt: r.createdAt,
  };
}

const summaryRow = row({ totp: bool, passkeys: int });
const memberRow = row({ id: text });
const attemptsRow = row({ attempts: int });

// A member identity's TOTP factors. Identities are global, not a tenant's: every method names
// the identity the caller has just proved (its password, its mfa_token, its management token),
// never one an organization picked.
export function memberMfaFactorsRepository(manager: EntityManager) {
  const run = statements(manager);
  const factorColumns = FACTOR.on(manager);
  return {
    async list(identityId: string): Promise<MemberMfaFactor[]> {
      const rows = await run.rows(
        sql`SELECT ${factorColumns.list} FROM member_mfa_factors WHERE identity_id = ${identityId} ORDER BY method`,
        factorColumns.decode,
      );
      return rows.map(fromRow);
    },

    /** What a challenge lists: a confirmed TOTP factor, and how many passkeys. One statement. */
    async summary(identityId: string): Promise<{ totp: boolean; passkeys: number }> {
      const found = await run.first(
        sql`SELECT EXISTS (SELECT 1 FROM member_mfa_factors WHERE identity_id = ${identityId} AND confirmed_at IS NOT NULL) AS totp,
                   (SELECT count(*)::int FROM member_passkeys WHERE identity_id = ${identityId}) AS passkeys`,
        summaryRow,
      );
      return found ?? { totp: false, passkeys: 0 };
    },

    /** The members of the organization, among `memberIds`, whose identity has a second factor (ListMembers). */
    async withSecondFactor(organizationId: string, memberIds: string[]): Promise<Set<string>> {
      if (memberIds.length === 0) return new Set();
      const rows = await run.rows(
        sql`SELECT m.id FROM members m WHERE m.organization_id = ${organizationId} AND m.id = ANY (${memberIds}::text[])
              AND (EXISTS (SELECT 1 FROM member_mfa_factors f WHERE f.identity_id = m.identity_id AND f.confirmed_at IS NOT NULL)
                OR EXISTS (SELECT 1 FROM member_passkeys p WHERE p.identity_id = m.identity_id))`,
        memberRow,
      );
      return new Set(rows.map((r) => r.id));
    },

    /**
     * Starts (or restarts) an enrollment: the pending factor of that method is replaced. A
     * confirmed factor of the method is left alone and the answer is false.
     */
    async startPending(input: {
      id: string;
      identityId: string;
      method: MemberMfaMethod;
      secretSealed: string;
      now: Date;
    }): Promise<boolean> {
      const started = await run.first(
        sql`INSERT INTO member_mfa_factors (id, identity_id, method, secret_sealed, attempts, created_at)
            VALUES (${input.id}, ${input.identityId}, ${input.method}, ${input.secretSealed}, 0, ${input.now})
            ON CONFLICT (identity_id, method) DO UPDATE
              SET id = EXCLUDED.id, secret_sealed = EXCLUDED.secret_sealed, attempts = 0, last_step = NULL,
                  created_at = EXCLUDED.created_at
              WHERE member_mfa_factors.confirmed_at IS NULL
            RETURNING id`,
        memberRow,
      );
      return started !== null;
    },

    /** The pending factor, locked until the transaction ends; the newest when `method` is absent. */
    async lockPending(identityId: string, method?: MemberMfaMethod): Promise<MemberMfaFactor | null> {
      const pending = await run.first(
        sql`SELECT ${factorColumns.list} FROM member_mfa_factors WHERE identity_id = ${identityId} AND confirmed_at IS NULL
            ${method === undefined ? empty : sql`AND method = ${method}`} ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
        factorColumns.decode,
      );
      return pending ? fromRow(pending) : null;
    },

    /** A wrong code against a pending enrollment; at `maxAttempts` the enrollment is dropped. */
    async recordPendingFailure(identityId: string, id: string, maxAttempts: number): Promise<void> {
      const counted = await run.first(
        sql`UPDATE member_mfa_factors SET attempts = attempts + 1
            WHERE identity_id = ${identityId} AND id = ${id} AND confirmed_at IS NULL RETURNING attempts`,
        attemptsRow,
      );
      if ((counted?.attempts ?? 0) >= maxAttempts)
        await run.execute(
          sql`DELETE FROM member_mfa_factors WHERE identity_id = ${identityId} AND id = ${id} AND confirmed_at IS NULL`,
        );
    },

    async confirm(identityId: string, id: string, now: Date): Promise<void> {
      await run.execute(
        sql`UPDATE member_mfa_factors SET confirmed_at = ${now}, attempts = 0 WHERE identity_id = ${identityId} AND id = ${id}`,
      );
    },

    /**
     * Accepts TOTP time step `step` unless that step or a later one was accepted before: one
     * conditional UPDATE, so a code is accepted once, whichever process sees it.
     */
    async acceptStep(identityId: string, id: string, step: number): Promise<boolean> {
      const accepted = await run.affected(
        sql`UPDATE member_mfa_factors SET last_step = ${step}
            WHERE identity_id = ${identityId} AND id = ${id} AND (last_step IS NULL OR last_step < ${step})`,
      );
      return accepted > 0;
    },

    /** Removes a confirmed factor; false when the identity has none of that method. */
    async removeConfirmed(identityId: string, method: MemberMfaMethod): Promise<boolean> {
      const removed = await run.affected(
        sql`DELETE FROM member_mfa_factors WHERE identity_id = ${identityId} AND method = ${method} AND confirmed_at IS NOT NULL`,
      );
      return removed > 0;
    },
  };
}

export type MemberMfaFactorsRepository = ReturnType<typeof memberMfaFactorsRepository>;
