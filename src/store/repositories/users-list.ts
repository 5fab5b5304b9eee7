import type { EntityManager } from "typeorm";
import type { User, UserFilters } from "../../domain/auth.js";
import type { Clock } from "../../domain/clock.js";
import type { PageRequest } from "../../domain/pagination.js";
import { sql, statements, empty, type Statement } from "../sql/index.js";
import { toUser, USER } from "./user-rows.js";

/** ListUsers search: the newest rows probed first, and the longest ordered walk it then takes. */
export const PROBE_WINDOW = 2_000;
export const MAX_WALK = 50_000;

/**
 * The project's rows strictly older than the page's position that pass the filters. The filters
 * sit here, in every statement of the walk, so the probe's window counts matching rows only.
 */
function keyset(projectId: string, page: PageRequest, filters: UserFilters): Statement {
  const after = page.after ? sql` AND (created_at, id) < (${page.after.createdAt}, ${page.after.id})` : empty;
  const disabled = filters.disabled === undefined ? empty : sql` AND disabled = ${filters.disabled}`;
  const verified = filters.emailVerified === undefined ? empty : sql` AND email_verified = ${filters.emailVerified}`;
  const mfa =
    filters.mfaEnabled === undefined
      ? empty
      : filters.mfaEnabled
        ? sql` AND cardinality(mfa_methods) > 0`
        : sql` AND cardinality(mfa_methods) = 0`;
  return sql`project_id = ${projectId}${after}${disabled}${verified}${mfa}`;
}

/**
 * Newest first by keyset; `search` is a case-insensitive substring of the email, served by the
 * trigram index (LIKE on the lower-cased column); `filters` narrow by flags of the row.
 */
export async function listUsers(
  manager: EntityManager,
  clock: Clock,
  window: { probe: number; maxWalk: number },
  projectId: string,
  page: PageRequest,
  search?: string,
  filters: UserFilters = {},
): Promise<User[]> {
  const run = statements(manager);
  const user = USER.on(manager);
  const many = async (statement: Statement) => {
    const now = clock.now();
    return (await run.rows(statement, user.decode)).map((r) => toUser(r, now));
  };
  const want = page.limit + 1;
  if (!search) {
    return many(
      sql`SELECT ${user.list} FROM users WHERE ${keyset(projectId, page, filters)} ORDER BY created_at DESC, id DESC LIMIT ${want}`,
    );
  }
  const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // The matches among the newest `size` rows of the page, ids first from the index alone (it
  // carries the email), then the rows themselves.
  const walk = (size: number) =>
    many(sql`SELECT ${user.list} FROM users WHERE project_id = ${projectId} AND id IN (
         SELECT id FROM (SELECT id, created_at, email_normalized FROM users WHERE ${keyset(projectId, page, filters)}
                         ORDER BY created_at DESC, id DESC LIMIT ${size}) AS recent
         WHERE email_normalized LIKE ${pattern} ORDER BY created_at DESC, id DESC LIMIT ${want})
       ORDER BY created_at DESC, id DESC`);
  // PostgreSQL cannot estimate how many emails contain a substring and assumes 1 %, so it
  // always walks the created_at index and filters: quick for a common substring, a scan of
  // most of the project for a rare one. So the walk is bounded and sized by what it finds:
  // the newest `probe` rows first; if they hold a few matches, a walk long enough to find a
  // page at that density (at most `maxWalk` rows); if none, or still too few, the older rows
  // through the trigram index, where the matches are rare by then.
  let size = window.probe;
  let recent = await walk(size);
  if (recent.length === want) return recent;
  if (recent.length > 0) {
    const enough = Math.ceil((2 * want * window.probe) / recent.length);
    if (enough <= window.maxWalk) {
      size = enough;
      recent = await walk(size);
      if (recent.length === want) return recent;
    }
  }
  const boundary = sql`(SELECT created_at, id FROM users WHERE ${keyset(projectId, page, filters)} ORDER BY created_at DESC, id DESC OFFSET ${size - 1} LIMIT 1)`;
  // An ORDER BY the created_at index cannot serve, so that the planner takes the trigram one.
  const rest = await many(
    sql`SELECT ${user.list} FROM users WHERE ${keyset(projectId, page, filters)} AND (created_at, id) < ${boundary}
           AND email_normalized LIKE ${pattern}
         ORDER BY created_at + interval '0 s' DESC, id DESC LIMIT ${want - recent.length}`,
  );
  return [...recent, ...rest];
}
