import { IsNull, type EntityManager } from "typeorm";
import type { SealedSigningKey, SigningKey } from "../../domain/account.js";
import type { Clock } from "../../domain/clock.js";
import { SigningKeyEntity } from "../entities/signing-key.entity.js";
import { translateUniqueViolation } from "../errors.js";
import { empty, entityColumns, sql, statements } from "../sql/index.js";

const KEY = entityColumns(SigningKeyEntity);

export function toSigningKey(e: SigningKeyEntity): SigningKey {
  return {
    kid: e.kid,
    organizationId: e.organizationId,
    projectId: e.projectId,
    algorithm: e.algorithm,
    publicJwk: { ...e.publicJwk },
    createdAt: e.createdAt,
    retiredAt: e.retiredAt,
  };
}

export interface CreateSigningKeyInput {
  projectId: string;
  kid: string;
  algorithm: "ES256";
  publicJwk: SigningKey["publicJwk"];
  /** Sealed by crypto/signing-keys.ts; this repository never sees the private key in clear. */
  privateJwkSealed: string;
}

// Written on the Account side (organization first, like every Account repository); read on
// the Authentication side, whose tenant is the project named by the API key or the login id.
export function signingKeysRepository(manager: EntityManager, clock: Clock) {
  const run = statements(manager);
  const key = KEY.on(manager);
  return {
    /** A project of another organization fails the composite foreign key (23503), never links. */
    async create(organizationId: string, input: CreateSigningKeyInput): Promise<SigningKey> {
      const row: SigningKeyEntity = {
        kid: input.kid,
        organizationId,
        projectId: input.projectId,
        algorithm: input.algorithm,
        publicJwk: input.publicJwk,
        privateJwkSealed: input.privateJwkSealed,
        createdAt: clock.now(),
        retiredAt: null,
      };
      await translateUniqueViolation(() => manager.insert(SigningKeyEntity, row));
      return toSigningKey(row);
    },

    /** The key that signs new tokens: the newest one not retired. Null when the project has none. */
    async active(projectId: string): Promise<SealedSigningKey | null> {
      const row = await run.first(
        sql`SELECT ${key.list} FROM project_signing_keys WHERE project_id = ${projectId} AND retired_at IS NULL
            ORDER BY created_at DESC, kid DESC LIMIT 1`,
        key.decode,
      );
      return row ? { ...toSigningKey(row), privateJwkSealed: row.privateJwkSealed } : null;
    },

    /**
     * The keys a JWKS shows, newest first: every key not retired, plus those retired after
     * `retiredAfter` (a retired key keeps verifying until the tokens it signed have expired).
     */
    async listPublic(projectId: string, retiredAfter?: Date): Promise<SigningKey[]> {
      const retired = retiredAfter ? sql` OR retired_at > ${retiredAfter}` : empty;
      const rows = await run.rows(
        sql`SELECT ${key.list} FROM project_signing_keys WHERE project_id = ${projectId} AND (retired_at IS NULL${retired})
            ORDER BY created_at DESC, kid DESC`,
        key.decode,
      );
      return rows.map(toSigningKey);
    },

    /**
     * Retires every key of the project that still signs (retired_at = `at`); answers how
     * many. It first takes a row lock on the project (FOR NO KEY UPDATE: sign-ups inserting
     * rows that reference the project are not blocked), so concurrent rotations of one project
     * queue and each sees the key the previous one made. Only inside db.transaction().
     */
    async retire(projectId: string, at: Date): Promise<number> {
      await run.execute(sql`SELECT id FROM projects WHERE id = ${projectId} FOR NO KEY UPDATE`);
      const result = await manager.update(SigningKeyEntity, { projectId, retiredAt: IsNull() }, { retiredAt: at });
      return result.affected ?? 0;
    },
  };
}

export type SigningKeysRepository = ReturnType<typeof signingKeysRepository>;
