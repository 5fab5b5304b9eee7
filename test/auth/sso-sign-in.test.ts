import { describe, expect, it } from "vitest";
import { http } from "../helpers/clients.js";
import { authFixture } from "./helpers.js";
import { enrollTotp, expectReason, freshCode, parseTotpUri, verifyMfa } from "./mfa-helpers.js";
import { usagePeriod } from "./passwordless-helpers.js";
import { CALLBACK_URL, useSsoApp } from "./sso-helpers.js";
import {
  browserGet,
  expectPage,
  expectTokens,
  getUser,
  newAccount,
  passwordLogin,
  refresh,
  rowCounts,
  verifiedClaims,
} from "./sso-checks.js";

// Behaviour: signing in through an OpenID provider, over the wire with a real provider. A new
// identity becomes a verified user with no password; the same identity comes back as the same
// user (by issuer and subject, whatever its email becomes); MFA still stands between SSO and a
// session; the sign-in is counted; a browser can start it from a plain link.

const world = useSsoApp();
const { ctx } = world;
const { clock } = ctx;

describe("SSO sign-in", () => {
  it("a new user: tokens in the redirect_url's fragment, verified with amr sso, refreshable; the user is verified, has no password and shows the identity", async () => {
    const account = newAccount(world.idp, "newcomer");
    const before = await rowCounts(ctx, world.app.projectId);
    const tokens = expectTokens(await world.signIn(world.app, world.connection, account.id));

    const claims = await verifiedClaims(world.app, tokens.accessToken);
    expect(claims).toMatchObject({ amr: ["sso"], email: account.email, project_id: world.app.projectId });
    const refreshed = await refresh(world.app, tokens.refreshToken);
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect((await verifiedClaims(world.app, refreshed.body.access_token)).amr).toEqual(["sso"]);

    const user = await getUser(world.app, claims.sub);
    expect(user).toMatchObject({ id: claims.sub, email: account.email, email_verified: true, disabled: false });
    expect(user.identities).toEqual([
      {
        id: expect.stringMatching(/^idn_[0-9a-z]{26}$/),
        connection_id: world.connection,
        connection_name: "Test IdP",
        connection_provider: "oidc",
        provider: world.idp.issuer,
        subject: account.id,
        email: account.email,
        linked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    // No password was ever set: none can sign in.
    expectReason(await passwordLogin(world.app, account.email, "a sturdy passphrase 1"), 401, "INVALID_CREDENTIALS");
    expect(await rowCounts(ctx, world.app.projectId)).toEqual({
      users: before.users + 1,
      sessions: before.sessions + 1,
      identities: before.identities + 1,
    });
  });

  it("a returning user is the same user with one identity, even after the email changes at the provider and another user holds the new one", async () => {
    const account = newAccount(world.idp, "returning");
    const first = await verifiedClaims(
      world.app,
      expectTokens(await world.signIn(world.app, world.connection, account.id)).accessToken,
    );
    const second = await verifiedClaims(
      world.app,
      expectTokens(await world.signIn(world.app, world.connection, account.id)).accessToken,
    );
    expect(second.sub).toBe(first.sub);
    expect(second.sid).not.toBe(first.sid);

    // The new address belongs to a password user here: the link by subject still wins, and
    // that other user is left alone (the pre-takeover guard is for linking by email only).
    const other = await world.app.signup(`moved-${account.id}@example.com`);
    world.idp.setAccount(account.id, { email: other.email, email_verified: true });
    const third = await verifiedClaims(
      world.app,
      expectTokens(await world.signIn(world.app, world.connection, account.id)).accessToken,
    );
    expect(third.sub).toBe(first.sub);
    expect((await getUser(world.app, first.sub)).identities).toHaveLength(1);
    expect((await getUser(world.app, other.body.user.id)).identities).toEqual([]);
    expect((await passwordLogin(world.app, other.email, other.password)).status).toBe(200);
  });

  it("a user with TOTP gets an MFA challenge in the fragment and no tokens; VerifyMfa with a code gives amr sso, totp", async () => {
    const account = newAccount(world.idp, "mfa");
    const tokens = expectTokens(await world.signIn(world.app, world.connection, account.id));
    const { secret } = await enrollTotp(world.app, clock, tokens.accessToken);

    const answer = await world.signIn(world.app, world.connection, account.id);
    expect(answer.status).toBe(302);
    expect(answer.location!.startsWith("https://app.example.com/callback#")).toBe(true);
    expect(Object.fromEntries(answer.fragment)).toEqual({
      mfa_required: "true",
      mfa_token: expect.stringMatching(/^gmfa_/),
      mfa_methods: "totp",
      expires_in: "300",
    });

    const done = await verifyMfa(world.app, {
      mfa_token: answer.fragment.get("mfa_token"),
      code: await freshCode(secret, clock),
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const claims = await verifiedClaims(world.app, done.body.access_token);
    expect(claims.amr).toEqual(["sso", "totp"]);
    expect(claims.sub).toBe((await verifiedClaims(world.app, tokens.accessToken)).sub);
  });

  it("in a project with mfa_required, a new SSO user gets the enrollment challenge, and enrolling gives amr sso, totp", async () => {
    const strict = await authFixture(ctx.server, { mfaRequired: true });
    const strictConnection = await world.connect(strict);
    const account = newAccount(world.idp, "strict");
    const answer = await world.signIn(strict, strictConnection, account.id);
    expect(answer.status).toBe(302);
    expect(Object.fromEntries(answer.fragment)).toEqual({
      mfa_required: "true",
      mfa_token: expect.stringMatching(/^gmfa_/),
      mfa_methods: "",
      expires_in: "300",
    });
    expect((await rowCounts(ctx, strict.projectId)).sessions).toBe(0);

    const mfaToken = answer.fragment.get("mfa_token");
    const start = await strict.call("POST", "/v1/auth/mfa/enroll", { method: "totp", mfa_token: mfaToken });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const done = await strict.call("POST", "/v1/auth/mfa/verify", {
      mfa_token: mfaToken,
      code: await freshCode(parseTotpUri(start.body.totp_uri).secret, clock),
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect((await verifiedClaims(strict, done.body.access_token)).amr).toEqual(["sso", "totp"]);
  });

  it("usage counts a first SSO sign-in as a signup and the next as an sso login", async () => {
    const counted = await authFixture(ctx.server);
    const countedConnection = await world.connect(counted);
    const account = newAccount(world.idp, "usage");
    expectTokens(await world.signIn(counted, countedConnection, account.id));
    const usage = async () =>
      (
        await http(`${ctx.server.url}/v1/usage?project_id=${counted.projectId}&${usagePeriod(clock.now())}`, {
          headers: await counted.admin(),
        })
      ).body;
    expect(await usage()).toMatchObject({ mau: 1, total_logins: 0, sso_logins: 0, tokens_issued: 1 });
    expectTokens(await world.signIn(counted, countedConnection, account.id));
    expect(await usage()).toMatchObject({
      mau: 1,
      total_logins: 1,
      sso_logins: 1,
      passwordless_logins: 0,
      tokens_issued: 2,
    });
  });
});

describe("the browser entry GET /v1/auth/sso/authorize", () => {
  const entry = (params: Record<string, string>) =>
    browserGet(`${ctx.server.url}/v1/auth/sso/authorize?${new URLSearchParams(params).toString()}`);

  it("needs no API key: 302 to the provider with state, nonce and an S256 challenge; following it signs in at the redirect_url", async () => {
    const account = newAccount(world.idp, "browser");
    const redirectUrl = "https://app.example.com/signed-in";
    const start = await entry({
      login_id: world.app.loginId,
      connection_id: world.connection,
      redirect_url: redirectUrl,
    });
    expect(start.status, start.body).toBe(302);
    expect(start.headers.get("cache-control")).toBe("no-store");
    const authorization = new URL(start.headers.get("location")!);
    expect(authorization.origin).toBe(new URL(world.idp.issuer).origin);
    const q = Object.fromEntries(authorization.searchParams);
    expect(q).toMatchObject({ response_type: "code", redirect_uri: CALLBACK_URL, code_challenge_method: "S256" });
    expect(q.state).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(q.nonce).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(q.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.scope.split(" ")).toContain("openid");

    const tokens = expectTokens(
      await world.callback(await world.idp.signIn(authorization.href, account.id)),
      redirectUrl,
    );
    expect(await verifiedClaims(world.app, tokens.accessToken)).toMatchObject({ email: account.email, amr: ["sso"] });
  });

  const refusals: Array<[string, () => Record<string, string>, RegExp]> = [
    [
      "an unknown login_id",
      () => ({ login_id: `lp_${"0".repeat(26)}`, connection_id: world.connection }),
      /names no project/,
    ],
    [
      "a malformed login_id",
      () => ({ login_id: "lp_NOPE", connection_id: world.connection }),
      /login_id is missing or malformed/,
    ],
    ["no login_id", () => ({ connection_id: world.connection }), /login_id is missing or malformed/],
    [
      "a redirect_url that is not http(s)",
      () => ({ login_id: world.app.loginId, connection_id: world.connection, redirect_url: "javascript:alert(1)" }),
      /not an http\(s\) URL/,
    ],
    [
      "a redirect_url of a foreign origin",
      () => ({
        login_id: world.app.loginId,
        connection_id: world.connection,
        redirect_url: "https://evil.example.net/cb",
      }),
      /cannot start/,
    ],
    [
      "an unknown connection",
      () => ({ login_id: world.app.loginId, connection_id: "sso_00000000000000000000000000" }),
      /cannot start/,
    ],
    [
      "a malformed code_challenge",
      () => ({ login_id: world.app.loginId, connection_id: world.connection, code_challenge: "short" }),
      /code_challenge/,
    ],
  ];
  for (const [name, params, words] of refusals) {
    it(`${name} answers a 400 HTML page, not JSON, and starts no flow`, async () => {
      const flows = async () => Number((await ctx.sql("SELECT count(*) AS n FROM sso_flows"))[0].n);
      const before = await flows();
      const res = await entry(params());
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("location")).toBeNull();
      expectPage(
        { status: res.status, body: res.body, fragment: new URLSearchParams(), query: new URLSearchParams() },
        words,
      );
      expect(await flows()).toBe(before);
    });
  }

  it("its pages speak the browser's language, or the one the link asks for (Arabic right to left)", async () => {
    const unknownConnection = { login_id: world.app.loginId, connection_id: "sso_00000000000000000000000000" };
    const german = await browserGet(
      `${ctx.server.url}/v1/auth/sso/authorize?${new URLSearchParams(unknownConnection).toString()}`,
      {
        "accept-language": "de-CH, de;q=0.9, en;q=0.5",
      },
    );
    expect(german.status).toBe(400);
    expect(german.body).toContain('<html lang="de" dir="ltr">');
    expect(german.body).toContain("Anmeldung fehlgeschlagen");
    // The reason in the same words as the pages and the SDK give it.
    expect(german.body).toContain("Diese Anmeldung kann nicht beginnen. Diese Anmeldeoption ist nicht verfügbar.");

    const arabic = await browserGet(`${ctx.server.url}/v1/auth/sso/callback?state=spent&lang=ar`);
    expect(arabic.status).toBe(400);
    expect(arabic.body).toContain('<html lang="ar" dir="rtl">');
    expect(arabic.body).toContain("تسجيل الدخول هذا استُخدم من قبل أو لم يبدأ قط");
  });
});
