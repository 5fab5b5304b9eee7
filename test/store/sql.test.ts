import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/store/database.js";
import { entities } from "../../src/store/entities/index.js";
import { UserEntity } from "../../src/store/entities/user.entity.js";
import { USER, USER_CREDENTIALS } from "../../src/store/repositories/user-rows.js";
import {
  bool,
  entityColumns,
  int,
  joinSql,
  nullable,
  oneOf,
  raw,
  row,
  RowShapeError,
  sql,
  statements,
  text,
  textArray,
  timestamp,
} from "../../src/store/sql/index.js";
import { openTestDatabase } from "../helpers/database.js";

describe("sql statements", () => {
  it("number their parameters, nested fragments included, in order of appearance", () => {
    const after = { createdAt: new Date(0), id: "s_1" };
    const page = sql` AND (created_at, id) < (${after.createdAt}, ${after.id})`;
    const { text: statement, params } =
      sql`SELECT ${raw("id, user_id")} FROM sessions WHERE project_id = ${"p_1"}${page} LIMIT ${11}`.compile();
    expect(statement).toBe(
      "SELECT id, user_id FROM sessions WHERE project_id = $1 AND (created_at, id) < ($2, $3) LIMIT $4",
    );
    expect(params).toEqual(["p_1", new Date(0), "s_1", 11]);
  });

  it("join fragments with a separator and keep each one's parameters", () => {
    const sets = joinSql([sql`name = ${"a"}`, sql`email = ${"b"}`], ", ");
    expect(sql`UPDATE users SET ${sets} WHERE id = ${"u"}`.compile()).toEqual({
      text: "UPDATE users SET name = $1, email = $2 WHERE id = $3",
      params: ["a", "b", "u"],
    });
    expect(joinSql([], ", ").compile()).toEqual({ text: "", params: [] });
  });

  it("never splice a value into the text, whatever it holds", () => {
    const { text: statement, params } = sql`SELECT 1 WHERE x = ${"'; DROP TABLE users; --"}`.compile();
    expect(statement).toBe("SELECT 1 WHERE x = $1");
    expect(params).toEqual(["'; DROP TABLE users; --"]);
  });
});

describe("row decoders", () => {
  const session = row({
    id: text,
    amr: textArray,
    revoked_at: nullable(timestamp),
    count: int,
    live: bool,
    kind: oneOf("a", "b"),
  });

  it("pass through what matches and convert int8 text to numbers", () => {
    const at = new Date();
    expect(session({ id: "s", amr: ["pwd"], revoked_at: null, count: "42", live: true, kind: "a", extra: 1 })).toEqual({
      id: "s",
      amr: ["pwd"],
      revoked_at: null,
      count: 42,
      live: true,
      kind: "a",
    });
    expect(session({ id: "s", amr: [], revoked_at: at, count: 1, live: false, kind: "b" }).revoked_at).toBe(at);
  });

  it("refuse a missing column, a wrong type and a value outside the set, naming the column", () => {
    expect(() => session({ amr: [], revoked_at: null, count: 1, live: true, kind: "a" })).toThrow(
      new RowShapeError("column id: missing from the row"),
    );
    expect(() => session({ id: 1, amr: [], revoked_at: null, count: 1, live: true, kind: "a" })).toThrow(
      "column id: expected text, got number",
    );
    expect(() => session({ id: "s", amr: [1], revoked_at: null, count: 1, live: true, kind: "a" })).toThrow(
      "column amr: expected text[]",
    );
    expect(() => session({ id: "s", amr: [], revoked_at: null, count: "1.5", live: true, kind: "a" })).toThrow(
      "column count: expected integer",
    );
    expect(() => session({ id: "s", amr: [], revoked_at: null, count: 1, live: true, kind: "c" })).toThrow(
      "column kind: expected a | b",
    );
  });
});

