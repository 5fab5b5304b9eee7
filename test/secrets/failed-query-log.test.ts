import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { captureLog, type CapturedLog } from "./log-capture.js";

// A write that fails must not carry what it was writing into the log: TypeORM's error keeps the
// statement's parameter values (here an email and an argon2 hash), pg's the row's values in
// `detail`. Both are forced here by a trigger that refuses new users, naming the row as
// PostgreSQL's own unique-violation detail would.

describe("a failed write's log lines", () => {
  let server: TestServer;
  let app: AuthFixture;
  let log: CapturedLog;

  beforeAll(async () => {
    log = captureLog("trace");
    server = await startTestServer({}, undefined, { logger: log.logger });
    app = await authFixture(server);
  });
  afterAll(() => server?.stop());

  it("name the failure and the request, never the parameter values or the row's values", async () => {
    const sql = (text: string) => server.deps.db.dataSource.query(text);
    await sql(`CREATE FUNCTION refuse_users() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'users are refused for this test' USING DETAIL = 'Key (email)=(' || NEW.email || ') refused', ERRCODE = 'P0001'; END $$`);
    await sql(`CREATE TRIGGER refuse_users BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION refuse_users()`);
    const email = `failing-write-${Date.now()}@example.com`;
    let answer;
    try {
      answer = await app.call("POST", "/v1/auth/signup", { email, password: "a sturdy passphrase 1" });
    } finally {
      await sql(`DROP TRIGGER refuse_users ON users`);
      await sql(`DROP FUNCTION refuse_users()`);
    }
    expect(answer.status).toBe(500);
    expect(answer.body.reason).toBe("INTERNAL_ERROR");
    await new Promise((r) => setTimeout(r, 100));

    const lines = log.lines().filter((line) => line.request_id === answer.headers.get("x-request-id"));
    const failed = lines.find((line) => line.msg === "unexpected error") as
      { err: Record<string, unknown> } | undefined;
    // What an operator needs is there: the error, its SQLSTATE, the statement.
    expect(failed?.err).toMatchObject({
      message: "users are refused for this test",
      code: "P0001",
      query: expect.stringMatching(/INSERT INTO "?users"? /),
    });
    expect(lines.map((line) => line.msg)).toContain("sql failed");
    // What was written is not: no email, no argon2 hash, no parameters or detail anywhere.
    const text = log.text();
    expect(text).not.toContain(email);
    expect(text).not.toMatch(/\$argon2id\$/);
    expect(text).not.toMatch(/"parameters"|"detail"/);
  });
});
