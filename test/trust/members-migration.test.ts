import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../src/crypto/tokens.js";
import { openDatabase, type Database } from "../../src/store/database.js";
import { MemberIdentities1733200000003 } from "../../src/store/migrations/1733200000003-member-identities.js";
import { MemberMfa1734400046000 } from "../../src/store/migrations/1734400046000-member-mfa.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

// The member identities migration on data (issue 13). Threats: an upgrade that loses a
// member's password or live tokens, or a revert that silently drops memberships.

const migration = new MemberIdentities1733200000003();
// The member second-factor tables (issue 46) reference member_identities: a revert takes them
// away first and an upgrade puts them back after, as TypeORM's revert and run would in order.
const later = new MemberMfa1734400046000();
let t: TestDatabase;
let db: Database;
const sql = (text: string, params: unknown[] = []) => db.dataSource.query(text, params);
const run = async (step: "up" | "down") => {
  const runner = db.dataSource.createQueryRunner();
  try {
    await runner.startTransaction();
    if (step === "down") {
      await later.down(runner);
      await migration.down(runner);
    } else {
      await migration.up(runner);
      await later.up(runner);
    }
    await runner.commitTransaction();
  } catch (error) {
    await runner.rollbackTransaction();
    throw error;
  } finally {
    await runner.release();
  }
};

beforeAll(async () => {
  t = await createTestDatabase();
  db = await openDatabase({ ...t, logger: pino({ level: "silent" }) });
});
afterAll(async () => {
  await db?.close();
  await t?.drop();
});

describe("1733200000003 member identities", () => {
  it("down refuses while an identity belongs to two organizations, then goes back to one email per member; up makes one identity per member, passwords and tokens kept", async () => {
    const [a, b] = [
      await db.repos.organizations.create({ name: "A" }),
      await db.repos.organizations.create({ name: "B" }),
    ];
    const identity = await db.repos.memberIdentities.create({
      email: "Both@Example.com",
      passwordHash: "$argon2id$both",
    });
    const inA = await db.repos.members.create(a.id, { identity, role: "admin" });
    const inB = await db.repos.members.create(b.id, { identity, role: "developer" });
    await expect(run("down")).rejects.toThrow("1 member identities belong to several organizations");

    await sql("DELETE FROM members WHERE id = $1", [inB.id]);
    await run("down");
    expect(await sql("SELECT id, email, email_normalized, password_hash, role FROM members")).toEqual([
      {
        id: inA.id,
        email: "Both@Example.com",
        email_normalized: "both@example.com",
        password_hash: "$argon2id$both",
        role: "admin",
      },
    ]);
    expect(
      await sql("SELECT to_regclass('member_identities') AS t, to_regclass('member_password_resets') AS r"),
    ).toEqual([{ t: null, r: null }]);

    // A member as the schema before had it, with a live management token.
    const legacyId = "mem_01jdq7c8w9x0y1z2a3b4c5d6e7";
    await sql(
      `INSERT INTO members (id, organization_id, email, email_normalized, role, password_hash, created_at)
       VALUES ($1, $2, 'Old@Example.com', 'old@example.com', 'developer', '$argon2id$old', now() - interval '1 day')`,
      [legacyId, b.id],
    );
    await sql(
      `INSERT INTO management_tokens (id, organization_id, member_id, token_hash, expires_at) VALUES ('mtk_legacy', $1, $2, $3, now() + interval '1 hour')`,
      [b.id, legacyId, hashToken("gmt_legacy")],
    );
    await run("up");

    const old = await db.repos.memberIdentities.findCredentialsByEmail("old@example.com");
    expect(old).toMatchObject({
      identity: { id: `mid_${legacyId.slice(4)}`, email: "Old@Example.com" },
      passwordHash: "$argon2id$old",
    });
    expect((await db.repos.memberIdentities.findCredentialsByEmail("both@example.com"))?.passwordHash).toBe(
      "$argon2id$both",
    );
    const token = await db.repos.managementTokens.findActive(hashToken("gmt_legacy"), new Date());
    expect(token).toMatchObject({
      id: "mtk_legacy",
      organizationId: b.id,
      member: { id: legacyId, email: "Old@Example.com", role: "developer" },
    });
    expect((await db.repos.members.listForIdentity(old!.identity.id)).map((m) => m.organizationName)).toEqual(["B"]);
    const columns = await sql(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'members' ORDER BY column_name`,
    );
    expect(columns.map((c: { column_name: string }) => c.column_name)).toEqual([
      "created_at",
      "id",
      "identity_id",
      "organization_id",
      "role",
    ]);
  });
});
