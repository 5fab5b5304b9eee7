import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../helpers/account.js";
import { connectReason, connectViolations, grpcCall, grpcClient } from "../helpers/clients.js";
import { createTestClock, type TestClock } from "../helpers/clock.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import { injectConnect } from "../helpers/inject.js";

// ListSessions a page at a time, as ListUsers: limit absent or 0 → 20, 1..100, newest first by
// keyset, opaque cursors bound to the list they came from (the user's own sessions), so a
// cursor of another user's list, of another list, or edited, is INVALID_CURSOR.

const SECOND = 1000;

describe("ListSessions pages", () => {
  let server: TestServer;
  let clock: TestClock;
  let app: AuthFixture;

  beforeAll(async () => {
    clock = createTestClock();
    server = await startTestServer({}, undefined, { clock });
    app = await authFixture(server);
  });
  afterAll(() => server?.stop());

  /** A user with `count` sessions, one second apart: the access tokens and session ids, oldest first. */
  async function userWithSessions(count: number) {
    const { email, password, body } = await app.signup();
    const tokens: string[] = [body.access_token];
    while (tokens.length < count) {
      clock.advance(SECOND);
      const res = await app.call("POST", "/v1/auth/login", { email, password });
      expect(res.status).toBe(200);
      tokens.push(res.body.access_token);
    }
    return { userId: body.user.id as string, tokens, sids: tokens.map((t) => decodeJwt(t).sid as string) };
  }
  const list = (token: string, query = "") => app.call("GET", `/v1/auth/sessions${query}`, undefined, token);

  it("walks the sessions newest first with limit and cursor over REST; the current one is marked on its page", async () => {
    const u = await userWithSessions(5);
    const newestFirst = [...u.sids].reverse();
    const caller = u.tokens[1]; // the second oldest: on the last full page

    const first = await list(caller, "?limit=2");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.map((s: any) => s.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.body.has_more).toBe(true);
    expect(first.body.next_cursor).toMatch(/^cur_/);
    expect(first.body.data.map((s: any) => s.is_current)).toEqual([false, false]);

    const second = await list(caller, `?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.data.map((s: any) => s.id)).toEqual(newestFirst.slice(2, 4));
    expect(second.body.data.map((s: any) => s.is_current)).toEqual([false, true]);
    expect(second.body.has_more).toBe(true);

    const third = await list(caller, `?limit=2&cursor=${second.body.next_cursor}`);
    expect(third.body.data.map((s: any) => s.id)).toEqual(newestFirst.slice(4));
    expect(third.body).toMatchObject({ has_more: false, next_cursor: "" });

    // A page exactly as long as what is left says there is no more.
    const exact = await list(caller, "?limit=5");
    expect(exact.body.data).toHaveLength(5);
    expect(exact.body).toMatchObject({ has_more: false, next_cursor: "" });
  });

  it("limit absent or 0 is 20; 100 is allowed; above 100 or negative is INVALID_ARGUMENT", async () => {
    const u = await userWithSessions(22);
    const token = u.tokens[21];
    for (const query of ["", "?limit=0"]) {
      const page = await list(token, query);
      expect(page.status).toBe(200);
      expect(page.body.data).toHaveLength(20);
      expect(page.body.has_more).toBe(true);
      const rest = await list(token, `?cursor=${page.body.next_cursor}`);
      expect(rest.body.data.map((s: any) => s.id)).toEqual([u.sids[1], u.sids[0]]);
      expect(rest.body.has_more).toBe(false);
    }
    const all = await list(token, "?limit=100");
    expect(all.body.data).toHaveLength(22);
    expect(all.body.has_more).toBe(false);
    for (const limit of [101, -1]) {
      const refused = await list(token, `?limit=${limit}`);
      expectError(refused, 400, "VALIDATION_FAILED");
      expect(refused.body.violations.map((v: any) => v.field)).toEqual(["limit"]);
    }
  });

  it("a cursor only continues the list it came from: another user's, ListUsers', or an edited one is INVALID_CURSOR", async () => {
    const u = await userWithSessions(3);
    const other = await userWithSessions(3);
    const mine = await list(u.tokens[2], "?limit=1");
    const theirs = await list(other.tokens[2], "?limit=1");
    expect(mine.body.next_cursor).toMatch(/^cur_/);

    expectError(await list(u.tokens[2], `?limit=1&cursor=${theirs.body.next_cursor}`), 400, "INVALID_CURSOR");
    expectError(await list(other.tokens[2], `?limit=1&cursor=${mine.body.next_cursor}`), 400, "INVALID_CURSOR");
    const users = await app.call("GET", "/v1/auth/users?limit=1");
    expect(users.body.next_cursor).toMatch(/^cur_/);
    expectError(await list(u.tokens[2], `?cursor=${users.body.next_cursor}`), 400, "INVALID_CURSOR");
    const edited = mine.body.next_cursor.replace(/^cur_./, (m: string) => (m.endsWith("A") ? "cur_B" : "cur_A"));
    expectError(await list(u.tokens[2], `?cursor=${edited}`), 400, "INVALID_CURSOR");
    // Another session of the same user continues it: the list is the user's, not the token's.
    const next = await list(u.tokens[0], `?limit=1&cursor=${mine.body.next_cursor}`);
    expect(next.body.data.map((s: any) => [s.id, s.is_current])).toEqual([[u.sids[1], false]]);
  });

  it("sessions that end between pages drop out; the cursor keeps its place", async () => {
    const u = await userWithSessions(4);
    const first = await list(u.tokens[3], "?limit=2");
    expect(first.body.data.map((s: any) => s.id)).toEqual([u.sids[3], u.sids[2]]);
    expect((await app.call("DELETE", `/v1/auth/sessions/${u.sids[1]}`, undefined, u.tokens[3])).status).toBe(200);
    const second = await list(u.tokens[3], `?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.data.map((s: any) => s.id)).toEqual([u.sids[0]]);
    expect(second.body.has_more).toBe(false);
  });

  it("pages the same over Connect and gRPC", async () => {
    const u = await userWithSessions(3);
    const headers = { "x-service-key": app.key, authorization: `Bearer ${u.tokens[0]}` };

    const viaConnect = await injectConnect(server.handle, "auth", "ListSessions", { limit: 2 }, headers);
    expect(viaConnect.status).toBe(200);
    expect(viaConnect.body.data.map((s: any) => s.id)).toEqual([u.sids[2], u.sids[1]]);
    expect(viaConnect.body.has_more).toBe(true);
    const rest = await injectConnect(
      server.handle,
      "auth",
      "ListSessions",
      { limit: 2, cursor: viaConnect.body.next_cursor },
      headers,
    );
    expect(rest.body.data.map((s: any) => [s.id, s.is_current])).toEqual([[u.sids[0], true]]);
    expect(rest.body).toMatchObject({ has_more: false, next_cursor: "" });
    const tooMany = await injectConnect(server.handle, "auth", "ListSessions", { limit: 101 }, headers);
    expect(tooMany.status).toBe(400);
    expect(connectViolations(tooMany.body).map((v) => v.field)).toContain("limit");
    const foreign = await injectConnect(
      server.handle,
      "auth",
      "ListSessions",
      { cursor: "cur_AAAA.AAAAAAAAAAAAAAAAAAAAAAAA" },
      headers,
    );
    expect({ status: foreign.status, reason: connectReason(foreign.body) }).toEqual({
      status: 400,
      reason: "INVALID_CURSOR",
    });

    const client = grpcClient(server.port, "auth");
    const page = await grpcCall(client, "ListSessions", { limit: 1 }, headers);
    expect(page.error).toBeUndefined();
    expect(page.response.data.map((s: any) => s.id)).toEqual([u.sids[2]]);
    expect(page.response.has_more).toBe(true);
    const next = await grpcCall(client, "ListSessions", { limit: 1, cursor: page.response.next_cursor }, headers);
    expect(next.response.data.map((s: any) => s.id)).toEqual([u.sids[1]]);
    const refused = await grpcCall(client, "ListSessions", { cursor: viaConnect.body.next_cursor + "x" }, headers);
    expect({ code: refused.error?.code, reason: refused.reason }).toEqual({ code: 3, reason: "INVALID_CURSOR" });
  });
});
