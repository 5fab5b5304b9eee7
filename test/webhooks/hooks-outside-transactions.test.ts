import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpAnswer } from "../helpers/clients.js";
import { eventually } from "../helpers/eventually.js";
import { injectHttp } from "../helpers/inject.js";
import { startOidcProvider, type OidcProviderHarness } from "../helpers/oidc-provider.js";
import { REFRESH_GRACE_MS } from "../../src/flows/auth/refresh.js";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { challenge, freshCode, totpUser } from "../auth/mfa-helpers.js";
import { authenticator, passkeyProject, passkeyUser, signIn as passkeySignIn } from "../auth/passkey-helpers.js";
import { expectNoTransactionHeld, useHookDesk } from "./hook-desk.js";

// Threat: one project's slow hook receiver holding the database for everyone (issue 46). A hook
// called while its request's transaction is open keeps a pooled connection (PGlite's only one)
// for as long as the receiver takes. Here every path that asks a hook is run with the
// project's hook calls held by the test: at each call the server's database must have no
// transaction open (on PGlite: must answer at all), and once the calls are answered the request
// ends as it would have without the hold. Refresh tokens stay single-use when the hook answers
// while another use of the same token rotates it.

const PUBLIC_URL = "https://gatehouse.test";
const LINK = /[?&]token=(gml_[A-Za-z0-9_-]+)/;
const CODE = /\b(\d{6})\b/;

