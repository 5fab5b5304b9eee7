import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectReason, grpcCall, grpcClient } from "../helpers/clients.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { injectConnect } from "../helpers/inject.js";

// Threat: an end user upgrading itself. Applications keep roles and plans beside the user; when
// the only place for them is `metadata`, which the user may write with its own access token, a
// user sends {"metadata":{"plan":"pro"}} and is pro. `app_metadata` is written by an admin only
// (API key with users:write, no user token), and it is what the access token carries, so a
// downstream service that trusts the token trusts only what an admin wrote.

let seq = 0;
const email = (tag: string) => `${tag}-${++seq}-${Date.now()}@example.com`;

describe("app_metadata: written by an admin only, carried by the access token", () => {
  let server: TestServer;
  let app: AuthFixture;
  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
  });
  afterAll(() => server?.stop());

  const patch = (id: string, body: unknown, bearer?: string) => app.call("PATCH", `/v1/auth/users/${id}`, body, bearer);
  const claimsOf = async (token: string) => {
    const res = await app.call("POST", "/v1/auth/token/verify", { token });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(true);
    return res.body.claims;
  };

  it("a user's own token cannot write app_metadata (403 ADMIN_REQUIRED, nothing stored) on REST, Connect and gRPC, while metadata stays its own", async () => {
    const me = await app.signup(email("self"));
    const id = me.body.user.id;
    const token = me.body.access_token;

    const rest = await patch(id, { app_metadata: { plan: "pro" } }, token);
    expect(rest.status).toBe(403);
    expect(rest.body.reason).toBe("ADMIN_REQUIRED");
    // Not even alongside a field the user may write: the whole request is refused.
    const mixed = await patch(id, { metadata: { theme: "dark" }, app_metadata: { role: "admin" } }, token);
    expect(mixed.status).toBe(403);
    expect(mixed.body.reason).toBe("ADMIN_REQUIRED");
    const viaConnect = await injectConnect(
      server.handle,
      "auth",
      "UpdateUser",
      { id, app_metadata: { plan: "pro" } },
      { "x-service-key": app.key, authorization: `Bearer ${token}` },
    );
    expect(viaConnect.status).toBe(403);
    expect(connectReason(viaConnect.body)).toBe("ADMIN_REQUIRED");
    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "UpdateUser",
      { id, app_metadata: { fields: { plan: { stringValue: "pro" } } } },
      { "x-service-key": app.key, authorization: `Bearer ${token}` },
    );
    expect(viaGrpc.error?.code).toBe(7);
    expect(viaGrpc.reason).toBe("ADMIN_REQUIRED");

    const read = await app.call("GET", `/v1/auth/users/${id}`);
    expect(read.body).toMatchObject({ app_metadata: {}, metadata: {} });
    expect((await claimsOf(token)).app_metadata).toEqual({});

    // metadata is still the user's to write.
    const own = await patch(id, { metadata: { theme: "dark" } }, token);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ metadata: { theme: "dark" }, app_metadata: {} });
  });

  it("signup cannot set app_metadata: a body naming it leaves it empty", async () => {
    const res = await app.call("POST", "/v1/auth/signup", {
      email: email("signup"),
      password: "a sturdy passphrase 1",
      app_metadata: { role: "admin" },
    });
    if (res.status === 200) {
      expect(res.body.user.app_metadata).toEqual({});
      expect(decodeJwt(res.body.access_token).app_metadata).toEqual({});
      expect((await app.call("GET", `/v1/auth/users/${res.body.user.id}`)).body.app_metadata).toEqual({});
    } else {
      expect(res.status).toBe(400);
    }
  });

  it("an admin merges app_metadata shallowly (null removes a key), capped at 4 KiB; metadata is a separate object", async () => {
    const signup = await app.call("POST", "/v1/auth/signup", {
      email: email("admin"),
      password: "a sturdy passphrase 1",
      metadata: { plan: "free" },
    });
    const id = signup.body.user.id;
    expect(signup.body.user).toMatchObject({ metadata: { plan: "free" }, app_metadata: {} });

    const first = await patch(id, { app_metadata: { plan: "pro", roles: ["editor"], trial: true } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      app_metadata: { plan: "pro", roles: ["editor"], trial: true },
      metadata: { plan: "free" },
    });
    const second = await patch(id, { app_metadata: { trial: null, roles: ["editor", "billing"] } });
    expect(second.body.app_metadata).toEqual({ plan: "pro", roles: ["editor", "billing"] });

    const read = await app.call("GET", `/v1/auth/users/${id}`);
    expect(read.body).toMatchObject({
      metadata: { plan: "free" },
      app_metadata: { plan: "pro", roles: ["editor", "billing"] },
    });
    const listed = await app.call("GET", `/v1/auth/users?search=${encodeURIComponent(signup.body.user.email)}`);
    expect(listed.body.data[0].app_metadata).toEqual({ plan: "pro", roles: ["editor", "billing"] });
    const viaGrpc = await grpcCall(grpcClient(server.port, "auth"), "GetUser", { id }, { "x-service-key": app.key });
    expect(viaGrpc.response.app_metadata.fields.plan.stringValue).toBe("pro");

    // The cap: a patch over 4 KiB is refused by the field rule, a merge over 4 KiB by the flow.
    const tooLong = await patch(id, { app_metadata: { blob: "x".repeat(4100) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.violations.map((v: any) => v.field)).toEqual(["app_metadata"]);
    expect((await patch(id, { app_metadata: { one: "a".repeat(2500) } })).status).toBe(200);
    const merged = await patch(id, { app_metadata: { two: "b".repeat(2500) } });
    expect(merged.status).toBe(400);
    expect(merged.body.reason).toBe("VALIDATION_FAILED");
    expect(merged.body.violations.map((v: any) => v.field)).toEqual(["app_metadata"]);
    expect(Object.keys((await app.call("GET", `/v1/auth/users/${id}`)).body.app_metadata).sort()).toEqual([
      "one",
      "plan",
      "roles",
    ]);
  });

  it("tokens issued after an admin's change carry it (sign-in and refresh), VerifyToken shows it; a token issued before keeps what it had", async () => {
    const { body, email: address, password } = await app.signup(email("claim"));
    const id = body.user.id;
    const before = body.access_token;
    expect(decodeJwt(before).app_metadata).toEqual({});

    await patch(id, { app_metadata: { plan: "pro", org: { id: "acme", role: "owner" } } });
    const expected = { plan: "pro", org: { id: "acme", role: "owner" } };

    const login = await app.call("POST", "/v1/auth/login", { email: address, password });
    expect(login.body.user.app_metadata).toEqual(expected);
    expect(decodeJwt(login.body.access_token).app_metadata).toEqual(expected);
    expect((await claimsOf(login.body.access_token)).app_metadata).toEqual(expected);

    // Refresh reads the row again: a change made after sign-in reaches the next token.
    await patch(id, { app_metadata: { plan: "enterprise" } });
    const refreshed = await app.call("POST", "/v1/auth/token/refresh", { refresh_token: body.refresh_token });
    expect(refreshed.status).toBe(200);
    expect((await claimsOf(refreshed.body.access_token)).app_metadata).toEqual({ ...expected, plan: "enterprise" });

    // The token from before the change still says what was true when it was issued.
    expect((await claimsOf(before)).app_metadata).toEqual({});
    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "VerifyToken",
      { token: refreshed.body.access_token },
      { "x-service-key": app.key },
    );
    expect(viaGrpc.response.claims.app_metadata.fields.plan.stringValue).toBe("enterprise");
  });

  it("a token carrying the largest app_metadata still verifies and still works as a bearer token", async () => {
    const { body, email: address, password } = await app.signup(`${"l".repeat(200)}-${++seq}@example.com`);
    const id = body.user.id;
    // As close to the 4 KiB cap as the JSON allows, in characters that JSON escapes.
    const big = { quotes: '"\\'.repeat(1000), more: "é".repeat(10) };
    const stored = await patch(id, { app_metadata: big });
    expect(stored.status).toBe(200);
    expect(Buffer.byteLength(JSON.stringify(stored.body.app_metadata))).toBeGreaterThan(4000);

    const login = await app.call("POST", "/v1/auth/login", { email: address, password });
    const token = login.body.access_token as string;
    expect(token.length).toBeGreaterThan(4096);
    expect((await claimsOf(token)).app_metadata).toEqual(big);
    const own = await patch(id, { metadata: { ok: true } }, token);
    expect(own.status).toBe(200);
    const revoked = await app.call("POST", "/v1/auth/token/revoke", { token });
    expect(revoked.body).toEqual({ revoked: true });
  });
});
