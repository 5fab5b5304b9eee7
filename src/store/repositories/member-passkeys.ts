import type { EntityManager } from "typeorm";
import type { MemberPasskey, MemberPasskeyChallenge } from "../../domain/member-mfa.js";
import { translateUniqueViolation } from "../errors.js";
import { bool, int, nullable, oneOf, row, sql, statements, text, textArray, timestamp } from "../sql/index.js";

const COLUMNS = sql`id, identity_id, credential_id, public_key, counter, transports, backup_eligible, backed_up, name, created_at, last_used_at`;

const passkeyRow = row({
  id: text,
  identity_id: text,
  credential_id: text,
  public_key: text,
  counter: int,
  transports: textArray,
  backup_eligible: bool,
  backed_up: bool,
  name: text,
  created_at: timestamp,
  last_used_at: nullable(timestamp),
});

function fromRow(r: ReturnType<typeof passkeyRow>): MemberPasskey {
  return {
    id: r.id,
    identityId: r.identity_id,
    credentialId: r.credential_id,
    publicKey: r.public_key,
    counter: r.counter,
    transports: r.transports,
    backupEligible: r.backup_eligible,
    backedUp: r.backed_up,
    name: r.name,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
  };
}

const challengeRow = row({
  id: text,
  identity_id: text,
  purpose: oneOf("registration", "sign_in"),
  challenge_hash: text,
  rp_id: text,
  origins: textArray,
  mfa_token_hash: nullable(text),
  expires_at: timestamp,
});

// Member identities' passkeys (a second factor, `webauthn`) and their ceremonies' challenges.
// Every method names the identity the caller has proved, except lockByCredential, whose answer
// the flow holds to the identity of the challenge it answers.
export function memberPasskeysRepository(manager: EntityManager) {
  const run = statements(manager);
  return {
    /** Newest first. */
    async listOfIdentity(identityId: string): Promise<MemberPasskey[]> {
      const rows = await run.rows(
        sql`SELECT ${COLUMNS} FROM member_passkeys WHERE identity_id = ${identityId} ORDER BY created_at DESC, id DESC`,
        passkeyRow,
      );
      return rows.map(fromRow);
    },

    /** The passkey an assertion names, locked until the transaction ends (its counter moves). */
    async lockByCredential(credentialId: string): Promise<MemberPasskey | null> {
      const found = await run.first(
        sql`SELECT ${COLUMNS} FROM member_passkeys WHERE credential_id = ${credentialId} FOR UPDATE`,
        passkeyRow,
      );
      return found ? fromRow(found) : null;
    },

    /** Keeps a new passkey; a credential id held already is UniqueViolation("member_passkeys_credential_key"). */
    async create(passkey: MemberPasskey): Promise<void> {
      await translateUniqueViolation(() =>
        run.execute(
          sql`INSERT INTO member_passkeys (id, identity_id, credential_id, public_key, counter, transports, backup_eligible, backed_up, name, created_at)
              VALUES (${passkey.id}, ${passkey.identityId}, ${passkey.credentialId}, ${passkey.publicKey}, ${passkey.counter},
                      ${passkey.transports}, ${passkey.backupEligible}, ${passkey.backedUp}, ${passkey.name}, ${passkey.createdAt})`,
        ),
      );
    },

    /** A verified assertion: the authenticator's new counter and backup state, and when. */
    async recordUse(
      identityId: string,
      id: string,
      use: { counter: number; backedUp: boolean; at: Date },
    ): Promise<void> {
      await run.execute(
        sql`UPDATE member_passkeys SET counter = ${use.counter}, backed_up = ${use.backedUp}, last_used_at = ${use.at}
            WHERE identity_id = ${identityId} AND id = ${id}`,
      );
    },

    /** Removes one of the identity's passkeys; false when it has no such passkey. */
    async remove(identityId: string, id: string): Promise<boolean> {
      const removed = await run.affected(
        sql`DELETE FROM member_passkeys WHERE identity_id = ${identityId} AND id = ${id}`,
      );
      return removed > 0;
    },

    /** Keeps a ceremony's challenge, and clears a few expired ones (no sweeper needed). */
    async createChallenge(challenge: MemberPasskeyChallenge, now: Date): Promise<void> {
      await run.execute(
        sql`WITH expired AS (
              DELETE FROM member_passkey_challenges WHERE id IN (
                SELECT id FROM member_passkey_challenges WHERE expires_at < ${now} LIMIT 20))
            INSERT INTO member_passkey_challenges (id, identity_id, purpose, challenge_hash, rp_id, origins, mfa_token_hash, expires_at, created_at)
            VALUES (${challenge.id}, ${challenge.identityId}, ${challenge.purpose}, ${challenge.challengeHash}, ${challenge.rpId},
                    ${challenge.origins}, ${challenge.mfaTokenHash}, ${challenge.expiresAt}, ${now})`,
      );
    },

    /**
     * Spends a live challenge of that purpose: one conditional UPDATE, so of two finishes of
     * one challenge exactly one gets it, on any instance. Null: unknown, used or expired.
     */
    async spendChallenge(
      id: string,
      purpose: MemberPasskeyChallenge["purpose"],
      now: Date,
    ): Promise<MemberPasskeyChallenge | null> {
      const spent = await run.first(
        sql`UPDATE member_passkey_challenges SET used_at = ${now}
            WHERE id = ${id} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > ${now}
            RETURNING id, identity_id, purpose, challenge_hash, rp_id, origins, mfa_token_hash, expires_at`,
        challengeRow,
      );
      return spent
        ? {
            id: spent.id,
            identityId: spent.identity_id,
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

export type MemberPasskeysRepository = ReturnType<typeof memberPasskeysRepository>;
