import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import { normalizeEmail } from "../../domain/account.js";
import type { AuditOrigin } from "../../domain/audit.js";
import type { User } from "../../domain/auth.js";
import type { Clock } from "../../domain/clock.js";
import type { PageRequest } from "../../domain/pagination.js";
import { translateUniqueViolation } from "../errors.js";
import { auditRow } from "./audit-events.js";

export interface UserRow {
  id: string;
  organization_id: string;
  project_id: string;
  email: string | null;
  email_verified: boolean;
  phone: string | null;
  phone_verified: boolean;
  metadata: Record<string, unknown>;
  app_metadata: Record<string, unknown>;
  new_email: string | null;
  new_email_expires_at: Date | null;
  disabled: boolean;
  created_at: Date;
  updated_at: Date;
  last_login_at: Date | null;
  mfa_methods: string[];
}

export const USER_COLUMNS = `id, organization_id, project_id, email, email_verified, phone, phone_verified, metadata, app_metadata,
  new_email, new_email_expires_at, disabled, created_at, updated_at, last_login_at, mfa_methods`;

/** `now` decides whether a pending email change is still live (its link expires with it). */
export function toUser(r: UserRow, now: Date): User {
  const pendingUntil = r.new_email_expires_at ? new Date(r.new_email_expires_at) : null;
  return {
    id: r.id,
    organizationId: r.organization_id,
    projectId: r.project_id,
    // A user signed up by SMS has a phone and no email: "" here, as on the wire.
    email: r.email ?? "",
    emailVerified: r.email_verified,
    phone: r.phone,
    phoneVerified: r.phone_verified,
    metadata: r.metadata ?? {},
    appMetadata: r.app_metadata ?? {},
    newEmail: r.new_email && pendingUntil && pendingUntil.getTime() > now.getTime() ? r.new_email : null,
    disabled: r.disabled,
    mfaMethods: r.mfa_methods ?? [],
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    lastLoginAt: r.last_login_at ? new Date(r.last_login_at) : null,
  };
}

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
  /** Recorded on its `user.signup` audit event (`method: "import"` is added). */
  auditDetails: Record<string, string>;
}

export interface ImportOutcome {
  id: string;
  inserted: boolean;
  /** Not inserted, and the project already had the email (else it had the phone number). */
  emailTaken: boolean;
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
}

