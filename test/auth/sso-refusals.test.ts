import { describe, expect, it } from "vitest";
import { authFixture } from "./helpers.js";
import { expectReason } from "./mfa-helpers.js";
import { useSsoApp } from "./sso-helpers.js";
import { browserGet, expectFragmentError, expectPage, expectTokens, newAccount, rowCounts } from "./sso-checks.js";
import { injectHttp } from "../helpers/inject.js";

// Threats around the SSO flow itself: tokens delivered to an origin the project never allowed
// (an open redirect turned token thief), a sign-in through another project's connection, a
// disabled user let back in through SSO, a sign-in finishing through a connection deleted
// meanwhile, and tokens leaking through a query string, a cache or a Referer.

const world = useSsoApp();
const { ctx } = world;

const authorize = (body: Record<string, unknown>, fixture = world.app) =>
  fixture.call("POST", "/v1/auth/sso/authorize", { connection_id: world.connection, ...body });
const flowRows = async () => Number((await ctx.sql("SELECT count(*) AS n FROM sso_flows"))[0].n);

describe("SsoAuthorize", () => {
  for (const redirectUrl of [
    "https://evil.example.net/callback",
    "https://app.example.com.evil.net/callback",
    "http://app.example.com/callback",
    "https://app.example.com:8443/callback",
  ]) {
    it(`refuses redirect_url ${redirectUrl}: REDIRECT_NOT_ALLOWED, and no flow row is written`, async () => {
      const before = await flowRows();
      expectReason(await authorize({ redirect_url: redirectUrl }), 400, "REDIRECT_NOT_ALLOWED");
      expect(await flowRows()).toBe(before);
    });
  }

  it("an allowed override (an allowed origin's URL) is where the callback lands", async () => {
    const override = "https://app.example.com/after-sso";
    const tokens = expectTokens(
      await world.signIn(world.app, world.connection, newAccount(world.idp, "override").id, { redirectUrl: override }),
      override,
    );
    expect(tokens.accessToken).toBeTruthy();
  });

  it("an unknown connection, a malformed id and another project's connection are SSO_CONNECTION_NOT_FOUND", async () => {
    const other = await authFixture(ctx.server);
    const othersConnection = await world.connect(other);
    const before = await flowRows();
    for (const id of ["sso_00000000000000000000000000", "sso_nope", othersConnection, world.app.projectId]) {
      expectReason(await authorize({ connection_id: id }), 404, "SSO_CONNECTION_NOT_FOUND");
    }
    expect(await flowRows()).toBe(before);
    // The connection itself works, in its own project.
    expectTokens(await world.signIn(other, othersConnection, newAccount(world.idp, "own-project").id));
  });
});

describe("the SSO callback refuses", () => {
  it("a disabled user: #error=user_disabled and no new session", async () => {
    const account = newAccount(world.idp, "disabled");
    const first = expectTokens(await world.signIn(world.app, world.connection, account.id));
    const userId = (await world.app.call("POST", "/v1/auth/token/verify", { token: first.accessToken })).body.claims
      .sub;
    expect((await world.app.call("PATCH", `/v1/auth/users/${userId}`, { disabled: true })).status).toBe(200);

    const before = await rowCounts(ctx, world.app.projectId);
    expectFragmentError(await world.signIn(world.app, world.connection, account.id), "user_disabled");
    expect(await rowCounts(ctx, world.app.projectId)).toEqual(before);
  });

  it("a first sign-in in a project closed to signups: #error=signups_closed and nothing written; a linked user still signs in", async () => {
    const app = await authFixture(ctx.server);
    const connection = await world.connect(app);
    const member = newAccount(world.idp, "before-closing");
    expectTokens(await world.signIn(app, connection, member.id));
    const closed = await injectHttp(ctx.server.handle, `/v1/projects/${app.projectId}`, {
      method: "PATCH",
      headers: await app.admin(),
      body: { signups: "closed" },
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);

    const before = await rowCounts(ctx, app.projectId);
    expectFragmentError(
      await world.signIn(app, connection, newAccount(world.idp, "after-closing").id),
      "signups_closed",
    );
    expect(await rowCounts(ctx, app.projectId)).toEqual(before);
    expectTokens(await world.signIn(app, connection, member.id));
  });

  it("a sign-in whose connection was deleted meanwhile: the flow went with it, a 400 page, no exchange, no user", async () => {
    const doomed = await world.connect(world.app);
    const start = await authorize({ connection_id: doomed });
    expect(start.status).toBe(200);
    const redirect = await world.idp.signIn(start.body.authorization_url, newAccount(world.idp, "orphaned").id);
    const deleted = await injectHttp(ctx.server.handle, `/v1/sso-connections/${doomed}`, {
      method: "DELETE",
      headers: await world.app.admin(),
    });
    expect(deleted.body).toEqual({ deleted: true, id: doomed });

    const exchanges = world.idp.tokenRequests;
    const before = await rowCounts(ctx, world.app.projectId);
    expectPage(await world.callback(redirect), /already used or never started/);
    expect(world.idp.tokenRequests).toBe(exchanges);
    expect(await rowCounts(ctx, world.app.projectId)).toEqual(before);
  });

  it("deleting a connection removes the identities linked through it; the user stays", async () => {
    const passing = await world.connect(world.app);
    const account = newAccount(world.idp, "unlinked");
    const { accessToken } = expectTokens(await world.signIn(world.app, passing, account.id));
    const userId = (await world.app.call("POST", "/v1/auth/token/verify", { token: accessToken })).body.claims.sub;
    expect(
      (
        await injectHttp(ctx.server.handle, `/v1/sso-connections/${passing}`, {
          method: "DELETE",
          headers: await world.app.admin(),
        })
      ).status,
    ).toBe(200);
    const user = await world.app.call("GET", `/v1/auth/users/${userId}`);
    expect(user.body).toMatchObject({ id: userId, identities: [] });
  });
});

describe("what the callback's answers expose", () => {
  /** The provider's redirect for a new sign-in, answered by Gatehouse with its headers. */
  const rawCallback = async (options: { deny?: boolean } = {}) => {
    const start = await authorize({});
    const redirect = new URL(
      await world.idp.signIn(start.body.authorization_url, newAccount(world.idp, "headers").id, options),
    );
    return browserGet(`${ctx.server.url}${redirect.pathname}${redirect.search}`);
  };
  const expectPrivate = (headers: Headers) => {
    expect(headers.get("cache-control")).toBe("no-store");
    expect(headers.get("referrer-policy")).toBe("no-referrer");
  };

  it("tokens only in the fragment, never in the query; not cached, no Referer", async () => {
    const res = await rawCallback();
    expect(res.status).toBe(302);
    expectPrivate(res.headers);
    const location = res.headers.get("location")!;
    const [beforeHash, fragment] = location.split("#");
    expect(beforeHash).toBe("https://app.example.com/callback");
    expect(new URLSearchParams(fragment).get("access_token")).toMatch(/^ey/);
    for (const word of ["access_token", "refresh_token", "code=", "state="]) expect(beforeHash).not.toContain(word);
  });

  it("an error redirect and the page are not cached and send no Referer either", async () => {
    const denied = await rawCallback({ deny: true });
    expect(denied.status).toBe(302);
    expect(denied.headers.get("location")).toMatch(/^https:\/\/app\.example\.com\/callback#error=access_denied&/);
    expectPrivate(denied.headers);

    const page = await browserGet(`${ctx.server.url}/v1/auth/sso/callback?code=c&state=s`);
    expect(page.status).toBe(400);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expectPrivate(page.headers);
  });
});
