import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import { normalizeEmail } from "../../domain/account.js";
import type { AuditOrigin } from "../../domain/audit.js";
import type { User, UserFilters } from "../../domain/auth.js";
import type { Clock } from "../../domain/clock.js";
import type { PageRequest } from "../../domain/pagination.js";
import { UserEntity } from "../entities/user.entity.js";
import { translateUniqueViolation } from "../errors.js";
import { bool, joinSql, nullable, row, sql, statements, text, type Statement } from "../sql/index.js";
import { auditRow } from "./audit-events.js";
import { toUser, USER, USER_CREDENTIALS } from "./user-rows.js";
import { listUsers, MAX_WALK, PROBE_WINDOW } from "./users-list.js";

export { toUser, USER } from "./user-rows.js";

/** A user brought in by `gatehouse user import`, its password hash as the other system made it. */
export interface ImportedUser {
  id: string;
  email: string | null;
  phone: string | null;
  emailVerified: boolean;
  phoneVerified: boolean;
  passwordHash: string | null;
  metadata: Record<string, unknown>;
  appMetadata: Record<string, unknown>;
  /** A BCP 47 tag in canonical form; '' for none. */
  locale: string;
  /** Recorded on its `user.signup` audit event (`method: "import"` is added). */
  auditDetails: Record<string, string>;
}

export interface ImportOutcome {
  id: string;
  inserted: boolean;
  /** Not inserted, and the project already had the email (else it had the phone number). */
  emailTaken: boolean;
}

/** A user the project's administrator creates (CreateUser, InviteUser). */
export interface AdminCreatedUser {
  organizationId: string;
  email: string;
  emailVerified: boolean;
  /** null: no password (the user signs in by code, link or SSO, or sets one by a link). */
  passwordHash: string | null;
  metadata: Record<string, unknown>;
  appMetadata: Record<string, unknown>;
  /** Canonical BCP 47; absent or "": none. */
  locale?: string;
}

export interface UserChanges {
  email?: string;
  metadata?: Record<string, unknown>;
  /** Replaced whole, like metadata. */
  appMetadata?: Record<string, unknown>;
  /** A pending email change (the address, and when its link expires); null withdraws it. */
  newEmail?: { address: string; expiresAt: Date } | null;
  disabled?: boolean;
  emailVerified?: boolean;
  phoneVerified?: boolean;
  /** null removes the password (the user signs in by code, link or SSO only). */
  passwordHash?: string | null;
  /** Canonical BCP 47; "" clears it. */
  locale?: string;
}

const importedRow = row({ id: text, inserted: bool, email_taken: bool });
const recipientRow = row({ email: nullable(text), locale: text });

