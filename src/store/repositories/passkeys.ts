import type { EntityManager } from "typeorm";
import { normalizeEmail } from "../../domain/account.js";
import {
  MAX_PASSKEYS_PER_USER,
  type CredentialShape,
  type Passkey,
  type PasskeyChallenge,
} from "../../domain/passkeys.js";
import { translateUniqueViolation } from "../errors.js";
import { bool, empty, int, nullable, oneOf, row, sql, statements, text, textArray, timestamp } from "../sql/index.js";
import { syncMfaMethods } from "./mfa-methods.js";

const COLUMNS = sql`id, user_id, credential_id, public_key, counter, transports, backup_eligible, backed_up, aaguid, name, created_at, last_used_at`;

const passkeyRow = row({
  id: text,
  user_id: text,
  credential_id: text,
  public_key: text,
  counter: int,
  transports: textArray,
  backup_eligible: bool,
  backed_up: bool,
  aaguid: nullable(text),
  name: text,
  created_at: timestamp,
  last_used_at: nullable(timestamp),
});

function fromRow(r: ReturnType<typeof passkeyRow>): Passkey {
  return {
    id: r.id,
    userId: r.user_id,
    credentialId: r.credential_id,
    publicKey: r.public_key,
    counter: r.counter,
    transports: r.transports,
    backupEligible: r.backup_eligible,
    backedUp: r.backed_up,
    aaguid: r.aaguid,
    name: r.name,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
  };
}

const credentialRow = row({
  kind: oneOf("user", "template"),
  user_id: nullable(text),
  credential_id: nullable(text),
  id_length: nullable(int),
  transports: nullable(textArray),
});

/** How many passkey holders of a project the made-up answers of email-first sign-ins copy from. */
const TEMPLATE_HOLDERS = 32;

const challengeRow = row({
  id: text,
  user_id: nullable(text),
  named_user_id: nullable(text),
  purpose: oneOf("registration", "sign_in"),
  challenge_hash: text,
  rp_id: text,
  origins: textArray,
  mfa_token_hash: nullable(text),
  expires_at: timestamp,
});

