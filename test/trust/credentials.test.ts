import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { status } from "@grpc/grpc-js";
import { getOption, hasOption, type DescMethod } from "@bufbuild/protobuf";
import { AccountService } from "../../gen/gatehouse/account/v1/account_pb.js";
import { AuthService } from "../../gen/gatehouse/auth/v1/auth_pb.js";
import { access as accessExt, Credential } from "../../gen/gatehouse/options/v1/options_pb.js";
import { http as httpExt } from "../../gen/google/api/annotations_pb.js";
import { accountFixture, type AccountFixture } from "../helpers/account.js";
import { connectReason, grpcCall, grpcClient, type HttpAnswer } from "../helpers/clients.js";
import { createTestClock } from "../helpers/clock.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { injectConnect, injectHttp } from "../helpers/inject.js";

// Threat: a user credential the server does not understand (a bare JWT, `Basic …`, `Bearer`
// with nothing or garbage, another project's token, an expired or revoked one) being ignored,
// so the request runs with the API key's admin rights: a stolen or stale token plus the
// application's full key then reads, edits or deletes any user. And a valid user token that
// an RPC ignores: Bob's token must never act on Alice. Every Auth RPC is read from the
// descriptors, so an RPC added tomorrow is sent every variant tomorrow.

const HOUR_MS = 3_600_000;
const PASSWORD = "a sturdy passphrase 1";

/** `{alg: "none"}` with a plausible payload: unsigned, so never valid. */
const unsignedJwt = (sub: string) =>
  `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${Buffer.from(JSON.stringify({ sub, exp: 4102444800 })).toString("base64url")}.`;

/** The REST binding of an RPC, its path variables filled from the body. */
function restCall(method: DescMethod, body: Record<string, unknown>) {
  if (!hasOption(method, httpExt)) return undefined;
  const rule = getOption(method, httpExt);
  if (rule.pattern.case === undefined || rule.pattern.case === "custom") return undefined;
  const verb = rule.pattern.case.toUpperCase();
  const rest = { ...body };
  const path = rule.pattern.value.replace(/\{([a-z_]+)\}/g, (_m, name: string) => {
    const value = String((rest[name] as string | number | undefined) ?? "x");
    delete rest[name];
    return encodeURIComponent(value);
  });
  return { verb, path, body: verb === "GET" || verb === "DELETE" ? undefined : rest };
}

const authMethods = AuthService.methods;
const managementMethods = AccountService.methods.filter(
  (m) => getOption(m, accessExt).credential === Credential.MANAGEMENT_TOKEN,
);
/** The member second factor's RPCs that take a management token or, without the header, an mfa_token. */
const optionalManagementMethods = AccountService.methods.filter(
  (m) => getOption(m, accessExt).credential === Credential.OPTIONAL_MANAGEMENT_TOKEN,
);

