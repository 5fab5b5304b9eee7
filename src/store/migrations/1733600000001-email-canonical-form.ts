import type { MigrationInterface, QueryRunner } from "typeorm";
import { canonicalEmail, emailKey } from "../../domain/email.js";

// Email keys in the one canonical form (domain/email.ts, docs/security.md "Email addresses:
// one canonical form"). Until now `email_normalized` was trim + toLowerCase, under which
// "\u212Aate@x.test" (Kelvin sign) was kate@x.test. Each row whose address has a unique key
// (users per project, member identities across Gatehouse, pending invitations per
// organization) gets the canonical form as its key, except:
//
// - a row whose address the rule refuses keeps its key (its owner still signs in as before;
//   what to do with the account is the operator's call);
// - rows that would share a key in their scope all keep theirs: nothing is merged, and which
//   account an address belongs to is not for a migration to guess.
//
// Both are written to `email_canonical_conflicts` (listed by `npm run gatehouse --
// email-conflicts`) and counted in a warning at migration time. The log carries no address.
//
// Codes and links in flight: one-time codes by email are keyed by the old form alone, which
// cannot tell a look-alike's code from the owner's, so they are all withdrawn (they live 10
// minutes; a user asks again); a magic link whose key changes is withdrawn too.
//
// The rule is read from domain/email.ts as it is when this runs: a later change to the rule
// needs a migration of its own.

const BATCH = 2000;

interface Table {
  name: "users" | "member_identities" | "invitations";
  /** The rows whose key must be unique. */
  where: string;
  /** Where it must be unique: rows of one scope value share no key ('' is all of Gatehouse). */
  scope: string;
  project: string;
  organization: string;
}

const TABLES: Table[] = [
  {
    name: "users",
    where: "email IS NOT NULL AND email <> ''",
    scope: "project_id",
    project: "project_id",
    organization: "organization_id",
  },
  { name: "member_identities", where: "true", scope: "''", project: "NULL", organization: "NULL" },
  // Accepted invitations are history: no rule keeps their keys apart, and none reads them by it.
  {
    name: "invitations",
    where: "accepted_at IS NULL",
    scope: "organization_id",
    project: "NULL",
    organization: "organization_id",
  },
];

interface Row {
  id: string;
  email: string;
  key: string;
  scope: string;
  project_id: string | null;
  organization_id: string | null;
}

interface Conflict {
  row: Row;
  canonical: string | null;
  reason: "refused" | "collision";
  description: string;
}