// Raw SQL with parameters only. Every method takes the project (the tenant) first.
export function usersRepository(manager: EntityManager, clock: Clock, options: { probeWindow?: number; maxWalk?: number } = {}) {
  const probeWindow = options.probeWindow ?? PROBE_WINDOW;
  const maxWalk = options.maxWalk ?? MAX_WALK;
  const many = async (sql: string, params: unknown[]) => {
    const now = clock.now();
    return ((await manager.query(sql, params)) as UserRow[]).map((row) => toUser(row, now));
  };
  // The matches among the newest `window` rows of the page, ids first from the index alone
  // (it carries the email), then the rows themselves.
  const walk = (projectId: string, page: PageRequest, pattern: string, window: number, want: number) => {
    const { where, params } = keysetWhere(projectId, page);
    return many(
      `SELECT ${USER_COLUMNS} FROM users WHERE project_id = $1 AND id IN (
         SELECT id FROM (SELECT id, created_at, email_normalized FROM users WHERE ${where}
                         ORDER BY created_at DESC, id DESC LIMIT $${params.push(window)}) AS recent
         WHERE email_normalized LIKE $${params.push(pattern)} ORDER BY created_at DESC, id DESC LIMIT $${params.push(want)})
       ORDER BY created_at DESC, id DESC`,
      params,
    );
  };
  const one = async (sql: string, params: unknown[]) => {
    const rows = (await manager.query(sql, params)) as UserRow[];
    return rows[0] ? toUser(rows[0], clock.now()) : null;
  };
  return {
    get(projectId: string, id: string): Promise<User | null> {
      return one(`SELECT ${USER_COLUMNS} FROM users WHERE project_id = $1 AND id = $2`, [projectId, id]);
    },

    /** For sign-in: the user and its password hash (null for passwordless users). */
    async findCredentials(projectId: string, email: string): Promise<{ user: User; passwordHash: string | null } | null> {
      const rows = (await manager.query(
        `SELECT ${USER_COLUMNS}, password_hash FROM users WHERE project_id = $1 AND email_normalized = $2`,
        [projectId, normalizeEmail(email)],
      )) as Array<UserRow & { password_hash: string | null }>;
      return rows[0] ? { user: toUser(rows[0], clock.now()), passwordHash: rows[0].password_hash } : null;
    },

    /** For SMS one-time codes: the user who signs in with this E.164 number. */
    findByPhone(projectId: string, phone: string): Promise<User | null> {
      return one(`SELECT ${USER_COLUMNS} FROM users WHERE project_id = $1 AND phone = $2`, [projectId, phone]);
    },

    /** Whether a user of the project signs in with this address (case-insensitive). */
    async emailTaken(projectId: string, email: string): Promise<boolean> {
      const rows = (await manager.query(`SELECT 1 FROM users WHERE project_id = $1 AND email_normalized = $2`, [projectId, normalizeEmail(email)])) as unknown[];
      return rows.length > 0;
    },

    async passwordHash(projectId: string, id: string): Promise<string | null> {
      const rows = (await manager.query(`SELECT password_hash FROM users WHERE project_id = $1 AND id = $2`, [projectId, id])) as Array<{
        password_hash: string | null;
      }>;
      return rows[0]?.password_hash ?? null;
    },

    /** Applies only the changes given; metadata and app_metadata are replaced whole (merging is the flow's). */
    async update(projectId: string, id: string, changes: UserChanges): Promise<User | null> {
      const sets: string[] = [];
      const params: unknown[] = [projectId, id];
      const set = (column: string, value: unknown) => {
        params.push(value);
        sets.push(`${column} = $${params.length}`);
      };
      if (changes.email !== undefined) {
        set("email", changes.email.trim());
        set("email_normalized", normalizeEmail(changes.email));
      }
      if (changes.metadata !== undefined) set("metadata", JSON.stringify(changes.metadata));
      if (changes.appMetadata !== undefined) set("app_metadata", JSON.stringify(changes.appMetadata));
      if (changes.newEmail !== undefined) {
        set("new_email", changes.newEmail?.address.trim() ?? null);
        set("new_email_expires_at", changes.newEmail?.expiresAt ?? null);
      }
      if (changes.disabled !== undefined) set("disabled", changes.disabled);
      if (changes.emailVerified !== undefined) set("email_verified", changes.emailVerified);
      if (changes.phoneVerified !== undefined) set("phone_verified", changes.phoneVerified);
      if (changes.passwordHash !== undefined) set("password_hash", changes.passwordHash);
      set("updated_at", clock.now());
      const rows = await translateUniqueViolation(() =>
        manager.query(`UPDATE users SET ${sets.join(", ")} WHERE project_id = $1 AND id = $2 RETURNING ${USER_COLUMNS}`, params),
      );
      const updated = (rows as [UserRow[], number])[0] ?? [];
      return updated[0] ? toUser(updated[0], clock.now()) : null;
    },

    /**
     * Inserts a batch in one statement, so it commits whole or not at all, each user with its
     * `user.signup` audit event. A user whose email or phone the project already has (or that
     * an earlier row of the batch took) is skipped, not an error: the outcome says which.
     */
    async importMany(organizationId: string, projectId: string, users: readonly ImportedUser[], origin: AuditOrigin): Promise<ImportOutcome[]> {
      if (users.length === 0) return [];
      const now = clock.now();
      const audit = auditRow({ type: "user.signup", organizationId, projectId, origin }, now);
      const column = <T>(pick: (u: ImportedUser) => T) => users.map(pick);
      const params: unknown[] = [
        organizationId,
        projectId,
        now,
        column((u) => u.id),
        column((u) => u.email),
        column((u) => (u.email === null ? null : normalizeEmail(u.email))),
        column((u) => u.phone),
        column((u) => u.emailVerified),
        column((u) => u.phoneVerified),
        column((u) => u.passwordHash),
        column((u) => JSON.stringify(u.metadata)),
        column((u) => JSON.stringify(u.appMetadata)),
        column(() => newId("aev", now.getTime())),
        column((u) => JSON.stringify({ method: "import", ...u.auditDetails })),
        audit.actorType,
        audit.actorId,
        audit.ipAddress,
        audit.userAgent,
      ];
      // Rows a data-modifying CTE inserts are invisible to the rest of its statement: the
      // EXISTS below sees only what the project had before, which is why a row was skipped.
      const rows = (await manager.query(
        `WITH input AS (
           SELECT * FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::boolean[], $9::boolean[], $10::text[],
                                $11::jsonb[], $12::jsonb[], $13::text[], $14::jsonb[])
             AS t(id, email, email_normalized, phone, email_verified, phone_verified, password_hash, metadata, app_metadata, audit_id, audit_details)
         ), inserted AS (
           INSERT INTO users (id, organization_id, project_id, email, email_normalized, phone, email_verified, phone_verified,
             password_hash, metadata, app_metadata, created_at, updated_at)
           SELECT id, $1, $2, email, email_normalized, phone, email_verified, phone_verified, password_hash, metadata, app_metadata, $3, $3
           FROM input
           ON CONFLICT DO NOTHING
           RETURNING id
         ), audit AS (
           INSERT INTO audit_events (id, organization_id, project_id, type, user_id, actor_type, actor_id, target_id, ip_address, user_agent, details, created_at)
           SELECT input.audit_id, $1, $2, 'user.signup', input.id, $15, $16, input.id, $17, $18, input.audit_details, $3
           FROM inserted JOIN input USING (id)
         )
         SELECT input.id, inserted.id IS NOT NULL AS inserted,
                EXISTS (SELECT 1 FROM users u WHERE u.project_id = $2 AND u.email_normalized = input.email_normalized) AS email_taken
         FROM input LEFT JOIN inserted USING (id)`,
        params,
      )) as Array<{ id: string; inserted: boolean; email_taken: boolean }>;
      return rows.map((r) => ({ id: r.id, inserted: r.inserted, emailTaken: !r.inserted && r.email_taken }));
    },

    /** Sessions, tokens and links go with the user (ON DELETE CASCADE). */
    async delete(projectId: string, id: string): Promise<boolean> {
      const result = (await manager.query(`DELETE FROM users WHERE project_id = $1 AND id = $2 RETURNING id`, [projectId, id])) as [
        unknown[],
        number,
      ];
      return (result[1] ?? 0) > 0;
    },

    /**
     * Newest first by keyset; `search` is a case-insensitive substring of the email, served
     * by the trigram index (LIKE on the lower-cased column).
     */
    async list(projectId: string, page: PageRequest, search?: string): Promise<User[]> {
      const want = page.limit + 1;
      if (!search) {
        const { where, params } = keysetWhere(projectId, page);
        return many(`SELECT ${USER_COLUMNS} FROM users WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $${params.push(want)}`, params);
      }
      // PostgreSQL cannot estimate how many emails contain a substring and assumes 1 %, so it
      // always walks the created_at index and filters: quick for a common substring, a scan of
      // most of the project for a rare one. So the walk is bounded and sized by what it finds:
      // the newest `probeWindow` rows first; if they hold a few matches, a walk long enough to
      // find a page at that density (at most `maxWalk` rows); if none, or still too few, the
      // older rows through the trigram index, where the matches are rare by then.
      const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      let window = probeWindow;
      let recent = await walk(projectId, page, pattern, window, want);
      if (recent.length === want) return recent;
      if (recent.length > 0) {
        const enough = Math.ceil((2 * want * probeWindow) / recent.length);
        if (enough <= maxWalk) {
          window = enough;
          recent = await walk(projectId, page, pattern, window, want);
          if (recent.length === want) return recent;
        }
      }
      const older = keysetWhere(projectId, page);
      const boundary = `(SELECT created_at, id FROM users WHERE ${older.where} ORDER BY created_at DESC, id DESC OFFSET $${older.params.push(window - 1)} LIMIT 1)`;
      // An ORDER BY the created_at index cannot serve, so that the planner takes the trigram one.
      const rest = await many(
        `SELECT ${USER_COLUMNS} FROM users WHERE ${older.where} AND (created_at, id) < ${boundary}
           AND email_normalized LIKE $${older.params.push(pattern)}
         ORDER BY created_at + interval '0 s' DESC, id DESC LIMIT $${older.params.push(want - recent.length)}`,
        older.params,
      );
      return [...recent, ...rest];
    },
  };
}

/** ListUsers search: the newest rows probed first, and the longest ordered walk it then takes. */
const PROBE_WINDOW = 2_000;
const MAX_WALK = 50_000;

function keysetWhere(projectId: string, page: PageRequest): { where: string; params: unknown[] } {
  const params: unknown[] = [projectId];
  let where = "project_id = $1";
  if (page.after) {
    params.push(page.after.createdAt, page.after.id);
    where += ` AND (created_at, id) < ($2, $3)`;
  }
  return { where, params };
}

export type UsersRepository = ReturnType<typeof usersRepository>;