describe("an Authorization header on the Authentication interface is a valid access token or the request fails", () => {
  let server: TestServer;
  let app: AuthFixture;
  let alice: { id: string; email: string; token: string };
  let bob: { id: string; email: string; token: string };
  let variants: Array<[string, string]>;

  beforeAll(async () => {
    const clock = createTestClock();
    server = await startTestServer({}, undefined, { clock });
    app = await authFixture(server);
    const other = await authFixture(server);
    // An access token that expires: issued now, an hour (the default lifetime) and a bit ago.
    const expired = (await app.signup()).body.access_token as string;
    clock.advance(HOUR_MS + 60_000);
    const revoked = (await app.signup()).body.access_token as string;
    const signOut = await app.call("POST", "/v1/auth/sessions/revoke-all", {}, revoked);
    expect(signOut.status, "revoke-all").toBe(200);
    const foreign = (await other.signup()).body.access_token as string;
    const a = await app.signup();
    const b = await app.signup();
    alice = { id: a.body.user.id, email: a.email, token: a.body.access_token };
    bob = { id: b.body.user.id, email: b.email, token: b.body.access_token };
    variants = [
      ["a bare JWT, no scheme", bob.token],
      ["Basic credentials", `Basic ${Buffer.from(`${bob.email}:${PASSWORD}`).toString("base64")}`],
      ["Bearer with nothing", "Bearer"],
      ["Bearer garbage", "Bearer garbage"],
      ["an unsigned JWT naming Alice", `Bearer ${unsignedJwt(alice.id)}`],
      ["another scheme with a valid token", `Token ${bob.token}`],
      ["two tokens", `Bearer ${bob.token} ${bob.token}`],
      ["an empty header", ""],
      ["another project's token", `Bearer ${foreign}`],
      ["an expired token", `Bearer ${expired}`],
      ["a token of a revoked session", `Bearer ${revoked}`],
    ];
  });
  afterAll(() => server?.stop());

  /** A body that would do harm if the request ran with the key's admin rights. */
  const bodyFor = (method: DescMethod): Record<string, unknown> => {
    switch (method.name) {
      case "GetUser":
      case "DeleteUser":
        return { id: alice.id };
      case "UpdateUser":
        return { id: alice.id, metadata: { plan: "pro" }, disabled: true };
      case "Login":
        return { email: alice.email, password: PASSWORD };
      default:
        return {};
    }
  };

  const misses = (name: string, answer: HttpAnswer, reason: string | undefined): string[] =>
    answer.status === 401 && reason === "INVALID_ACCESS_TOKEN"
      ? []
      : [`${name}: ${answer.status} ${reason} ${answer.body?.message ?? ""}`];

  it("the table covers every Auth RPC", () => {
    expect(authMethods.length).toBeGreaterThanOrEqual(26); // today: 26 Auth RPCs
    expect(variants.length).toBe(11);
  });

  it.each(authMethods.map((m) => [m.name, m] as const))(
    "%s: every variant is 401 INVALID_ACCESS_TOKEN over Connect and REST",
    async (_name, method) => {
      const found: string[] = [];
      for (const [name, authorization] of variants) {
        const headers = { "x-service-key": app.key, authorization };
        const viaConnect = await injectConnect(server.handle, "auth", method.name, bodyFor(method), headers);
        found.push(...misses(`Connect, ${name}`, viaConnect, connectReason(viaConnect.body)));
        const rest = restCall(method, bodyFor(method));
        if (rest) {
          const viaRest = await injectHttp(server.handle, rest.path, {
            method: rest.verb,
            headers,
            body: rest.body,
          });
          found.push(...misses(`REST ${rest.verb} ${rest.path}, ${name}`, viaRest, viaRest.body?.reason));
        }
      }
      expect(found).toEqual([]);
    },
  );

  it("over gRPC too (DeleteUser, UpdateUser, Signup)", async () => {
    const client = grpcClient(server.port, "auth");
    const found: string[] = [];
    for (const [rpc, body] of [
      ["DeleteUser", { id: alice.id }],
      ["UpdateUser", { id: alice.id, disabled: true }],
      ["Signup", { email: `grpc-${Date.now()}@example.com`, password: PASSWORD }],
    ] as const) {
      for (const [name, authorization] of variants) {
        const answer = await grpcCall(client, rpc, body, { "x-service-key": app.key, authorization });
        if (answer.error?.code !== status.UNAUTHENTICATED || answer.reason !== "INVALID_ACCESS_TOKEN")
          found.push(`${rpc}, ${name}: ${answer.error?.code} ${answer.reason}`);
      }
    }
    client.close();
    expect(found).toEqual([]);
  });

  it("Alice is intact after all of it: same metadata, not disabled, still signs in", async () => {
    const read = await app.call("GET", `/v1/auth/users/${alice.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: alice.id, metadata: {}, disabled: false });
    const login = await app.call("POST", "/v1/auth/login", { email: alice.email, password: PASSWORD });
    expect(login.status).toBe(200);
  });

  it("the API key is still checked first, and without any Authorization header the key acts as admin", async () => {
    const noKey = await injectHttp(server.handle, `/v1/auth/users/${alice.id}`, {
      headers: { authorization: "Basic eA==" },
    });
    expect({ status: noKey.status, reason: noKey.body.reason }).toEqual({ status: 401, reason: "MISSING_API_KEY" });
    const admin = await app.call("GET", `/v1/auth/users/${alice.id}`);
    expect(admin.status).toBe(200);
  });
});

describe("a valid user token acts as that user and no one else", () => {
  let server: TestServer;
  let app: AuthFixture;
  let alice: { id: string; email: string; token: string };
  let bob: { id: string; email: string; token: string };

  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
    const a = await app.signup();
    const b = await app.signup();
    alice = { id: a.body.user.id, email: a.email, token: a.body.access_token };
    bob = { id: b.body.user.id, email: b.email, token: b.body.access_token };
  });
  afterAll(() => server?.stop());

  const expectAdminRequired = (answer: HttpAnswer, what: string) =>
    expect({ what, status: answer.status, reason: answer.body?.reason }).toEqual({
      what,
      status: 403,
      reason: "ADMIN_REQUIRED",
    });

  it("Bob's token cannot read, edit or delete Alice, on REST, Connect and gRPC; Alice is intact", async () => {
    expectAdminRequired(await app.call("GET", `/v1/auth/users/${alice.id}`, undefined, bob.token), "REST GetUser");
    expectAdminRequired(
      await app.call("DELETE", `/v1/auth/users/${alice.id}`, undefined, bob.token),
      "REST DeleteUser",
    );
    expectAdminRequired(
      await app.call("PATCH", `/v1/auth/users/${alice.id}`, { metadata: { plan: "pro" } }, bob.token),
      "REST UpdateUser",
    );
    const headers = { "x-service-key": app.key, authorization: `Bearer ${bob.token}` };
    for (const rpc of ["GetUser", "DeleteUser"]) {
      const viaConnect = await injectConnect(server.handle, "auth", rpc, { id: alice.id }, headers);
      expect({ rpc, status: viaConnect.status, reason: connectReason(viaConnect.body) }).toEqual({
        rpc,
        status: 403,
        reason: "ADMIN_REQUIRED",
      });
      const viaGrpc = await grpcCall(grpcClient(server.port, "auth"), rpc, { id: alice.id }, headers);
      expect({ rpc, code: viaGrpc.error?.code, reason: viaGrpc.reason }).toEqual({
        rpc,
        code: 7,
        reason: "ADMIN_REQUIRED",
      });
    }
    const read = await app.call("GET", `/v1/auth/users/${alice.id}`);
    expect(read.status).toBe(200);
    expect(read.body.metadata).toEqual({});
    expect((await app.call("POST", "/v1/auth/login", { email: alice.email, password: PASSWORD })).status).toBe(200);
  });

  it("an id that is not the user's is refused before any lookup: unknown and malformed ids answer the same 403", async () => {
    for (const id of ["usr_00000000000000000000000000", "not-an-id"]) {
      expectAdminRequired(await app.call("GET", `/v1/auth/users/${id}`, undefined, bob.token), `GetUser ${id}`);
      expectAdminRequired(await app.call("DELETE", `/v1/auth/users/${id}`, undefined, bob.token), `DeleteUser ${id}`);
    }
  });

  it("ListUsers with a user token is 403 ADMIN_REQUIRED", async () => {
    expectAdminRequired(await app.call("GET", "/v1/auth/users", undefined, bob.token), "REST ListUsers");
    const viaConnect = await injectConnect(
      server.handle,
      "auth",
      "ListUsers",
      {},
      { "x-service-key": app.key, authorization: `Bearer ${bob.token}` },
    );
    expect({ status: viaConnect.status, reason: connectReason(viaConnect.body) }).toEqual({
      status: 403,
      reason: "ADMIN_REQUIRED",
    });
    expect((await app.call("GET", "/v1/auth/users")).status).toBe(200);
  });

  it("the user's own id is allowed: GetUser, UpdateUser, then DeleteUser of itself", async () => {
    const own = await app.call("GET", `/v1/auth/users/${bob.id}`, undefined, bob.token);
    expect({ status: own.status, id: own.body.id }).toEqual({ status: 200, id: bob.id });
    const edit = await app.call("PATCH", `/v1/auth/users/${bob.id}`, { metadata: { theme: "dark" } }, bob.token);
    expect({ status: edit.status, metadata: edit.body.metadata }).toEqual({ status: 200, metadata: { theme: "dark" } });
    const carol = await app.signup();
    const gone = await app.call("DELETE", `/v1/auth/users/${carol.body.user.id}`, undefined, carol.body.access_token);
    expect({ status: gone.status, body: gone.body }).toEqual({
      status: 200,
      body: { deleted: true, id: carol.body.user.id },
    });
    expect((await app.call("GET", `/v1/auth/users/${carol.body.user.id}`)).status).toBe(404);
  });

  it("on RPCs that need only the key, a valid user token limits nothing", async () => {
    const login = await app.call("POST", "/v1/auth/login", { email: alice.email, password: PASSWORD }, bob.token);
    expect(login.status).toBe(200);
    expect(login.body.user.id).toBe(alice.id);
    const verify = await app.call("POST", "/v1/auth/token/verify", { token: alice.token }, bob.token);
    expect({ status: verify.status, valid: verify.body.valid, sub: verify.body.claims?.sub }).toEqual({
      status: 200,
      valid: true,
      sub: alice.id,
    });
  });
});

describe("a management token header that is not `Bearer <token>` is INVALID_MANAGEMENT_TOKEN", () => {
  let server: TestServer;
  let f: AccountFixture;

  beforeAll(async () => {
    server = await sharedTestServer();
    f = await accountFixture(server);
  });
  afterAll(() => server?.stop());

  it("the table covers every Account RPC that takes a management token", () => {
    expect(managementMethods.length).toBeGreaterThanOrEqual(15); // today: 15 of 17
  });

  it.each(managementMethods.map((m) => [m.name, m] as const))("%s", async (_name, method) => {
    const found: string[] = [];
    for (const [name, authorization] of [
      ["a bare token, no scheme", f.admin.token],
      ["Basic credentials", `Basic ${Buffer.from(`${f.admin.email}:${f.admin.password}`).toString("base64")}`],
      ["Bearer with nothing", "Bearer"],
      ["another scheme with a valid token", `Token ${f.admin.token}`],
      ["an empty header", ""],
      ["Bearer garbage", "Bearer garbage"],
    ] as const) {
      const answer = await injectConnect(server.handle, "account", method.name, {}, { authorization });
      const reason = connectReason(answer.body);
      if (answer.status !== 401 || reason !== "INVALID_MANAGEMENT_TOKEN")
        found.push(`${name}: ${answer.status} ${reason}`);
    }
    const none = await injectConnect(server.handle, "account", method.name, {}, {});
    if (connectReason(none.body) !== "MISSING_MANAGEMENT_TOKEN")
      found.push(`no header: ${none.status} ${connectReason(none.body)}`);
    expect(found).toEqual([]);
  });

  it.each(optionalManagementMethods.map((m) => [m.name, m] as const))(
    "%s (the management token is optional, but a header that is present is never ignored)",
    async (_name, method) => {
      const found: string[] = [];
      for (const authorization of [
        f.admin.token,
        "Basic eA==",
        "Bearer",
        "",
        "Bearer garbage",
        `Token ${f.admin.token}`,
      ]) {
        const answer = await injectConnect(server.handle, "account", method.name, {}, { authorization });
        const reason = connectReason(answer.body);
        if (answer.status !== 401 || reason !== "INVALID_MANAGEMENT_TOKEN")
          found.push(`${JSON.stringify(authorization)}: ${answer.status} ${reason}`);
      }
      expect(found).toEqual([]);
    },
  );

  it("over REST", async () => {
    for (const authorization of [f.admin.token, "Basic eA==", "Bearer"]) {
      const res = await injectHttp(server.handle, "/v1/projects", { headers: { authorization } });
      expect({ authorization, status: res.status, reason: res.body.reason }).toEqual({
        authorization,
        status: 401,
        reason: "INVALID_MANAGEMENT_TOKEN",
      });
    }
    expect((await injectHttp(server.handle, "/v1/projects", { headers: f.admin.headers })).status).toBe(200);
  });
});
