import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { hashToken, randomToken } from "../src/crypto/tokens.js";
import { openDatabase, runMigrationsOnly, type Database } from "../src/store/database.js";
import { UniqueViolation } from "../src/store/errors.js";
import { usersRepository } from "../src/store/repositories/users.js";
import { migrations } from "../src/store/migrations/index.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";

const logger = pino({ level: "silent" });
const onPostgres = Boolean(process.env.DATABASE_URL);
const HOUR = 3_600_000;

const projectInput = {
  name: "Shop",
  tokenExpiry: 3600,
  refreshTokenExpiry: 2_592_000,
  mfaRequired: false,
  sendVerification: true,
  allowedOrigins: ["https://shop.example"],
  redirectUrl: "https://shop.example/auth",
};

async function seedOrg(db: Database, email: string) {
  const org = await db.repos.organizations.create({ name: "Org" });
  const identity = await db.repos.memberIdentities.create({ email, passwordHash: "h" });
  const member = await db.repos.members.create(org.id, { identity, role: "admin" });
  return { org, member, identity };
}

describe("database lifecycle", () => {
  const created: TestDatabase[] = [];
  const fresh = async (opts?: { empty?: boolean }) => {
    const t = await createTestDatabase(opts);
    created.push(t);
    return t;
  };
  afterEach(async () => {
    for (const t of created.splice(0)) await t.drop();
  });

  it("applies the migrations to an empty database once; re-opening applies none", async () => {
    const t = await fresh({ empty: true });
    const db = await openDatabase({ ...t, logger });
    const tables = await db.dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
    );
    expect(tables.map((r: { table_name: string }) => r.table_name)).toEqual(
      expect.arrayContaining([
        "api_keys",
        "invitations",
        "management_tokens",
        "members",
        "migrations",
        "organizations",
        "projects",
      ]),
    );
    await db.close();

    expect(await runMigrationsOnly({ ...t, logger })).toEqual([]);
    const again = await openDatabase({ ...t, logger });
    expect(await again.dataSource.query(`SELECT name FROM migrations`)).toHaveLength(migrations.length);
    await again.close();
  });

  it.skipIf(onPostgres)("keeps PGlite data across close and re-open in the same dataDir", async () => {
    const t = await fresh();
    const db = await openDatabase({ ...t, logger });
    expect(db.kind).toBe("pglite");
    const { org, member } = await seedOrg(db, "keep@example.com");
    await db.close();

    const reopened = await openDatabase({ ...t, logger });
    expect((await reopened.repos.members.findByEmail(org.id, "keep@example.com"))?.id).toBe(member.id);
    await reopened.close();
  });

  // Regression guard: typeorm-pglite lost rows committed by interleaved transactions.
  it("commits two concurrent transactions, and both survive a re-open", async () => {
    const t = await fresh();
    const db = await openDatabase({ ...t, logger });
    const [a, b] = await Promise.all(
      ["a", "b"].map((name) =>
        db.transaction(async (repos) => {
          const org = await repos.organizations.create({ name });
          await new Promise((r) => setTimeout(r, 20));
          const identity = await repos.memberIdentities.create({ email: `${name}@example.com`, passwordHash: "h" });
          await repos.members.create(org.id, { identity, role: "admin" });
          return org;
        }),
      ),
    );
    await db.close();

    const reopened = await openDatabase({ ...t, logger });
    const rows = await reopened.dataSource.query(`SELECT id FROM organizations ORDER BY id`);
    expect(rows.map((r: { id: string }) => r.id).sort()).toEqual([a.id, b.id].sort());
    expect(await reopened.repos.memberIdentities.findByEmail("b@example.com")).not.toBeNull();
    await reopened.close();
  });

  it("rolls back a failed transaction entirely", async () => {
    const t = await fresh();
    const db = await openDatabase({ ...t, logger });
    await expect(
      db.transaction(async (repos) => {
        await repos.organizations.create({ name: "doomed" });
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await db.dataSource.query(`SELECT id FROM organizations`)).toEqual([]);
    await db.close();
  });
});

describe("repositories", () => {
  let t: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    t = await createTestDatabase();
    db = await openDatabase({ ...t, logger });
  });
  afterAll(async () => {
    await db?.close();
    await t?.drop();
  });

  it("ListUsers search answers what one ordered query would, through each of its paths, page after page", async () => {
    const { org } = await seedOrg(db, `search-${Date.now()}@example.com`);
    const project = await db.repos.projects.create(org.id, projectInput);
    // 300 users a second apart; "rare" appears only in old ones, "common" everywhere.
    await db.dataSource.query(
      `INSERT INTO users (id, organization_id, project_id, email, email_normalized, created_at, updated_at)
       SELECT 'usr_s' || lpad(n::text, 5, '0'), $1, $2, e, lower(e), ts, ts FROM generate_series(1, 300) AS n,
         LATERAL (SELECT (CASE WHEN n % 7 = 0 AND n < 200 THEN 'Rare' WHEN n % 2 = 0 THEN 'common' ELSE 'plain' END) || n || '@example.com' AS e,
                         now() - make_interval(secs => 300 - n) AS ts) AS x`,
      [org.id, project.id],
    );
    // Small windows, so every path runs: "common" fills a page in the probe; "plain29" finds 5
    // there, walks 80 rows, then needs the trigram index for plain29 itself; "rare" is found
    // only through the trigram index.
    const users = usersRepository(db.dataSource.manager, { now: () => new Date() }, { probeWindow: 25, maxWalk: 200 });
    const reference = async (term: string) =>
      (
        await db.dataSource.query<Array<{ id: string }>>(
          `SELECT id FROM users WHERE project_id = $1 AND email_normalized LIKE $2 ORDER BY created_at DESC, id DESC`,
          [project.id, `%${term}%`],
        )
      ).map((r) => r.id);
    for (const term of ["rare", "RARE1", "common", "plain2", "plain29", "@example.com", "nothing"]) {
      const expected = await reference(term.toLowerCase());
      const seen: string[] = [];
      let after: { createdAt: Date; id: string } | undefined;
      for (let pages = 0; pages < 100; pages++) {
        const page = await users.list(project.id, { limit: 7, after }, term);
        seen.push(...page.slice(0, 7).map((u) => u.id));
        if (page.length <= 7) break;
        const last = page[6];
        after = { createdAt: last.createdAt, id: last.id };
      }
      expect(seen, term).toEqual(expected);
    }
    expect((await reference("rare")).length).toBeGreaterThan(20);
  });

  it("keeps identity emails unique across case and spacing; one identity joins an organization once, and each organization sees only its members", async () => {
    const { org, member, identity } = await seedOrg(db, "Ada@Example.com");
    expect(member.email).toBe("Ada@Example.com");
    const dup = db.repos.memberIdentities.create({ email: " ada@EXAMPLE.com ", passwordHash: "h" });
    await expect(dup).rejects.toBeInstanceOf(UniqueViolation);
    await expect(dup).rejects.toMatchObject({ constraint: "member_identities_email_normalized_key" });

    const other = await db.repos.organizations.create({ name: "Other" });
    const elsewhere = await db.repos.members.create(other.id, { identity, role: "developer" });
    const twice = db.repos.members.create(other.id, { identity, role: "admin" });
    await expect(twice).rejects.toMatchObject({ constraint: "members_organization_identity_key" });
    expect(await db.repos.members.findByEmail(other.id, " ADA@example.com")).toEqual(elsewhere);
    expect(await db.repos.members.get(other.id, member.id)).toBeNull();
    expect((await db.repos.members.listForIdentity(identity.id)).map((m) => m.member.id).sort()).toEqual(
      [member.id, elsewhere.id].sort(),
    );
    expect(await db.repos.members.findByEmail(org.id, "nobody@example.com")).toBeNull();

    const creds = await db.repos.memberIdentities.findCredentialsByEmail("  ADA@example.COM");
    expect(creds).toEqual({ identity, passwordHash: "h" });
    expect(Object.keys(creds!.identity)).not.toContain("passwordHash");
    await db.repos.memberIdentities.updatePasswordHash(identity.id, "h2");
    expect((await db.repos.memberIdentities.findCredentialsByEmail("ada@example.com"))?.passwordHash).toBe("h2");
    expect(await db.repos.memberIdentities.findCredentialsByEmail("nobody@example.com")).toBeNull();
  });

  it("finds a management token only while it is unexpired", async () => {
    const { org, member } = await seedOrg(db, "tok@example.com");
    const now = new Date();
    const live = hashToken(randomToken("gh_mt"));
    const dead = hashToken(randomToken("gh_mt"));
    await db.repos.managementTokens.create(org.id, {
      memberId: member.id,
      tokenHash: live,
      expiresAt: new Date(now.getTime() + HOUR),
    });
    await db.repos.managementTokens.create(org.id, {
      memberId: member.id,
      tokenHash: dead,
      expiresAt: new Date(now.getTime() - 1),
    });

    const found = await db.repos.managementTokens.findActive(live, now);
    expect(found).toMatchObject({ organizationId: org.id, member });
    expect(found!.expiresAt.getTime()).toBe(now.getTime() + HOUR);
    expect(await db.repos.managementTokens.findActive(dead, now)).toBeNull();
    expect(await db.repos.managementTokens.findActive(live, new Date(now.getTime() + 2 * HOUR))).toBeNull();
    expect(await db.repos.managementTokens.findActive(hashToken("unknown"), now)).toBeNull();
  });

  it("never finds a project through another organization", async () => {
    const a = await db.repos.organizations.create({ name: "A" });
    const b = await db.repos.organizations.create({ name: "B" });
    const project = await db.repos.projects.create(a.id, projectInput);
    expect(project.id).toMatch(/^proj_/);
    expect(project.loginId).toMatch(/^lp_/);
    expect(await db.repos.projects.get(a.id, project.id)).toEqual(project);
    expect(await db.repos.projects.get(b.id, project.id)).toBeNull();
    expect(await db.repos.projects.delete(b.id, project.id)).toBe(false);
    // Not even a key of B can point at A's project: the composite foreign key refuses it.
    await expect(
      db.repos.apiKeys.create(b.id, {
        projectId: project.id,
        label: "x",
        kind: "secret",
        keyHash: hashToken("x"),
        keyHint: "x",
        scopes: [],
        expiresAt: null,
      }),
    ).rejects.toThrow();
  });

  it("finds an API key only while unrevoked, unexpired and its project exists", async () => {
    const org = await db.repos.organizations.create({ name: "Keys" });
    const other = await db.repos.organizations.create({ name: "Other" });
    const project = await db.repos.projects.create(org.id, projectInput);
    const now = new Date();
    const mk = async (label: string, expiresAt: Date | null) => {
      const raw = randomToken("gh_key");
      const key = await db.repos.apiKeys.create(org.id, {
        projectId: project.id,
        label,
        kind: "secret",
        keyHash: hashToken(raw),
        keyHint: raw.slice(0, 8),
        scopes: ["auth:read", "auth:write"],
        expiresAt,
      });
      return { key, hash: hashToken(raw) };
    };
    const live = await mk("live", null);
    const later = await mk("later", new Date(now.getTime() + HOUR));
    const expired = await mk("expired", new Date(now.getTime() - 1));
    const revoked = await mk("revoked", null);

    const found = await db.repos.apiKeys.findActive(live.hash, now);
    expect(found?.apiKey).toEqual(live.key);
    expect(found?.project).toEqual(project);
    expect(await db.repos.apiKeys.findActive(later.hash, now)).not.toBeNull();
    expect(await db.repos.apiKeys.findActive(expired.hash, now)).toBeNull();

    expect(await db.repos.apiKeys.revokeActive(other.id, revoked.key.id, now)).toBe(false);
    expect(await db.repos.apiKeys.findActive(revoked.hash, now)).not.toBeNull();
    expect(await db.repos.apiKeys.revokeActive(org.id, revoked.key.id, now)).toBe(true);
    // A second revoke changes nothing: the key keeps its first revocation time.
    expect(await db.repos.apiKeys.revokeActive(org.id, revoked.key.id, new Date(now.getTime() + 1000))).toBe(false);
    const [row] = await db.dataSource.query(`SELECT revoked_at FROM api_keys WHERE id = $1`, [revoked.key.id]);
    expect(new Date(row.revoked_at).getTime()).toBe(now.getTime());
    expect(await db.repos.apiKeys.findActive(revoked.hash, now)).toBeNull();

    expect(await db.repos.projects.delete(org.id, project.id)).toBe(true);
    expect(await db.repos.apiKeys.findActive(live.hash, now)).toBeNull();
    const left = await db.dataSource.query(`SELECT count(*)::int AS n FROM api_keys WHERE project_id = $1`, [
      project.id,
    ]);
    expect(left[0].n).toBe(0);
  });

  it("consumes an invitation once", async () => {
    const { org, member } = await seedOrg(db, "inviter@example.com");
    const tokenHash = hashToken(randomToken("gh_inv"));
    const now = new Date();
    await db.repos.invitations.replacePending(org.id, {
      email: "New@Example.com",
      role: "developer",
      tokenHash,
      invitedBy: member.id,
      expiresAt: new Date(now.getTime() + HOUR),
    });
    const [x, y] = await Promise.all([
      db.repos.invitations.consume(tokenHash, now),
      db.repos.invitations.consume(tokenHash, now),
    ]);
    expect([x, y].filter(Boolean)).toHaveLength(1);
    expect((x ?? y)?.acceptedAt?.getTime()).toBe(now.getTime());
  });
});