export class EmailCanonicalForm1733600000001 implements MigrationInterface {
  name = "EmailCanonicalForm1733600000001";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE email_canonical_conflicts (
        id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        table_name       text NOT NULL,
        row_id           text NOT NULL,
        project_id       text,
        organization_id  text,
        email            text NOT NULL,
        canonical        text,
        reason           text NOT NULL CHECK (reason IN ('refused', 'collision')),
        description      text NOT NULL,
        found_at         timestamptz NOT NULL DEFAULT now()
      )`);
    const counts: string[] = [];
    for (const table of TABLES) {
      const conflicts = await rekey(q, table);
      await report(q, table, conflicts);
      for (const reason of ["refused", "collision"] as const) {
        const n = conflicts.filter((c) => c.reason === reason).length;
        if (n > 0) counts.push(`${table.name}: ${n} ${reason}`);
      }
    }
    await q.query(`DELETE FROM otp_codes WHERE channel = 'email'`);
    await withdrawMagicLinks(q);
    if (counts.length > 0) {
      q.connection.logger.log(
        "warn",
        `email canonical form: some stored addresses keep their old key (${counts.join(", ")}); ` +
          "list them with `npm run gatehouse -- email-conflicts` (docs/security.md, Email addresses: one canonical form)",
      );
    }
  }

  /** Back to trim + toLowerCase. Only an address with a non-ASCII character can have another key. */
  async down(q: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      const rows = (await q.query(
        `SELECT id, email, email_normalized AS key FROM ${table.name}
         WHERE ${table.where} AND octet_length(email) <> char_length(email)`,
      )) as Array<Pick<Row, "id" | "email" | "key">>;
      const moves = rows
        .map((r) => ({ id: r.id, key: r.email.trim().toLowerCase() }))
        .filter((m, i) => m.key !== rows[i].key);
      await moveKeys(q, table.name, moves);
    }
    await q.query(`DROP TABLE email_canonical_conflicts`);
  }
}

/** Sets the new keys of one table and answers what could not be moved, and why. */
async function rekey(q: QueryRunner, table: Table): Promise<Conflict[]> {
  const conflicts: Conflict[] = [];
  const collided = new Set<string>();
  const moving = new Map<string, Row & { next: string }>();
  for await (const row of rowsOf(q, table)) {
    const form = canonicalEmail(row.email.trim());
    if (!form.ok)
      conflicts.push({
        row,
        canonical: null,
        reason: "refused",
        description: `the address is refused: it ${form.problem}`,
      });
    else if (form.canonical !== row.key) moving.set(row.id, { ...row, next: form.canonical });
  }
  // Rows that would share a key all stay; staying, a row holds its old key, which another row
  // might want: so again until no two rows of a scope want one key.
  for (let again = true; again;) {
    again = false;
    const wanted = new Map<string, Array<Row & { next: string }>>();
    for (const row of moving.values()) {
      const slot = `${row.scope}\u0000${row.next}`;
      wanted.set(slot, [...(wanted.get(slot) ?? []), row]);
    }
    for (const group of wanted.values()) {
      const { scope, next } = group[0];
      const holders = (
        (await q.query(`${selectRows(table)} AND ${table.scope} = $1 AND email_normalized = $2`, [
          scope,
          next,
        ])) as Row[]
      ).filter((r) => !moving.has(r.id));
      const sharing = [...group, ...holders];
      if (sharing.length < 2) continue;
      for (const row of group) moving.delete(row.id);
      for (const row of sharing) {
        // A row that stays may be met again in a later round: reported once.
        if (collided.has(row.id)) continue;
        collided.add(row.id);
        const others = sharing.filter((r) => r.id !== row.id).map((r) => r.id);
        conflicts.push({
          row,
          canonical: next,
          reason: "collision",
          description: `the canonical form is also that of ${others.join(", ")}`,
        });
      }
      again = true;
    }
  }
  await moveKeys(
    q,
    table.name,
    [...moving.values()].map((r) => ({ id: r.id, key: r.next })),
  );
  return conflicts;
}

function selectRows(table: Table): string {
  return `SELECT id, email, email_normalized AS key, ${table.scope} AS scope, ${table.project} AS project_id, ${table.organization} AS organization_id
          FROM ${table.name} WHERE ${table.where}`;
}

async function* rowsOf(q: QueryRunner, table: Table): AsyncGenerator<Row> {
  let after = "";
  for (;;) {
    const rows = (await q.query(`${selectRows(table)} AND id > $1 ORDER BY id LIMIT ${BATCH}`, [after])) as Row[];
    yield* rows;
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1].id;
  }
}

/**
 * Two steps, since a unique constraint is checked row by row: a key a row leaves may be the
 * one another row takes. First each moving row gets a key of its own (its id), then its new one.
 */
async function moveKeys(q: QueryRunner, table: string, moves: Array<{ id: string; key: string }>): Promise<void> {
  for (let i = 0; i < moves.length; i += BATCH) {
    const ids = moves.slice(i, i + BATCH).map((m) => m.id);
    await q.query(`UPDATE ${table} SET email_normalized = 'moving ' || id WHERE id = ANY($1::text[])`, [ids]);
  }
  for (let i = 0; i < moves.length; i += BATCH) {
    const batch = moves.slice(i, i + BATCH);
    await q.query(
      `UPDATE ${table} t SET email_normalized = m.key FROM unnest($1::text[], $2::text[]) AS m(id, key) WHERE t.id = m.id`,
      [batch.map((m) => m.id), batch.map((m) => m.key)],
    );
  }
}

async function report(q: QueryRunner, table: Table, conflicts: Conflict[]): Promise<void> {
  for (const c of conflicts) {
    await q.query(
      `INSERT INTO email_canonical_conflicts (table_name, row_id, project_id, organization_id, email, canonical, reason, description)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        table.name,
        c.row.id,
        c.row.project_id,
        c.row.organization_id,
        c.row.email,
        c.canonical,
        c.reason,
        c.description,
      ],
    );
  }
}

/**
 * A link's row keeps the address as typed: one whose key changes is withdrawn. Only an address
 * with a character beyond ASCII can change key (on ASCII both forms are trim + lower case).
 */
async function withdrawMagicLinks(q: QueryRunner): Promise<void> {
  const rows = (await q.query(
    `SELECT project_id, email_normalized AS key, email FROM magic_links WHERE octet_length(email) <> char_length(email)`,
  )) as Array<{ project_id: string; key: string; email: string }>;
  for (const row of rows.filter((r) => emailKey(r.email) !== r.key)) {
    await q.query(`DELETE FROM magic_links WHERE project_id = $1 AND email_normalized = $2`, [row.project_id, row.key]);
  }
}
