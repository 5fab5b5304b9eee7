import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Interceptor } from "@connectrpc/connect";
import {
  authClients,
  createAccessTokenVerifier,
  errorReason,
  memoryStore,
  nodeTransport,
  processLock,
  Session,
  SessionEndedError,
  signupOutcome,
  type TransportFactory,
} from "../../sdk/ts/src/node.js";
import { webTransport } from "../../sdk/ts/src/web.js";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { createTestClock } from "../helpers/clock.js";
import { http } from "../helpers/clients.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { WAIT_GUARD_MS } from "../helpers/patience.js";

// The TypeScript SDK (sdk/ts) against the real server: its transports, its session's refresh
// discipline and its offline token check.

/** A transport factory that also counts the RPCs it carries, by method name. */
function counted(factory: TransportFactory): { factory: TransportFactory; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const count: Interceptor = (next) => (req) => {
    calls.set(req.method.name, (calls.get(req.method.name) ?? 0) + 1);
    return next(req);
  };
  return { factory: (interceptors) => factory([...interceptors, count]), calls };
}

describe("TypeScript SDK", () => {
  let server: TestServer;
  let app: AuthFixture;
  let other: AuthFixture;
  // One clock for the server and the SDK's sessions: moving it ages tokens on both sides.
  const clock = createTestClock();

  beforeAll(async () => {
    server = await startTestServer({}, undefined, { clock });
    app = await authFixture(server, { tokenExpiry: 900 });
    other = await authFixture(server);
  });
  afterAll(() => server?.stop());

  it.each(["connect", "grpc"] as const)(
    "signs up and in over %s from Node, verifies the token and reads a failed login's reason",
    async (protocol) => {
      const { auth } = authClients(nodeTransport(server.url, { protocol }), app.key);
      const email = `sdk-${protocol}-${Date.now()}@example.com`;
      const signup = await auth.signup({ email, password: "a sturdy passphrase 1" });
      expect(signup.user?.email).toBe(email);
      const login = await auth.login({ email, password: "a sturdy passphrase 1" });
      expect(login.accessToken).toMatch(/^eyJ/);
      const verified = await auth.verifyToken({ token: login.accessToken! });
      expect({ valid: verified.valid, sub: verified.claims?.sub }).toEqual({ valid: true, sub: signup.user!.id });
      const refused = await auth.login({ email, password: "not the password" }).catch((error: unknown) => error);
      expect(errorReason(refused)).toBe("INVALID_CREDENTIALS");
    },
  );

  it("the browser transport (connect-web over fetch) signs in and reads the user's own profile with HTTP GET", async () => {
    const methods: string[] = [];
    const fetchSpy: typeof fetch = (input, init) => {
      methods.push(
        `${init?.method ?? "GET"} ${new URL(String(input instanceof Request ? input.url : input)).pathname}`,
      );
      return fetch(input, init);
    };
    const { auth, asUser } = authClients(webTransport(server.url, { fetch: fetchSpy }), app.key);
    const { email, password } = await app.signup();
    const session = new Session({ auth, store: memoryStore(), lock: processLock() });
    const login = await auth.login({ email, password });
    await session.start(login);
    const user = login.user!;
    const me = await asUser(session).getUser({ id: user.id });
    expect(me.email).toBe(email);
    expect(methods).toContain("POST /gatehouse.auth.v1.AuthService/Login");
    expect(methods).toContain("GET /gatehouse.auth.v1.AuthService/GetUser");
  });

  it("a publishable key's signup waits for the email: signupOutcome says confirmation_required and Session.start refuses it", async () => {
    const created = await http(`${server.url}/v1/api-keys`, {
      headers: await app.admin(),
      body: { project_id: app.projectId, label: "web", kind: "publishable" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { auth } = authClients(nodeTransport(server.url), created.body.key);
    const answer = await auth.signup({
      email: `sdk-confirm-${Date.now()}@example.com`,
      password: "a sturdy passphrase 1",
    });
    expect(signupOutcome(answer)).toBe("confirmation_required");
    expect({ user: answer.user, accessToken: answer.accessToken, mfaToken: answer.mfaToken }).toEqual({
      user: undefined,
      accessToken: undefined,
      mfaToken: undefined,
    });
    await expect(new Session({ auth, store: memoryStore() }).start(answer)).rejects.toThrow(
      /confirmed.*VerifyMagicLink/,
    );
    // A secret key signs up at once.
    const { auth: backend } = authClients(nodeTransport(server.url), app.key);
    expect(
      signupOutcome(
        await backend.signup({ email: `sdk-now-${Date.now()}@example.com`, password: "a sturdy passphrase 1" }),
      ),
    ).toBe("signed_in");
  });

  describe("sessions", () => {
    const tab = (factory: TransportFactory, store = memoryStore(), lock = processLock()) =>
      new Session({ auth: authClients(factory, app.key).auth, store, lock, now: () => clock.now().getTime() });

    it("many calls in two tabs that all find the token due share one refresh, and the session lives on", async () => {
      const { factory, calls } = counted(nodeTransport(server.url));
      const { email, password, body } = await app.signup();
      const [store, lock] = [memoryStore(), processLock()];
      const [first, second] = [tab(factory, store, lock), tab(factory, store, lock)];
      const signedIn = await first.start(await authClients(factory, app.key).auth.login({ email, password }));

      clock.advance(900_000); // past the access token's end, as seen by the tabs
      const tokens = await Promise.all([
        ...Array.from({ length: 10 }, () => first.accessToken()),
        ...Array.from({ length: 10 }, () => second.accessToken()),
      ]);
      expect(calls.get("Refresh")).toBe(1);
      expect(new Set(tokens).size).toBe(1);
      expect(tokens[0]).not.toBe(signedIn.accessToken);

      // The refreshed session is the same one on the server, and refreshes again when due.
      const asUser = authClients(factory, app.key).asUser(second);
      expect((await asUser.getUser({ id: body.user.id })).email).toBe(email);
      clock.advance(900_000);
      await Promise.all([first.accessToken(), second.accessToken()]);
      expect(calls.get("Refresh")).toBe(2);
      expect((await asUser.getUser({ id: body.user.id })).email).toBe(email);
    });

    it("a tab that wakes later finds the tokens another tab refreshed; without the shared store it would present a spent refresh token and end the session", async () => {
      const { factory, calls } = counted(nodeTransport(server.url));
      const login = async () => {
        const { email, password } = await app.signup();
        return authClients(factory, app.key).auth.login({ email, password });
      };
      // Shared store and lock: the second tab, waking past the server's 10 s grace window for a
      // repeated refresh, uses what the first stored.
      const [store, lock] = [memoryStore(), processLock()];
      const [first, second] = [tab(factory, store, lock), tab(factory, store, lock)];
      await first.start(await login());
      clock.advance(900_000);
      const refreshed = await first.accessToken();
      clock.advance(11_000);
      expect(await second.accessToken()).toBe(refreshed);
      expect(calls.get("Refresh")).toBe(1);

      // Each tab with its own copy: the late tab presents the spent token, which is reuse, and
      // the server revokes the whole session, the first tab's new tokens with it.
      const answer = await login();
      const [lonely, late] = [tab(factory), tab(factory)];
      await lonely.start(answer);
      await late.start(answer);
      clock.advance(900_000);
      await lonely.accessToken();
      clock.advance(11_000);
      const ended = await late.accessToken().catch((error: unknown) => error);
      expect(ended).toBeInstanceOf(SessionEndedError);
      expect((ended as SessionEndedError).reason).toBe("REFRESH_TOKEN_REUSED");
      clock.advance(900_000);
      await expect(lonely.accessToken()).rejects.toBeInstanceOf(SessionEndedError);
    });

    it("a session revoked elsewhere ends at its next refresh, and its tokens are forgotten", async () => {
      const factory = nodeTransport(server.url);
      const { email, password } = await app.signup();
      const store = memoryStore();
      const session = tab(factory, store);
      const signedIn = await session.start(await authClients(factory, app.key).auth.login({ email, password }));
      expect((await app.call("POST", "/v1/auth/sessions/revoke-all", {}, signedIn.accessToken)).status).toBe(200);
      clock.advance(900_000);
      const ended = await session.accessToken().catch((error: unknown) => error);
      expect((ended as SessionEndedError).reason).toBe("INVALID_REFRESH_TOKEN");
      expect(store.load()).toBeUndefined();
    });

    it("a session the project stops accepting (mfa_required turned on) ends at its next refresh with MFA_REQUIRED_BY_PROJECT, and its tokens are forgotten", async () => {
      const own = await authFixture(server, { tokenExpiry: 900 });
      const { auth } = authClients(nodeTransport(server.url), own.key);
      const { email, password } = await own.signup();
      const store = memoryStore();
      const session = new Session({ auth, store, lock: processLock(), now: () => clock.now().getTime() });
      const signedIn = await session.start(await auth.login({ email, password }));
      const turnedOn = await http(`${server.url}/v1/projects/${own.projectId}`, {
        method: "PATCH",
        headers: await own.admin(),
        body: { mfa_required: true },
      });
      expect(turnedOn.status).toBe(200);
      clock.advance(900_000);
      const ended = await session.accessToken().catch((error: unknown) => error);
      expect(ended).toBeInstanceOf(SessionEndedError);
      expect((ended as SessionEndedError).reason).toBe("MFA_REQUIRED_BY_PROJECT");
      expect((ended as SessionEndedError).mfaRequired).toBe(true);
      expect(store.load()).toBeUndefined();
      // Signed out here, and ended on the server: the old access token no longer verifies.
      await expect(session.accessToken()).rejects.toBeInstanceOf(SessionEndedError);
      expect((await auth.verifyToken({ token: signedIn.accessToken })).valid).toBe(false);
    });

    it("signOut revokes the session on the server", async () => {
      const factory = nodeTransport(server.url);
      const { email, password } = await app.signup();
      const session = tab(factory);
      const signedIn = await session.start(await authClients(factory, app.key).auth.login({ email, password }));
      await session.signOut();
      const refresh = await app.call("POST", "/v1/auth/token/refresh", { refresh_token: signedIn.refreshToken });
      expect(refresh.body.reason).toBe("INVALID_REFRESH_TOKEN");
      await expect(session.accessToken()).rejects.toBeInstanceOf(SessionEndedError);
    });
  });

  it("verifyAccessToken checks tokens offline against the JWKS, kept until a key it does not know", async () => {
    let fetches = 0;
    const countingFetch: typeof fetch = (input, init) => {
      fetches++;
      return fetch(input, init);
    };
    const issuer = (loginId: string) => `${server.deps.config.publicUrl}/v1/auth/${loginId}`;
    const verify = createAccessTokenVerifier({
      baseUrl: server.url,
      loginId: app.loginId,
      projectId: app.projectId,
      issuer: issuer(app.loginId),
      fetch: countingFetch,
      refetchCooldownMs: 0,
    });
    const { body } = await app.signup();
    const claims = await verify(body.access_token);
    expect({ sub: claims.sub, project_id: claims.project_id, amr: claims.amr }).toEqual({
      sub: body.user.id,
      project_id: app.projectId,
      amr: ["pwd"],
    });
    await verify(body.access_token);
    expect(fetches).toBe(1);

    // A changed claim, and another project's token, are refused without asking the server.
    const [head, payload, signature] = body.access_token.split(".");
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), sub: "usr_someone_else" }),
    ).toString("base64url");
    await expect(verify(`${head}.${forged}.${signature}`)).rejects.toThrow();
    await expect(verify((await other.signup()).body.access_token)).rejects.toThrow();

    // After a rotation a token signed with the new key fetches the key set once more.
    const rotated = await http(`${server.url}/v1/projects/${app.projectId}/signing-keys/rotate`, {
      headers: await app.admin(),
      body: {},
    });
    expect(rotated.status).toBe(200);
    const fetchesBefore = fetches;
    const fresh = (await app.signup()).body.access_token as string;
    expect((await verify(fresh)).sub).toMatch(/^usr_/);
    expect(fetches).toBe(fetchesBefore + 1);
  });

  it("builds as a package: dist/ holds the entry points and the generated code they import", async () => {
    const root = join(import.meta.dirname, "../..");
    const build = await new Promise<{ code: number; output: string }>((resolve) =>
      execFile(
        process.execPath,
        [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "sdk/ts/tsconfig.json")],
        { cwd: root },
        (error, stdout, stderr) => resolve({ code: error ? 1 : 0, output: stdout + stderr }),
      ),
    );
    expect(build.code, build.output).toBe(0);
    for (const entry of ["index", "node", "web"])
      expect(existsSync(join(root, `sdk/ts/dist/sdk/ts/src/${entry}.js`))).toBe(true);
    expect(existsSync(join(root, "sdk/ts/dist/gen/gatehouse/auth/v1/auth_pb.js"))).toBe(true);
  });
});

describe("the TypeScript example of docs/clients.md", () => {
  let server: TestServer;
  let app: AuthFixture;
  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
  });
  afterAll(() => server?.stop());

  it("runs against the server and prints what it promises", async () => {
    const root = join(import.meta.dirname, "../..");
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ["--import", "tsx", join(root, "sdk/ts/examples/quickstart.ts")],
        {
          cwd: root,
          env: {
            PATH: process.env.PATH,
            GATEHOUSE_URL: server.url,
            GATEHOUSE_API_KEY: app.key,
            GATEHOUSE_LOGIN_ID: app.loginId,
            GATEHOUSE_PROJECT_ID: app.projectId,
            GATEHOUSE_ISSUER: `${server.deps.config.publicUrl}/v1/auth/${app.loginId}`,
          },
          timeout: WAIT_GUARD_MS,
        },
        (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout, stderr }),
      ),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^signed up usr_\w+\nsigned in as quickstart-\d+@example\.com\ntoken checked offline: sub usr_\w+, amr pwd\nfailed login: INVALID_CREDENTIALS\n$/,
    );
  });
});
