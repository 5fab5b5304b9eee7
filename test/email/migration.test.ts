import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/store/database.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { runCommand } from "../cli/helpers.js";
import { migrationsThrough, withMigrationSource } from "../helpers/migration-source.js";
import { longTest } from "../helpers/patience.js";

// Threat: rows stored under the old key (trim + toLowerCase) that the canonical form would merge
// into one account, or a look-alike left silently holding a real address's key. The migration
// gives every row its canonical key except those the rule refuses and those that would share a
// key in their scope: those keep theirs, are written to email_canonical_conflicts, counted in a
// warning, and listed by `gatehouse email-conflicts`. Nothing is merged.

const PREVIOUS = "SendAndSessionSettings1733600000000";
const old = (email: string) => email.trim().toLowerCase();

/** A database migrated up to and including PREVIOUS, with rows written as the old code wrote them. */
async function databaseBeforeTheRule(
  t: TestDatabase,
  rows: (sql: (text: string, params?: unknown[]) => Promise<unknown>) => Promise<void>,
): Promise<void> {
  await withMigrationSource(t, migrationsThrough(PREVIOUS), async (dataSource) => {
    await dataSource.runMigrations({ transaction: "each" });
    await rows((text, params = []) => dataSource.query(text, params));
  });
}

describe("the email canonical-form migration", () => {
  const created: TestDatabase[] = [];
  afterEach(async () => {
    for (const t of created.splice(0)) await t.drop();
  });

  it(
    "rekeys what it can, keeps and reports refused and colliding rows, and the CLI lists them",
    { timeout: longTest(4) },
    async () => {
      const t = await createTestDatabase({ empty: true });
      created.push(t);
      await databaseBeforeTheRule(t, async (sql) => {
        await sql(`INSERT INTO organizations (id, name) VALUES ('org_a', 'A'), ('org_b', 'B')`);
        for (const [project, org, login] of [
          ["proj_1", "org_a", "lp_1"],
          ["proj_2", "org_b", "lp_2"],
        ]) {
          await sql(`INSERT INTO issued_login_ids (login_id, project_id) VALUES ($1, $2)`, [login, project]);
          await sql(
            `INSERT INTO projects (id, organization_id, login_id, name, redirect_url) VALUES ($1, $2, $3, 'P', 'https://app.example.com/cb')`,
            [project, org, login],
          );
        }
        const user = (id: string, project: string, email: string | null, phone: string | null = null) =>
          sql(
            `INSERT INTO users (id, organization_id, project_id, email, email_normalized, phone) VALUES ($1, $2, $3, $4, $5, $6)`,
            [id, project === "proj_1" ? "org_a" : "org_b", project, email, email === null ? null : old(email), phone],
          );
        await user("usr_plain", "proj_1", "Kate@X.test");
        await user("usr_kelvin", "proj_1", "\u212Aim@k.test"); // old key kim@k.test, a real address's
        await user("usr_idn_unicode", "proj_1", "ana@Bücher.example");
        await user("usr_idn_ascii", "proj_1", "ana@xn--bcher-kva.example");
        await user("usr_idn_alone", "proj_1", "Bo@Straße.de");
        await user("usr_dots", "proj_1", "a..b@x.test");
        await user("usr_phone", "proj_1", null, "+15550000001");
        await user("usr_other_project", "proj_2", "ana@bücher.example");
        const identity = (id: string, email: string) =>
          sql(`INSERT INTO member_identities (id, email, email_normalized, password_hash) VALUES ($1, $2, $3, 'h')`, [
            id,
            email,
            old(email),
          ]);
        await identity("mid_unicode", "ops@BÜCHER.example");
        await identity("mid_ascii", "ops@xn--bcher-kva.example");
        await identity("mid_fullwidth", "\uff4fps@x.test");
        const invitation = (id: string, org: string, email: string, accepted: boolean) =>
          sql(
            `INSERT INTO invitations (id, organization_id, email, email_normalized, role, token_hash, expires_at, accepted_at) VALUES ($1, $2, $3, $4, 'developer', $1, now() + interval '1 day', $5)`,
            [id, org, email, old(email), accepted ? new Date() : null],
          );
        await invitation("inv_pending", "org_a", "dev@bücher.example", false);
        await invitation("inv_accepted", "org_a", "\u212Aev@x.test", true);
        const link = (email: string) =>
          sql(
            `INSERT INTO magic_links (project_id, email_normalized, email, token_hash, sent_at, expires_at) VALUES ('proj_1', $1, $2, $3, now(), now() + interval '15 minutes')`,
            [old(email), email, `hash ${email}`],
          );
        await link("\u212Aate@x.test");
        await link("plain@x.test");
        for (const [channel, destination] of [
          ["email", "kate@x.test"],
          ["sms", "+15550000001"],
        ]) {
          await sql(
            `INSERT INTO otp_codes (project_id, channel, destination, code_hmac, sent_at, expires_at) VALUES ('proj_1', $1, $2, 'x', now(), now() + interval '10 minutes')`,
            [channel, destination],
          );
        }
      });

      // The operator's `migrate`: the warning counts, and names no address.
      const env = { DATA_DIR: t.dataDir, DATABASE_URL: t.databaseUrl, PUBLIC_URL: "https://gatehouse.example.com" };
      const migrated = await runCommand(["migrate", "--json"], env);
      expect({ code: migrated.code, stdout: JSON.parse(migrated.stdout) }).toEqual({
        code: 0,
        stdout: { applied: expect.arrayContaining(["EmailCanonicalForm1733600000001"]) },
      });
      expect(migrated.stderr).toContain(
        "email canonical form: some stored addresses keep their old key (users: 2 refused, users: 2 collision, member_identities: 1 refused, member_identities: 2 collision)",
      );
      expect(migrated.stderr).not.toMatch(/bücher|xn--|@x\.test/i);

      const db = await openDatabase({ ...t, logger: pino({ level: "silent" }) });
      try {
        const keys = Object.fromEntries(
          (
            await db.dataSource.query(
              `SELECT id, email_normalized FROM users UNION ALL SELECT id, email_normalized FROM member_identities UNION ALL SELECT id, email_normalized FROM invitations`,
            )
          ).map((r: { id: string; email_normalized: string | null }) => [r.id, r.email_normalized]),
        );
        expect(keys).toEqual({
          usr_plain: "kate@x.test",
          usr_kelvin: "kim@k.test", // refused: kept, reported
          usr_idn_unicode: "ana@bücher.example", // would collide: kept, reported
          usr_idn_ascii: "ana@xn--bcher-kva.example",
          usr_idn_alone: "bo@xn--strae-oqa.de",
          usr_dots: "a..b@x.test",
          usr_phone: null,
          usr_other_project: "ana@xn--bcher-kva.example", // another project: no collision
          mid_unicode: "ops@bücher.example",
          mid_ascii: "ops@xn--bcher-kva.example",
          mid_fullwidth: "\uff4fps@x.test",
          inv_pending: "dev@xn--bcher-kva.example",
          inv_accepted: "\u212Aev@x.test".toLowerCase(), // history: untouched
        });
        const conflicts = await db.dataSource.query(
          `SELECT table_name, row_id, project_id, organization_id, email, canonical, reason, description FROM email_canonical_conflicts ORDER BY table_name DESC, row_id`,
        );
        expect(conflicts).toEqual([
          {
            table_name: "users",
            row_id: "usr_dots",
            project_id: "proj_1",
            organization_id: "org_a",
            email: "a..b@x.test",
            canonical: null,
            reason: "refused",
            description: expect.stringMatching(/^the address is refused: it must have before the @ only/),
          },
          {
            table_name: "users",
            row_id: "usr_idn_ascii",
            project_id: "proj_1",
            organization_id: "org_a",
            email: "ana@xn--bcher-kva.example",
            canonical: "ana@xn--bcher-kva.example",
            reason: "collision",
            description: "the canonical form is also that of usr_idn_unicode",
          },
          {
            table_name: "users",
            row_id: "usr_idn_unicode",
            project_id: "proj_1",
            organization_id: "org_a",
            email: "ana@Bücher.example",
            canonical: "ana@xn--bcher-kva.example",
            reason: "collision",
            description: "the canonical form is also that of usr_idn_ascii",
          },
          {
            table_name: "users",
            row_id: "usr_kelvin",
            project_id: "proj_1",
            organization_id: "org_a",
            email: "\u212Aim@k.test",
            canonical: null,
            reason: "refused",
            description: expect.stringContaining("U+212A"),
          },
          {
            table_name: "member_identities",
            row_id: "mid_ascii",
            project_id: null,
            organization_id: null,
            email: "ops@xn--bcher-kva.example",
            canonical: "ops@xn--bcher-kva.example",
            reason: "collision",
            description: "the canonical form is also that of mid_unicode",
          },
          {
            table_name: "member_identities",
            row_id: "mid_fullwidth",
            project_id: null,
            organization_id: null,
            email: "\uff4fps@x.test",
            canonical: null,
            reason: "refused",
            description: expect.stringContaining("U+FF4F"),
          },
          {
            table_name: "member_identities",
            row_id: "mid_unicode",
            project_id: null,
            organization_id: null,
            email: "ops@BÜCHER.example",
            canonical: "ops@xn--bcher-kva.example",
            reason: "collision",
            description: "the canonical form is also that of mid_ascii",
          },
        ]);
        // In-flight email codes are withdrawn; SMS codes and links whose key stands stay.
        expect(await db.dataSource.query(`SELECT channel FROM otp_codes`)).toEqual([{ channel: "sms" }]);
        expect(await db.dataSource.query(`SELECT email FROM magic_links`)).toEqual([{ email: "plain@x.test" }]);
        // The rekeyed rows are found by every spelling of their address; the look-alike by none of kim's.
        expect((await db.repos.users.findCredentials("proj_1", "BO@xn--STRAE-OQA.de"))?.user.id).toBe("usr_idn_alone");
        expect((await db.repos.users.findCredentials("proj_2", "ana@BÜCHER.example"))?.user.id).toBe(
          "usr_other_project",
        );
        expect(await db.repos.users.findCredentials("proj_1", "\u212Aim@k.test")).toBeNull();
        // Resolving one: the row's address changes (or it goes); the list says so.
        await db.repos.users.update("proj_1", "usr_dots", { email: "a.b@x.test" });
      } finally {
        await db.close();
      }

      const listed = await runCommand(["email-conflicts", "--json"], env);
      expect({ code: listed.code, stderr: listed.stderr }).toEqual({ code: 0, stderr: "" });
      const data = JSON.parse(listed.stdout).data as Array<Record<string, unknown>>;
      expect(data).toHaveLength(7);
      expect(data.find((c) => c.row_id === "usr_kelvin")).toEqual({
        id: expect.any(Number),
        table: "users",
        row_id: "usr_kelvin",
        project_id: "proj_1",
        organization_id: "org_a",
        email: "\u212Aim@k.test",
        canonical: null,
        reason: "refused",
        description: expect.stringContaining("U+212A"),
        found_at: expect.any(String),
        resolved: false,
      });
      expect(data.find((c) => c.row_id === "usr_dots")).toMatchObject({ resolved: true });

      const open = await runCommand(["email-conflicts", "--open"], env);
      expect(open.code).toBe(0);
      const lines = open.stdout.trim().split("\n");
      expect(lines).toHaveLength(6);
      // A look-alike shows as its code point, not as the letter it mimics.
      expect(lines.find((l) => l.includes("usr_kelvin"))).toMatch(
        /^refused {2}users usr_kelvin {2}project proj_1 {2}"\\u212aim@k\.test" {2}the address is refused/,
      );
      expect(lines.find((l) => l.includes("usr_idn_unicode"))).toContain(
        `-> ana@xn--bcher-kva.example  the canonical form is also that of usr_idn_ascii`,
      );
    },
  );
});