describe("statements on a database", () => {
  let opened: Awaited<ReturnType<typeof openTestDatabase>>;
  let db: Database;
  beforeAll(async () => {
    opened = await openTestDatabase();
    db = opened.db;
  });
  afterAll(async () => {
    await opened?.close();
  });

  const numbered = row({ n: int, at: timestamp });

  it("decode rows, answer the first or null, and count what a write changed", async () => {
    const run = statements(db.dataSource.manager);
    const rows = await run.rows(sql`SELECT n, now() AS at FROM generate_series(1, ${3}::int) AS n`, numbered);
    expect(rows.map((r) => r.n)).toEqual([1, 2, 3]);
    expect(rows[0].at).toBeInstanceOf(Date);
    expect(await run.first(sql`SELECT 7 AS n, now() AS at WHERE ${false}`, numbered)).toBeNull();
    await run.execute(sql`CREATE TEMP TABLE numbers (n int)`);
    expect(await run.affected(sql`INSERT INTO numbers SELECT generate_series(1, ${4}::int)`)).toBe(4);
    expect(await run.affected(sql`UPDATE numbers SET n = n + 1 WHERE n > ${2}`)).toBe(2);
    expect(await run.affected(sql`DELETE FROM numbers WHERE n < ${3}`)).toBe(2);
  });

  it("join the transaction of the manager they are given", async () => {
    await expect(
      db.dataSource.transaction(async (manager) => {
        const run = statements(manager);
        await run.execute(sql`CREATE TABLE rolled_back (n int)`);
        expect(await run.affected(sql`INSERT INTO rolled_back VALUES (${1})`)).toBe(1);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    const exists = row({ present: bool });
    expect(
      await statements(db.dataSource.manager).first(
        sql`SELECT to_regclass('rolled_back') IS NOT NULL AS present`,
        exists,
      ),
    ).toEqual({ present: false });
  });

  it("fail loudly when a row does not have the shape the code expects", async () => {
    await expect(statements(db.dataSource.manager).rows(sql`SELECT 'x' AS n, now() AS at`, numbered)).rejects.toThrow(
      "column n: expected integer",
    );
  });
});

describe("columns derived from an entity", () => {
  let opened: Awaited<ReturnType<typeof openTestDatabase>>;
  let db: Database;
  beforeAll(async () => {
    opened = await openTestDatabase();
    db = opened.db;
  });
  afterAll(async () => {
    await opened?.close();
  });

  it("name every column of the entity as its property, minus those left out", () => {
    const { list, names } = USER.on(db.dataSource.manager);
    expect(list.compile().text).toBe(
      [
        "id",
        'organization_id AS "organizationId"',
        'project_id AS "projectId"',
        "email",
        'email_verified AS "emailVerified"',
        "phone",
        'phone_verified AS "phoneVerified"',
        "metadata",
        "disabled",
        'created_at AS "createdAt"',
        'updated_at AS "updatedAt"',
        'last_login_at AS "lastLoginAt"',
        'mfa_methods AS "mfaMethods"',
        'app_metadata AS "appMetadata"',
        'new_email AS "newEmail"',
        'new_email_expires_at AS "newEmailExpiresAt"',
        "locale",
      ].join(", "),
    );
    expect(names.emailVerified).toBe("email_verified");
    expect(Object.keys(names)).not.toContain("passwordHash");
    expect(USER_CREDENTIALS.on(db.dataSource.manager).names.passwordHash).toBe("password_hash");
    expect(USER.on(db.dataSource.manager).qualified("u").compile().text).toMatch(
      /^u\.id AS "id", u\.organization_id AS/,
    );
  });

  it("are derived once per data source, not per repository or call", () => {
    const first = USER.on(db.dataSource.manager);
    expect(USER.on(db.dataSource.manager)).toBe(first);
    expect(USER.on(db.dataSource.createEntityManager())).toBe(first);
  });

  it("read two entities of one row apart when joined under aliases, and keep each alias's list", () => {
    const columns = USER.on(db.dataSource.manager);
    const u = columns.joined("u");
    expect(columns.joined("u")).toBe(u);
    expect(columns.qualified("u")).toBe(columns.qualified("u"));
    expect(u.list.compile().text).toMatch(/^u\.id AS "u\.id", u\.organization_id AS "u\.organizationId"/);
    const at = new Date("2026-01-02T03:04:05Z");
    const stored = {
      id: "u1",
      organizationId: "o1",
      projectId: "p1",
      email: null,
      emailVerified: false,
      phone: null,
      phoneVerified: false,
      metadata: {},
      disabled: false,
      createdAt: at,
      updatedAt: at,
      lastLoginAt: null,
      mfaMethods: [],
      appMetadata: {},
      newEmail: null,
      newEmailExpiresAt: null,
      locale: "en",
    };
    // Another table's columns under their own alias share the row without being read.
    const row = { ...Object.fromEntries(Object.entries(stored).map(([k, v]) => [`u.${k}`, v])), id: "other" };
    expect(u.decode(row)).toEqual(stored);
    expect(() => u.decode({ ...row, "u.createdAt": "never" })).toThrow(/column u\.createdAt: expected timestamp/);
    expect(() => u.decode(stored)).toThrow(/column u\.id: missing from the row/);
  });

  it("decode a row of the table and refuse one that does not match, naming the column", async () => {
    const columns = USER.on(db.dataSource.manager);
    const at = new Date("2026-01-02T03:04:05Z");
    const stored = {
      id: "u1",
      organizationId: "o1",
      projectId: "p1",
      email: null,
      emailVerified: false,
      phone: "+15550100",
      phoneVerified: true,
      metadata: { a: 1 },
      disabled: false,
      createdAt: at,
      updatedAt: at,
      lastLoginAt: null,
      mfaMethods: ["totp"],
      appMetadata: {},
      newEmail: null,
      newEmailExpiresAt: null,
      locale: "",
    };
    expect(columns.decode({ ...stored, extra: 1 })).toEqual(stored);
    expect(() => columns.decode({ ...stored, metadata: [] })).toThrow("column metadata: expected json object");
    expect(() => columns.decode({ ...stored, email: 3 })).toThrow("column email: expected text, got number");
    expect(() => columns.decode({ ...stored, mfaMethods: null })).toThrow("column mfaMethods: expected text[]");
    const { locale: _, ...withoutLocale } = stored;
    expect(() => columns.decode(withoutLocale)).toThrow(new RowShapeError("column locale: missing from the row"));
    // Against the table itself: what the database answers for the list decodes.
    const run = statements(db.dataSource.manager);
    expect(await run.rows(sql`SELECT ${columns.list} FROM users LIMIT 1`, columns.decode)).toEqual([]);
  });

  it("exist for every entity: each column type has a decoder", () => {
    for (const entity of entities) {
      const columns = entityColumns(entity).on(db.dataSource.manager);
      expect(columns.list.compile().text.length).toBeGreaterThan(0);
    }
  });

  it("write a row with the entity's column names, jsonb as JSON text", () => {
    const insert = entityColumns(UserEntity, { omit: ["passwordHash"] }).on(db.dataSource.manager);
    const { text: statement, params } = insert
      .insert({
        id: "u1",
        organizationId: "o1",
        projectId: "p1",
        email: "a@example.com",
        emailNormalized: "a@example.com",
        emailVerified: false,
        phone: null,
        phoneVerified: false,
        metadata: { tags: ["x"] },
        disabled: false,
        createdAt: new Date(0),
        updatedAt: new Date(0),
        lastLoginAt: null,
        mfaMethods: ["totp"],
        appMetadata: {},
        newEmail: null,
        newEmailExpiresAt: null,
        locale: "",
      })
      .compile();
    expect(statement).toMatch(
      /^INSERT INTO users \(id, organization_id, project_id, email, email_normalized, email_verified, /,
    );
    expect(params[8]).toBe('{"tags":["x"]}');
    expect(params[13]).toEqual(["totp"]);
  });
});