describe("hooks are called with no transaction open", () => {
  const desk = useHookDesk({ smtp: true, env: { PUBLIC_URL } });
  let idp: OidcProviderHarness;
  beforeAll(async () => {
    idp = await startOidcProvider();
  });
  afterAll(() => idp?.close());

  /** A project whose hooks (custom_access_token, and before_user_created when asked) add `tier`. */
  async function hookedProject(app: AuthFixture, kinds = ["custom_access_token"]): Promise<AuthFixture> {
    desk.answer(app.projectId, (body) =>
      body.type === "before_user_created" ? { decision: "allow" } : { claims: { tier: `gold-${body.claims.sid}` } },
    );
    for (const kind of kinds) await desk.setHook(app, kind);
    return app;
  }

  /**
   * Runs `request` with the project's hook calls held; at each of the `calls` calls checks that
   * the server has no transaction open, then answers it. Answers the request's answer.
   */
  async function whileHeld(app: AuthFixture, calls: number, request: () => Promise<HttpAnswer>): Promise<HttpAnswer> {
    const before = desk.calls(app.projectId).length;
    desk.hold(app.projectId);
    let settled: HttpAnswer | undefined;
    const pending = request().then((answer) => (settled = answer));
    try {
      for (let call = 1; call <= calls; call++) {
        await eventually(`hook call ${call} of the request`, () => {
          if (settled) throw new Error(`answered before hook call ${call}: ${JSON.stringify(settled.body)}`);
          return desk.calls(app.projectId).length >= before + call;
        });
        await expectNoTransactionHeld(desk, `during hook call ${call}`);
        desk.releaseOne(app.projectId);
      }
    } finally {
      desk.release(app.projectId);
    }
    return pending;
  }

  /** The token answered carries the claim the hook added for its session. */
  function expectHookClaim(answer: HttpAnswer): void {
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const claims = decodeJwt(answer.body.access_token);
    expect(claims.tier).toBe(`gold-${String(claims.sid)}`);
  }

  it("password sign-in and Refresh", async () => {
    const app = await authFixture(desk.server);
    const { email, password } = await app.signup();
    await hookedProject(app);
    const login = await whileHeld(app, 1, () => app.call("POST", "/v1/auth/login", { email, password }));
    expectHookClaim(login);
    const refreshed = await whileHeld(app, 1, () =>
      app.call("POST", "/v1/auth/token/refresh", { refresh_token: login.body.refresh_token }),
    );
    expectHookClaim(refreshed);
    expect(decodeJwt(refreshed.body.access_token).sid).toBe(decodeJwt(login.body.access_token).sid);
  });

  it("Signup with a verification mail (one transaction): both hooks", async () => {
    const app = await hookedProject(await authFixture(desk.server, { sendVerification: true }), [
      "before_user_created",
      "custom_access_token",
    ]);
    const email = `verify-${Date.now()}@example.com`;
    const signup = await whileHeld(app, 2, () =>
      app.call("POST", "/v1/auth/signup", { email, password: "a sturdy passphrase 1" }),
    );
    expectHookClaim(signup);
    expect(decodeJwt(signup.body.access_token).sub).toBe(signup.body.user.id);
    expect(desk.calls(app.projectId).map((c) => c.body.type)).toEqual(["before_user_created", "custom_access_token"]);
    // The token's subject is the user the hook was shown, and the one written.
    expect(desk.calls(app.projectId)[1].body.user.id).toBe(signup.body.user.id);
    await desk.smtp.waitFor(email);
  });

  it("VerifyOtp that creates the user, and one that signs an existing user in", async () => {
    const app = await hookedProject(await authFixture(desk.server), ["before_user_created", "custom_access_token"]);
    const email = `otp-${Date.now()}@example.com`;
    for (const [nth, calls] of [
      [1, 2],
      [2, 1],
    ] as const) {
      expect((await app.call("POST", "/v1/auth/otp/send", { email })).status).toBe(200);
      const code = CODE.exec((await desk.smtp.waitFor(email, { nth })).text)![1];
      expectHookClaim(await whileHeld(app, calls, () => app.call("POST", "/v1/auth/otp/verify", { email, otp: code })));
      // Before the next send: the address's one-a-minute limit.
      desk.clock.advance(61_000);
    }
    const users = await desk.sql(`SELECT count(*)::int AS n FROM users WHERE project_id = $1`, [app.projectId]);
    expect(users[0].n).toBe(1);
  });

  it("VerifyMagicLink", async () => {
    const app = await authFixture(desk.server);
    const { email } = await app.signup();
    await hookedProject(app);
    expect((await app.call("POST", "/v1/auth/magic-link/send", { email })).status).toBe(200);
    const token = LINK.exec((await desk.smtp.waitFor(email)).text)![1];
    expectHookClaim(await whileHeld(app, 1, () => app.call("POST", "/v1/auth/magic-link/verify", { token })));
  });

  it("VerifyMfa answering a sign-in's challenge", async () => {
    const app = await authFixture(desk.server);
    const user = await totpUser(app, desk.clock);
    await hookedProject(app);
    const mfaToken = await challenge(app, user);
    const code = await freshCode(user.secret, desk.clock);
    const verified = await whileHeld(app, 1, () =>
      app.call("POST", "/v1/auth/mfa/verify", { mfa_token: mfaToken, code }),
    );
    expectHookClaim(verified);
    expect(decodeJwt(verified.body.access_token).amr).toEqual(["pwd", "totp"]);
  });

  it("a passkey sign-in", async () => {
    const app = await passkeyProject(desk.server);
    const device = authenticator();
    await passkeyUser(app, device);
    await hookedProject(app);
    expectHookClaim(await whileHeld(app, 1, () => passkeySignIn(app, device)));
  });

  it("an SSO sign-in that creates the user: both hooks, at the callback", async () => {
    const app = await hookedProject(await authFixture(desk.server), ["before_user_created", "custom_access_token"]);
    const clientId = `client-${app.projectId}`;
    idp.addClient({
      clientId,
      clientSecret: "a client secret of the test provider",
      redirectUris: [`${PUBLIC_URL}/v1/auth/sso/callback`],
      tokenEndpointAuthMethod: "client_secret_basic",
    });
    const connection = await injectHttp(desk.server.handle, `/v1/projects/${app.projectId}/sso-connections`, {
      headers: await app.admin(),
      body: {
        name: "Test IdP",
        issuer: idp.issuer,
        client_id: clientId,
        client_secret: "a client secret of the test provider",
        trust_emails: true,
      },
    });
    expect(connection.status, JSON.stringify(connection.body)).toBe(200);
    const email = `sso-${Date.now()}@example.com`;
    idp.setAccount(`acct-${app.projectId}`, { email, email_verified: true });
    const start = await app.call("POST", "/v1/auth/sso/authorize", { connection_id: connection.body.id });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const back = new URL(await idp.signIn(start.body.authorization_url, `acct-${app.projectId}`));
    const callback = await whileHeld(app, 2, async () => {
      const res = await fetch(`${desk.server.url}${back.pathname}${back.search}`, { redirect: "manual" });
      return { status: res.status, headers: res.headers, body: await res.text() };
    });
    expect(callback.status, callback.body).toBe(302);
    const fragment = new URLSearchParams(new URL(callback.headers.get("location")!).hash.slice(1));
    expectHookClaim({ status: 200, headers: callback.headers, body: { access_token: fragment.get("access_token") } });
    expect(desk.calls(app.projectId).map((c) => c.body.type)).toEqual(["before_user_created", "custom_access_token"]);
    expect(desk.calls(app.projectId)[0].body).toMatchObject({ method: "sso", user: { email, email_verified: true } });
  });

  it("CreateUser and InviteUser ask before_user_created outside their transactions", async () => {
    const app = await hookedProject(await authFixture(desk.server), ["before_user_created"]);
    const created = await whileHeld(app, 1, () =>
      app.call("POST", "/v1/auth/users", { email: `made-${Date.now()}@example.com` }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const invited = await whileHeld(app, 1, () =>
      app.call("POST", "/v1/auth/users/invite", { email: `invited-${Date.now()}@example.com` }),
    );
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
  });

  describe("Refresh stays single-use while its hook answers", () => {
    /** Two uses of one refresh token, both waiting at the hook (neither holds the token's lock meanwhile). */
    async function twoUses(app: AuthFixture, token: string) {
      const answers: HttpAnswer[] = [];
      desk.hold(app.projectId);
      const before = desk.calls(app.projectId).length;
      const uses = [0, 1].map(() =>
        app.call("POST", "/v1/auth/token/refresh", { refresh_token: token }).then((a) => (answers.push(a), a)),
      );
      await desk.waitForCalls(app.projectId, before + 2);
      await expectNoTransactionHeld(desk, "two refreshes at the hook");
      return { answers, uses };
    }
    const sessionTokens = async (sid: unknown) =>
      desk.sql(`SELECT rotated_at FROM refresh_tokens WHERE session_id = $1 ORDER BY created_at`, [sid]);

    it("within the grace window: one rotation, and both get its pair", async () => {
      const app = await authFixture(desk.server);
      const { body } = await app.signup();
      await hookedProject(app);
      const { answers, uses } = await twoUses(app, body.refresh_token);
      desk.releaseOne(app.projectId);
      await eventually("the first use answered", () => answers.length === 1);
      desk.release(app.projectId);
      const [first, second] = await Promise.all(uses);
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.body).toEqual(first.body);
      expectHookClaim(first);
      const rows = await sessionTokens(decodeJwt(body.access_token).sid);
      expect(rows.map((r: { rotated_at: Date | null }) => r.rotated_at !== null)).toEqual([true, false]);
    });

    it("an answer that comes after the grace window finds the token rotated: reuse, and the session ends", async () => {
      const app = await authFixture(desk.server);
      const { body } = await app.signup();
      await hookedProject(app);
      const { answers } = await twoUses(app, body.refresh_token);
      desk.releaseOne(app.projectId);
      const rotated = await eventually("the first use answered", () => answers[0]);
      expectHookClaim(rotated);
      desk.clock.advance(REFRESH_GRACE_MS + 1_000);
      desk.release(app.projectId);
      const late = await eventually("the second use answered", () => answers[1]);
      expect({ status: late.status, reason: late.body.reason }).toEqual({
        status: 401,
        reason: "REFRESH_TOKEN_REUSED",
      });
      // The session is revoked for everyone: the rotated pair is dead too.
      const next = await app.call("POST", "/v1/auth/token/refresh", { refresh_token: rotated.body.refresh_token });
      expect({ status: next.status, reason: next.body.reason }).toEqual({
        status: 401,
        reason: "INVALID_REFRESH_TOKEN",
      });
      expect((await app.call("POST", "/v1/auth/token/verify", { token: rotated.body.access_token })).body.valid).toBe(
        false,
      );
      expect(await sessionTokens(decodeJwt(body.access_token).sid)).toHaveLength(2);
    });
  });

  describe("what the hook was shown is what the token carries", () => {
    /** A user whose app_metadata the hook's answer changes (as an admin could, meanwhile) `changes` times. */
    async function changingUser(changes: number) {
      const app = await authFixture(desk.server);
      const { body } = await app.signup();
      const userId: string = body.user.id;
      const setPlan = async (plan: string) =>
        expect((await app.call("PATCH", `/v1/auth/users/${userId}`, { app_metadata: { plan } })).status).toBe(200);
      await setPlan("plan-0");
      await desk.setHook(app, "custom_access_token");
      let calls = 0;
      desk.answer(app.projectId, async (hook) => {
        calls++;
        if (calls <= changes) await setPlan(`plan-${calls}`);
        return { claims: { plan_seen: hook.user.app_metadata.plan } };
      });
      return { app, refreshToken: body.refresh_token as string };
    }

    it("a user changed while the hook answered is asked about again: the token and its claims agree", async () => {
      const { app, refreshToken } = await changingUser(1);
      const refreshed = await app.call("POST", "/v1/auth/token/refresh", { refresh_token: refreshToken });
      expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
      const claims = decodeJwt(refreshed.body.access_token);
      expect(claims.app_metadata).toEqual({ plan: "plan-1" });
      expect(claims.plan_seen).toBe("plan-1");
      expect(desk.calls(app.projectId).map((c) => c.body.user.app_metadata.plan)).toEqual(["plan-0", "plan-1"]);
    });

    it("a user that keeps changing: after four calls the hook counts as failed (open: no extra claims)", async () => {
      const { app, refreshToken } = await changingUser(100);
      const refreshed = await app.call("POST", "/v1/auth/token/refresh", { refresh_token: refreshToken });
      expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
      const claims = decodeJwt(refreshed.body.access_token);
      expect(claims).not.toHaveProperty("plan_seen");
      expect(claims.app_metadata).toEqual({ plan: "plan-4" });
      expect(desk.calls(app.projectId)).toHaveLength(4);
    });
  });
});