// Every method takes the project (the tenant) first.
export function usersRepository(
  manager: EntityManager,
  clock: Clock,
  options: { probeWindow?: number; maxWalk?: number } = {},
) {
  const window = { probe: options.probeWindow ?? PROBE_WINDOW, maxWalk: options.maxWalk ?? MAX_WALK };
  const users = manager.getRepository(UserEntity);
  const run = statements(manager);
  const userColumns = USER.on(manager);
  const credentials = USER_CREDENTIALS.on(manager);
  // The lookups of every sign-in and refresh: fixed statements with decoded rows, since
  // findOneBy's query building cost a refresh a quarter of a millisecond of the main thread
  // (`npm run bench -- --profile=refresh`).
  const one = async (where: Statement) => {
    const found = await run.first(sql`SELECT ${userColumns.list} FROM users WHERE ${where}`, userColumns.decode);
    return found ? toUser(found, clock.now()) : null;
  };
  /**
   * The stored spelling of the project's user with this email, and the language its messages
   * speak ("" when the user chose none); null when no user has it. Two columns of one row and no
   * user to build, so a code or link sent to a registered address costs no more before its
   * answer than one sent to an unknown address (test/limits/timing.test.ts).
   */
  async function recipientAt(projectId: string, email: string): Promise<{ email: string; locale: string } | null> {
    const found = await run.first(
      sql`SELECT email, locale FROM users WHERE project_id = ${projectId} AND email_normalized = ${normalizeEmail(email)}`,
      recipientRow,
    );
    return found?.email ? { email: found.email, locale: found.locale } : null;
  }
  return {
    get(projectId: string, id: string): Promise<User | null> {
      return one(sql`project_id = ${projectId} AND id = ${id}`);
    },

    /** For sign-in: the user and its password hash (null for passwordless users). */
    async findCredentials(
      projectId: string,
      email: string,
    ): Promise<{ user: User; passwordHash: string | null } | null> {
      const found = await run.first(
        sql`SELECT ${credentials.list} FROM users
            WHERE project_id = ${projectId} AND email_normalized = ${normalizeEmail(email)}`,
        credentials.decode,
      );
      return found ? { user: toUser(found, clock.now()), passwordHash: found.passwordHash } : null;
    },

    recipientAt,

    /** For SMS one-time codes: the user who signs in with this E.164 number. */
    findByPhone(projectId: string, phone: string): Promise<User | null> {
      return one(sql`project_id = ${projectId} AND phone = ${phone}`);
    },

    /** Whether a user of the project signs in with this address (case-insensitive). */
    async emailTaken(projectId: string, email: string): Promise<boolean> {
      return (await recipientAt(projectId, email)) !== null;
    },

    async passwordHash(projectId: string, id: string): Promise<string | null> {
      const found = await users.findOne({ select: { id: true, passwordHash: true }, where: { projectId, id } });
      return found?.passwordHash ?? null;
    },

    /** Applies only the changes given; metadata and app_metadata are replaced whole (merging is the flow's). */
    async update(projectId: string, id: string, changes: UserChanges): Promise<User | null> {
      const sets: Statement[] = [];
      if (changes.email !== undefined)
        sets.push(sql`email = ${changes.email.trim()}`, sql`email_normalized = ${normalizeEmail(changes.email)}`);
      if (changes.metadata !== undefined) sets.push(sql`metadata = ${JSON.stringify(changes.metadata)}`);
      if (changes.appMetadata !== undefined) sets.push(sql`app_metadata = ${JSON.stringify(changes.appMetadata)}`);
      if (changes.newEmail !== undefined) {
        sets.push(
          sql`new_email = ${changes.newEmail?.address.trim() ?? null}`,
          sql`new_email_expires_at = ${changes.newEmail?.expiresAt ?? null}`,
        );
      }
      if (changes.disabled !== undefined) sets.push(sql`disabled = ${changes.disabled}`);
      if (changes.emailVerified !== undefined) sets.push(sql`email_verified = ${changes.emailVerified}`);
      if (changes.phoneVerified !== undefined) sets.push(sql`phone_verified = ${changes.phoneVerified}`);
      if (changes.passwordHash !== undefined) sets.push(sql`password_hash = ${changes.passwordHash}`);
      if (changes.locale !== undefined) sets.push(sql`locale = ${changes.locale}`);
      sets.push(sql`updated_at = ${clock.now()}`);
      // One statement that answers the row as changed (RETURNING), not an update and a read.
      const updated = await translateUniqueViolation(() =>
        run.first(
          sql`UPDATE users SET ${joinSql(sets, ", ")} WHERE project_id = ${projectId} AND id = ${id} RETURNING ${userColumns.list}`,
          userColumns.decode,
        ),
      );
      return updated ? toUser(updated, clock.now()) : null;
    },

    /**
     * Inserts a batch in one statement, so it commits whole or not at all, each user with its
     * `user.signup` audit event. A user whose email or phone the project already has (or that
     * an earlier row of the batch took) is skipped, not an error: the outcome says which.
     */
    async importMany(
      projectId: string,
      organizationId: string,
      batch: readonly ImportedUser[],
      origin: AuditOrigin,
    ): Promise<ImportOutcome[]> {
      if (batch.length === 0) return [];
      const now = clock.now();
      const audit = auditRow({ type: "user.signup", organizationId, projectId, origin }, now);
      const column = <T>(pick: (u: ImportedUser) => T) => batch.map(pick);
      // Rows a data-modifying CTE inserts are invisible to the rest of its statement: the
      // EXISTS below sees only what the project had before, which is why a row was skipped.
      const rows = await run.rows(
        sql`WITH input AS (
           SELECT * FROM unnest(${column((u) => u.id)}::text[], ${column((u) => u.email)}::text[],
                                ${column((u) => (u.email === null ? null : normalizeEmail(u.email)))}::text[], ${column((u) => u.phone)}::text[],
                                ${column((u) => u.emailVerified)}::boolean[], ${column((u) => u.phoneVerified)}::boolean[],
                                ${column((u) => u.passwordHash)}::text[], ${column((u) => JSON.stringify(u.metadata))}::jsonb[],
                                ${column((u) => JSON.stringify(u.appMetadata))}::jsonb[], ${column(() => newId("aev", now.getTime()))}::text[],
                                ${column((u) => JSON.stringify({ method: "import", ...u.auditDetails }))}::jsonb[],
                                ${column((u) => u.locale)}::text[])
             AS t(id, email, email_normalized, phone, email_verified, phone_verified, password_hash, metadata, app_metadata, audit_id, audit_details, locale)
         ), inserted AS (
           INSERT INTO users (id, organization_id, project_id, email, email_normalized, phone, email_verified, phone_verified,
             password_hash, metadata, app_metadata, locale, created_at, updated_at)
           SELECT id, ${organizationId}, ${projectId}, email, email_normalized, phone, email_verified, phone_verified, password_hash,
             metadata, app_metadata, locale, ${now}::timestamptz, ${now}::timestamptz
           FROM input
           ON CONFLICT DO NOTHING
           RETURNING id
         ), audit AS (
           INSERT INTO audit_events (id, organization_id, project_id, type, user_id, actor_type, actor_id, target_id, ip_address, user_agent, details, created_at)
           SELECT input.audit_id, ${organizationId}, ${projectId}, 'user.signup', input.id, ${audit.actorType}, ${audit.actorId}, input.id,
             ${audit.ipAddress}, ${audit.userAgent}, input.audit_details, ${now}::timestamptz
           FROM inserted JOIN input USING (id)
         )
         SELECT input.id, inserted.id IS NOT NULL AS inserted,
                EXISTS (SELECT 1 FROM users u WHERE u.project_id = ${projectId} AND u.email_normalized = input.email_normalized) AS email_taken
         FROM input LEFT JOIN inserted USING (id)`,
        importedRow,
      );
      return rows.map((r) => ({ id: r.id, inserted: r.inserted, emailTaken: !r.inserted && r.email_taken }));
    },

    /**
     * A user made by the project's administrator (CreateUser, InviteUser): no session, never
     * signed in. A duplicate email is UniqueViolation users_project_email_key (the canonical
     * key, as at Signup).
     */
    async create(projectId: string, user: AdminCreatedUser): Promise<User> {
      const now = clock.now();
      const email = user.email.trim();
      const created = await translateUniqueViolation(() =>
        run.first(
          sql`INSERT INTO users (id, organization_id, project_id, email, email_normalized, email_verified, phone_verified,
             password_hash, metadata, app_metadata, locale, created_at, updated_at)
           VALUES (${newId("usr")}, ${user.organizationId}, ${projectId}, ${email}, ${normalizeEmail(email)}, ${user.emailVerified},
             false, ${user.passwordHash}, ${JSON.stringify(user.metadata)}, ${JSON.stringify(user.appMetadata)}, ${user.locale ?? ""},
             ${now}, ${now})
           RETURNING ${userColumns.list}`,
          userColumns.decode,
        ),
      );
      if (!created) throw new Error("INSERT … RETURNING answered no user row");
      return toUser(created, now);
    },

    /** Sessions, tokens and links go with the user (ON DELETE CASCADE). */
    async delete(projectId: string, id: string): Promise<boolean> {
      const result = await users.delete({ projectId, id });
      return (result.affected ?? 0) > 0;
    },

    /**
     * Newest first by keyset; `search` is a case-insensitive substring of the email, served
     * by the trigram index (users-list.ts).
     */
    list(projectId: string, page: PageRequest, search?: string, filters?: UserFilters): Promise<User[]> {
      return listUsers(manager, clock, window, projectId, page, search, filters);
    },
  };
}

export type UsersRepository = ReturnType<typeof usersRepository>;
