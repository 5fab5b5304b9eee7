import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grpcCall, grpcClient } from "../helpers/clients.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { authFixture, type AuthFixture } from "./helpers.js";

// Threat: an admin view that leaks or edits more than it should (another project's users,
// a user disabling itself or editing others), or a delete that leaves live credentials.

const PASSWORD = "a sturdy passphrase 1";
let seq = 0;
const unique = () => `${Date.now().toString(36)}${(++seq).toString(36)}`;

describe("user administration", () => {
  let server: TestServer;
  let app: AuthFixture;
  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
  });
  afterAll(() => server?.stop());

  const sql = (text: string, params: unknown[]) => server.deps.db.dataSource.query<any[]>(text, params);

  it("ListUsers pages newest first by cursor, filters by a case-insensitive substring, and binds cursors to the filter", async () => {
    const tag = `lst${unique()}`;
    const emails = [`a-${tag}@example.com`, `b-${tag}@example.com`, `c-${tag}@example.com`];
    const ids: string[] = [];
    for (const email of emails) {
      ids.push((await app.signup(email)).body.user.id);
      await new Promise((r) => setTimeout(r, 5)); // distinct created_at: "newest first" is then unambiguous
    }
    await app.signup(`other-${unique()}@example.com`);

    const first = await app.call("GET", `/v1/auth/users?limit=2&search=${tag.toUpperCase()}`);
    expect(first.status).toBe(200);
    expect(first.body.data.map((u: any) => u.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.has_more).toBe(true);
    expect(first.body.next_cursor).toMatch(/^cur_/);
    expect(first.body.data[0]).toMatchObject({
      email: emails[2],
      email_verified: false,
      metadata: {},
      disabled: false,
      mfa_enabled: false,
      mfa_methods: [],
    });
    expect(first.body.data[0]).not.toHaveProperty("password_hash");

    const second = await app.call("GET", `/v1/auth/users?limit=2&search=${tag}&cursor=${first.body.next_cursor}`);
    expect(second.status).toBe(200);
    expect(second.body.data.map((u: any) => u.id)).toEqual([ids[0]]);
    expect(second.body).toMatchObject({ has_more: false, next_cursor: "" });

    const otherFilter = await app.call("GET", `/v1/auth/users?limit=2&search=zzz&cursor=${first.body.next_cursor}`);
    expect(otherFilter.status).toBe(400);
    expect(otherFilter.body.reason).toBe("INVALID_CURSOR");

    const all = await app.call("GET", "/v1/auth/users?limit=100");
    expect(all.body.data.length).toBeGreaterThanOrEqual(4);

    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "ListUsers",
      { limit: 5, search: `B-${tag}` },
      { "x-service-key": app.key },
    );
    expect(viaGrpc.error).toBeUndefined();
    expect(viaGrpc.response.data.map((u: any) => u.id)).toEqual([ids[1]]);
    expect(viaGrpc.response.has_more).toBe(false);
  });

  it("ListUsers filters by disabled, email_verified and mfa_enabled, with the search, and binds cursors to the filters", async () => {
    const tag = `flt${unique()}`;
    const plain = (await app.signup(`plain-${tag}@example.com`)).body.user;
    const verified = await app.call("POST", "/v1/auth/users", {
      email: `verified-${tag}@example.com`,
      email_verified: true,
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    const locked = (await app.signup(`locked-${tag}@example.com`)).body.user;
    expect((await app.call("PATCH", `/v1/auth/users/${locked.id}`, { disabled: true })).status).toBe(200);
    const guarded = await app.signup(`guarded-${tag}@example.com`);
    const start = await app.call("POST", "/v1/auth/mfa/enroll", { method: "totp" }, guarded.body.access_token);
    const secret = new URL(start.body.totp_uri).searchParams.get("secret")!;
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) });
    const enrolled = await app.call("POST", "/v1/auth/mfa/verify", { code }, guarded.body.access_token);
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(200);

    const ids = async (query: string) => {
      const res = await app.call("GET", `/v1/auth/users?search=${tag}&${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.map((u: any) => u.email.split("-")[0]).sort();
    };
    expect(await ids("disabled=true")).toEqual(["locked"]);
    expect(await ids("disabled=false")).toEqual(["guarded", "plain", "verified"]);
    expect(await ids("email_verified=true")).toEqual(["verified"]);
    expect(await ids("mfa_enabled=true")).toEqual(["guarded"]);
    expect(await ids("mfa_enabled=false&disabled=false&email_verified=false")).toEqual(["plain"]);
    expect(plain.id).toMatch(/^usr_/);

    const first = await app.call("GET", `/v1/auth/users?search=${tag}&disabled=false&limit=1`);
    expect(first.body.has_more).toBe(true);
    const next = await app.call(
      "GET",
      `/v1/auth/users?search=${tag}&disabled=false&limit=1&cursor=${first.body.next_cursor}`,
    );
    expect(next.status).toBe(200);
    const otherFilter = await app.call(
      "GET",
      `/v1/auth/users?search=${tag}&disabled=true&limit=1&cursor=${first.body.next_cursor}`,
    );
    expect(otherFilter.status).toBe(400);
    expect(otherFilter.body.reason).toBe("INVALID_CURSOR");

    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "ListUsers",
      { search: tag, mfa_enabled: true },
      { "x-service-key": app.key },
    );
    expect(viaGrpc.error).toBeUndefined();
    expect(viaGrpc.response.data.map((u: any) => u.id)).toEqual([guarded.body.user.id]);
  });

  it("search treats % and _ literally", async () => {
    const tag = unique();
    const underscored = (await app.signup(`under_score${tag}@example.com`)).body.user.id;
    await app.signup(`underXscore${tag}@example.com`);
    const res = await app.call("GET", `/v1/auth/users?search=${encodeURIComponent(`under_score${tag}`)}`);
    expect(res.body.data.map((u: any) => u.id)).toEqual([underscored]);
    const percent = await app.call("GET", `/v1/auth/users?search=${encodeURIComponent(`under%${tag}`)}`);
    expect(percent.status).toBe(200);
    expect(percent.body.data).toEqual([]);
  });

  it("GetUser answers the user flat; unknown or malformed ids are USER_NOT_FOUND", async () => {
    const { body } = await app.signup();
    const res = await app.call("GET", `/v1/auth/users/${body.user.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: body.user.id, email: body.user.email, email_verified: false, metadata: {} });
    expect(res.body.last_login_at).toBeTruthy();
    for (const id of ["usr_00000000000000000000000000", "not-an-id", "usr_%27%20OR%201=1"]) {
      const missing = await app.call("GET", `/v1/auth/users/${id}`);
      expect(missing.status, id).toBe(404);
      expect(missing.body.reason).toBe("USER_NOT_FOUND");
    }
    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "GetUser",
      { id: body.user.id },
      { "x-service-key": app.key },
    );
    expect(viaGrpc.response).toMatchObject({ id: body.user.id, email: body.user.email });
    const missing = await grpcCall(
      grpcClient(server.port, "auth"),
      "GetUser",
      { id: "usr_00000000000000000000000000" },
      { "x-service-key": app.key },
    );
    expect(missing.error?.code).toBe(5);
    expect(missing.reason).toBe("USER_NOT_FOUND");
  });

  it("admin UpdateUser merges metadata shallowly, removes null keys and caps the merged size", async () => {
    const email = `meta-${unique()}@example.com`;
    const signup = await app.call("POST", "/v1/auth/signup", {
      email,
      password: PASSWORD,
      metadata: { plan: "free", team: "red", nested: { a: 1 } },
    });
    const id = signup.body.user.id;
    const res = await app.call("PATCH", `/v1/auth/users/${id}`, {
      metadata: { team: null, plan: "pro", nested: { b: 2 } },
    });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual({ plan: "pro", nested: { b: 2 } });
    expect(res.body.email).toBe(email);

    const half = "x".repeat(9000);
    expect((await app.call("PATCH", `/v1/auth/users/${id}`, { metadata: { one: half } })).status).toBe(200);
    const tooBig = await app.call("PATCH", `/v1/auth/users/${id}`, { metadata: { two: half } });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.reason).toBe("VALIDATION_FAILED");
    expect(tooBig.body.violations.map((v: any) => v.field)).toEqual(["metadata"]);
    const hugePatch = await app.call("PATCH", `/v1/auth/users/${id}`, { metadata: { three: "y".repeat(17_000) } });
    expect(hugePatch.status).toBe(400);
    expect(hugePatch.body.violations.map((v: any) => v.field)).toEqual(["metadata"]);
    // Nothing of the refused updates was stored; removing the big key makes room again.
    const read = await app.call("GET", `/v1/auth/users/${id}`);
    expect(Object.keys(read.body.metadata).sort()).toEqual(["nested", "one", "plan"]);
    expect((await app.call("PATCH", `/v1/auth/users/${id}`, { metadata: { one: null, two: half } })).status).toBe(200);
  });

  it("admin UpdateUser changes the email (unique, validated) and only what is given", async () => {
    const a = await app.signup();
    const b = await app.signup();
    const newEmail = `renamed-${unique()}@example.com`;
    const res = await app.call("PATCH", `/v1/auth/users/${a.body.user.id}`, { email: newEmail });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: newEmail, email_verified: false, disabled: false });
    const login = await app.call("POST", "/v1/auth/login", { email: newEmail, password: a.password });
    expect(login.status).toBe(200);

    const taken = await app.call("PATCH", `/v1/auth/users/${a.body.user.id}`, { email: b.email.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(taken.body.reason).toBe("EMAIL_EXISTS");
    const bad = await app.call("PATCH", `/v1/auth/users/${a.body.user.id}`, { email: "not an email" });
    expect(bad.status).toBe(400);
    expect(bad.body.violations.map((v: any) => v.field)).toEqual(["email"]);
    const missing = await app.call("PATCH", "/v1/auth/users/usr_00000000000000000000000000", { metadata: { x: 1 } });
    expect(missing.status).toBe(404);
    expect(missing.body.reason).toBe("USER_NOT_FOUND");
  });

  it("disabled: true locks the user out and revokes its sessions; false unlocks", async () => {
    const { body, email, password } = await app.signup();
    const id = body.user.id;
    expect((await app.call("POST", "/v1/auth/token/verify", { token: body.access_token })).body.valid).toBe(true);
    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "UpdateUser",
      { id, disabled: true },
      { "x-service-key": app.key },
    );
    expect(viaGrpc.error).toBeUndefined();
    expect(viaGrpc.response.disabled).toBe(true);
    const sessions = await sql(`SELECT revoked_at FROM sessions WHERE user_id = $1`, [id]);
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.every((s) => s.revoked_at !== null)).toBe(true);
    expect((await app.call("POST", "/v1/auth/token/verify", { token: body.access_token })).body.valid).toBe(false);
    const locked = await app.call("POST", "/v1/auth/login", { email, password });
    expect(locked.status).toBe(403);
    expect(locked.body.reason).toBe("USER_DISABLED");

    const unlocked = await app.call("PATCH", `/v1/auth/users/${id}`, { disabled: false });
    expect(unlocked.body.disabled).toBe(false);
    expect((await app.call("POST", "/v1/auth/login", { email, password })).status).toBe(200);
    // The sessions revoked by the lock stay revoked.
    expect((await app.call("POST", "/v1/auth/token/verify", { token: body.access_token })).body.valid).toBe(false);
  });

  it("with its own access token a user may change only its own email and metadata", async () => {
    const me = await app.signup();
    const other = await app.signup();
    const token = me.body.access_token;
    const own = await app.call("PATCH", `/v1/auth/users/${me.body.user.id}`, { metadata: { theme: "dark" } }, token);
    expect(own.status).toBe(200);
    expect(own.body.metadata).toEqual({ theme: "dark" });

    const others = await app.call(
      "PATCH",
      `/v1/auth/users/${other.body.user.id}`,
      { metadata: { theme: "dark" } },
      token,
    );
    expect(others.status).toBe(403);
    expect(others.body.reason).toBe("ADMIN_REQUIRED");
    const disable = await app.call("PATCH", `/v1/auth/users/${me.body.user.id}`, { disabled: false }, token);
    expect(disable.status).toBe(403);
    expect(disable.body.reason).toBe("ADMIN_REQUIRED");
    expect((await app.call("GET", `/v1/auth/users/${other.body.user.id}`)).body.metadata).toEqual({});
  });

  it("DeleteUser removes the user with its sessions and links in one go; its tokens stop verifying", async () => {
    const { body, email, password } = await app.signup();
    const id = body.user.id;
    await app.call("PATCH", `/v1/auth/users/${id}`, { email: `moved-${unique()}@example.com` }); // leaves a verification link
    expect((await sql(`SELECT 1 FROM user_tokens WHERE user_id = $1`, [id])).length).toBe(1);

    const res = await app.call("DELETE", `/v1/auth/users/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, id });
    for (const table of ["users WHERE id", "sessions WHERE user_id", "user_tokens WHERE user_id"]) {
      expect(await sql(`SELECT 1 FROM ${table} = $1`, [id]), table).toEqual([]);
    }
    expect(
      await sql(`SELECT 1 FROM refresh_tokens r JOIN sessions s ON s.id = r.session_id WHERE s.user_id = $1`, [id]),
    ).toEqual([]);
    expect((await app.call("POST", "/v1/auth/token/verify", { token: body.access_token })).body.valid).toBe(false);
    expect((await app.call("GET", `/v1/auth/users/${id}`)).status).toBe(404);
    expect((await app.call("POST", "/v1/auth/login", { email, password })).body.reason).toBe("INVALID_CREDENTIALS");

    const again = await app.call("DELETE", `/v1/auth/users/${id}`);
    expect(again.status).toBe(404);
    expect(again.body.reason).toBe("USER_NOT_FOUND");

    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "DeleteUser",
      { id: (await app.signup()).body.user.id },
      { "x-service-key": app.key },
    );
    expect(viaGrpc.response).toMatchObject({ deleted: true });
  });
});