// Users' passkeys. Adding or removing one rewrites users.mfa_methods in the same transaction
// (mfa-methods.ts): a user with a passkey has the method `webauthn`.
export function passkeysRepository(manager: EntityManager) {
  const run = statements(manager);
  return {
    /** Newest first. */
    async listOfUser(projectId: string, userId: string): Promise<Passkey[]> {
      const rows = await run.rows(
        sql`SELECT ${COLUMNS} FROM passkeys WHERE project_id = ${projectId} AND user_id = ${userId} ORDER BY created_at DESC, id DESC`,
        passkeyRow,
      );
      return rows.map(fromRow);
    },

    /**
     * The passkeys of the user with this email, for an email-first sign-in, and the shapes of
     * one passkey holder's passkeys (`template`: id lengths and transports, newest first), the
     * `pick`-th (modulo) of the project's first 32 holders by user id, which an unknown address's
     * made-up answer copies. One statement whether or not the address is a user's, so the
     * answer takes as long for both.
     */
    async ofEmail(
      projectId: string,
      email: string,
      pick = 0,
    ): Promise<{
      userId: string | null;
      passkeys: Array<Pick<Passkey, "credentialId" | "transports">>;
      template: CredentialShape[];
    }> {
      const rows = await run.rows(
        sql`WITH mine AS (
              SELECT u.id AS user_id, p.credential_id, p.transports, p.created_at FROM users u
                LEFT JOIN passkeys p ON p.project_id = u.project_id AND p.user_id = u.id
               WHERE u.project_id = ${projectId} AND u.email_normalized = ${normalizeEmail(email)}
               ORDER BY p.created_at DESC LIMIT ${MAX_PASSKEYS_PER_USER}),
            holders AS (
              SELECT DISTINCT user_id FROM passkeys WHERE project_id = ${projectId} ORDER BY user_id LIMIT ${TEMPLATE_HOLDERS}),
            picked AS (
              SELECT user_id FROM holders ORDER BY user_id
              OFFSET (SELECT ${pick}::bigint % GREATEST(count(*), 1) FROM holders) LIMIT 1),
            template AS (
              SELECT length(p.credential_id) AS id_length, p.transports, p.created_at
                FROM passkeys p JOIN picked ON p.user_id = picked.user_id
               WHERE p.project_id = ${projectId} ORDER BY p.created_at DESC LIMIT ${MAX_PASSKEYS_PER_USER})
            SELECT 'user' AS kind, user_id, credential_id, NULL::int AS id_length, transports, created_at FROM mine
            UNION ALL
            SELECT 'template', NULL, NULL, id_length, transports, created_at FROM template
            ORDER BY kind DESC, created_at DESC`,
        credentialRow,
      );
      const mine = rows.filter((r) => r.kind === "user");
      return {
        userId: mine[0]?.user_id ?? null,
        passkeys: mine.flatMap((r) =>
          r.credential_id === null ? [] : [{ credentialId: r.credential_id, transports: r.transports ?? [] }],
        ),
        // base64url without padding: 4 characters for 3 bytes.
        template: rows
          .filter((r) => r.kind === "template")
          .map((r) => ({ idLength: Math.floor(((r.id_length ?? 0) * 3) / 4), transports: r.transports ?? [] })),
      };
    },

    /** A passkey of the project; of that user only when `userId` is given. */
    async get(projectId: string, id: string, userId?: string): Promise<Passkey | null> {
      const found = await run.first(
        sql`SELECT ${COLUMNS} FROM passkeys WHERE project_id = ${projectId} AND id = ${id}`,
        passkeyRow,
      );
      return found && (userId === undefined || found.user_id === userId) ? fromRow(found) : null;
    },

    /** The passkey an assertion names, locked until the transaction ends (its counter moves). */
    async lockByCredential(projectId: string, credentialId: string): Promise<Passkey | null> {
      const found = await run.first(
        sql`SELECT ${COLUMNS} FROM passkeys WHERE project_id = ${projectId} AND credential_id = ${credentialId} FOR UPDATE`,
        passkeyRow,
      );
      return found ? fromRow(found) : null;
    },

    /** Keeps a new passkey; a credential id the project holds already is UniqueViolation("passkeys_credential_key"). */
    async create(projectId: string, passkey: Passkey): Promise<void> {
      await translateUniqueViolation(() =>
        run.execute(
          sql`INSERT INTO passkeys (id, project_id, user_id, credential_id, public_key, counter, transports, backup_eligible, backed_up, aaguid, name, created_at)
              VALUES (${passkey.id}, ${projectId}, ${passkey.userId}, ${passkey.credentialId}, ${passkey.publicKey}, ${passkey.counter},
                      ${passkey.transports}, ${passkey.backupEligible}, ${passkey.backedUp}, ${passkey.aaguid}, ${passkey.name}, ${passkey.createdAt})`,
        ),
      );
      await syncMfaMethods(run, projectId, passkey.userId, passkey.createdAt);
    },

    /** A verified assertion: the authenticator's new counter and backup state, and when. */
    async recordUse(
      projectId: string,
      id: string,
      use: { counter: number; backedUp: boolean; at: Date },
    ): Promise<void> {
      await run.execute(
        sql`UPDATE passkeys SET counter = ${use.counter}, backed_up = ${use.backedUp}, last_used_at = ${use.at}
            WHERE project_id = ${projectId} AND id = ${id}`,
      );
    },

    /** Renames the passkey (the user's own when `userId` is given); null when there is none. */
    async rename(projectId: string, id: string, name: string, userId?: string): Promise<Passkey | null> {
      const renamed = await run.first(
        sql`UPDATE passkeys SET name = ${name} WHERE project_id = ${projectId} AND id = ${id}
            ${userId === undefined ? empty : sql`AND user_id = ${userId}`} RETURNING ${COLUMNS}`,
        passkeyRow,
      );
      return renamed ? fromRow(renamed) : null;
    },

    /** Removes a passkey and rewrites its user's methods. */
    async remove(projectId: string, passkey: Pick<Passkey, "id" | "userId">, now: Date): Promise<boolean> {
      const removed = await run.affected(
        sql`DELETE FROM passkeys WHERE project_id = ${projectId} AND id = ${passkey.id}`,
      );
      if (removed === 0) return false;
      await syncMfaMethods(run, projectId, passkey.userId, now);
      return true;
    },

    /** Keeps a ceremony's challenge, and clears a few expired ones of the project (no sweeper needed). */
    async createChallenge(projectId: string, challenge: PasskeyChallenge, now: Date): Promise<void> {
      await run.execute(
        sql`WITH expired AS (
              DELETE FROM passkey_challenges WHERE id IN (
                SELECT id FROM passkey_challenges WHERE project_id = ${projectId} AND expires_at < ${now} LIMIT 20))
            INSERT INTO passkey_challenges (id, project_id, user_id, named_user_id, purpose, challenge_hash, rp_id, origins, mfa_token_hash, expires_at, created_at)
            VALUES (${challenge.id}, ${projectId}, ${challenge.userId}, ${challenge.namedUserId ?? null}, ${challenge.purpose}, ${challenge.challengeHash}, ${challenge.rpId},
                    ${challenge.origins}, ${challenge.mfaTokenHash}, ${challenge.expiresAt}, ${now})`,
      );
    },

    /**
     * Spends a live challenge of that purpose and answers it: one conditional UPDATE, so of two
     * finishes of one challenge exactly one gets it, on any instance. Null: unknown, used or expired.
     */
    async spendChallenge(
      projectId: string,
      id: string,
      purpose: PasskeyChallenge["purpose"],
      now: Date,
    ): Promise<PasskeyChallenge | null> {
      const spent = await run.first(
        sql`UPDATE passkey_challenges SET used_at = ${now}
            WHERE project_id = ${projectId} AND id = ${id} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > ${now}
            RETURNING id, user_id, named_user_id, purpose, challenge_hash, rp_id, origins, mfa_token_hash, expires_at`,
        challengeRow,
      );
      return spent
        ? {
            id: spent.id,
            userId: spent.user_id,
            namedUserId: spent.named_user_id,
            purpose: spent.purpose,
            challengeHash: spent.challenge_hash,
            rpId: spent.rp_id,
            origins: spent.origins,
            mfaTokenHash: spent.mfa_token_hash,
            expiresAt: spent.expires_at,
          }
        : null;
    },
  };
}

export type PasskeysRepository = ReturnType<typeof passkeysRepository>;
