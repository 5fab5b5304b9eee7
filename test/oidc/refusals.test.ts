import * as oidc from "openid-client";
import { describe, expect, it } from "vitest";
import {
  authorize,
  CookieBrowser,
  PASSWORD,
  REDIRECT_URI,
  useOpenidWorld,
  type OpenidProject,
} from "../helpers/openid-provider-world.js";

// What the OpenID Provider refuses, each as the standard OAuth error a client library reads
// (RFC 6749 sections 4.1.2.1 and 5.2), and what ends the tokens it issued: a replayed code, a
// revoked Gatehouse session, a disabled user.

const world = useOpenidWorld();

async function confidentialClient(p: OpenidProject) {
  const { client_id, client_secret } = await p.createClient({
    name: "Wiki",
    type: "confidential",
    redirect_uris: [REDIRECT_URI],
    grant_types: ["authorization_code", "refresh_token"],
  });
  return { clientId: client_id, secret: client_secret, config: await p.discover(client_id, client_secret) };
}

/** The raw token endpoint answer for a code, so a test sees the error a library would throw on. */
async function redeem(p: OpenidProject, code: string, verifier: string, auth: string) {
  const res = await fetch(`${p.issuer}/oauth/token`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

describe("authorization request refusals", () => {
  it("an unregistered redirect URI is answered on a page, never by sending the browser there", async () => {
    const p = await world.project();
    const { config } = await confidentialClient(p);
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: "https://evil.example.com/callback",
      scope: "openid",
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    });
    const res = await new CookieBrowser().request(url.href);
    expect(res.status).toBe(400);
    expect(res.location).toBe("");
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.body).toContain("The application asked to return to an address it has not registered.");
  });

  it("a public client must send a PKCE S256 challenge", async () => {
    const p = await world.project();
    const { client_id } = await p.createClient({ name: "SPA", type: "public", redirect_uris: [REDIRECT_URI] });
    const config = await p.discover(client_id);
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT_URI, scope: "openid", state: "s1" });
    const res = await new CookieBrowser().request(url.href);
    const back = new URL(res.location);
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("error_description")).toMatch(/PKCE/);
    expect(back.searchParams.get("state")).toBe("s1");
    const plain = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: "openid",
      code_challenge: "x".repeat(43),
      code_challenge_method: "plain",
    });
    const refused = new URL((await new CookieBrowser().request(plain.href)).location);
    expect(refused.searchParams.get("error")).toBe("invalid_request");
  });

  it("a client of another project is unknown here", async () => {
    const p = await world.project();
    const other = await world.project();
    const { client_id } = await other.createClient({
      name: "Elsewhere",
      type: "public",
      redirect_uris: [REDIRECT_URI],
    });
    const url = new URL(`${p.issuer}/oauth/authorize`);
    url.search = new URLSearchParams({
      client_id,
      redirect_uri: REDIRECT_URI,
      response_type: "code",
      scope: "openid",
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    }).toString();
    const res = await new CookieBrowser().request(url.href);
    expect(res.status).toBe(400);
    expect(res.location).toBe("");
    expect(res.body).toContain("This application is not registered with this sign-in service.");
  });

  it("a denied consent returns access_denied to the application", async () => {
    const p = await world.project();
    const { config } = await confidentialClient(p);
    await p.signUp("dora@example.com");
    const { callback, state } = await authorize(world, p, config, "dora@example.com", { consent: false });
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("state")).toBe(state);
    expect(callback.searchParams.get("code")).toBeNull();
  });
});

describe("interaction refusals", () => {
  it("an interaction is answered only from the hosted pages' origin, with a live access token, once", async () => {
    const p = await world.project();
    const { config } = await confidentialClient(p);
    await p.signUp("ines@example.com");
    const browser = new CookieBrowser();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: "openid",
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    });
    const hop = await browser.follow(url.href, world.publicUrl);
    const uid = new URL(hop.url).searchParams.get("oauth")!;
    const login = `${p.issuer}/oauth/interaction/${uid}/login`;
    const token = await p.signIn("ines@example.com");
    const foreign = await fetch(login, {
      method: "POST",
      headers: {
        origin: "https://evil.example.com",
        "content-type": "application/json",
        cookie: browser.cookieHeader(),
      },
      body: JSON.stringify({ access_token: token }),
    });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { reason: string }).reason).toBe("ORIGIN_NOT_ALLOWED");
    const forged = await browser.request(login, { json: { access_token: `${token}x` } });
    expect(forged).toMatchObject({ status: 401, body: { reason: "INVALID_ACCESS_TOKEN" } });
    const other = await world.project();
    await other.signUp("ines@example.com");
    const elsewhere = await browser.request(login, { json: { access_token: await other.signIn("ines@example.com") } });
    expect(elsewhere.body.reason).toBe("INVALID_ACCESS_TOKEN");
    // Without the interaction's cookie (another browser), the request reads as expired.
    const stranger = await new CookieBrowser().request(login, { json: { access_token: token } });
    expect(stranger).toMatchObject({ status: 400, body: { reason: "AUTHORIZATION_REQUEST_EXPIRED" } });
    const done = await browser.request(login, { json: { access_token: token } });
    expect(done.status).toBe(200);
    await browser.follow(done.body.redirect_to, world.publicUrl);
    const again = await browser.request(login, { json: { access_token: token } });
    expect(again.body.reason).toBe("AUTHORIZATION_REQUEST_EXPIRED");
  });
});

describe("token endpoint refusals", () => {
  it("a wrong secret, a wrong verifier, an expired code", async () => {
    const p = await world.project();
    const { clientId, secret, config } = await confidentialClient(p);
    await p.signUp("eve@example.com");

    const first = await authorize(world, p, config, "eve@example.com");
    const code = first.callback.searchParams.get("code")!;
    const wrongSecret = await redeem(p, code, first.verifier, basic(clientId, `${secret}x`));
    expect(wrongSecret).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    // The secret is stored as a hash only; a secret of the right shape from elsewhere fails too.
    const otherSecret = await redeem(p, code, first.verifier, basic(clientId, "gcs_" + "A".repeat(43)));
    expect(otherSecret.body.error).toBe("invalid_client");
    const wrongVerifier = await redeem(p, code, oidc.randomPKCECodeVerifier(), basic(clientId, secret));
    expect(wrongVerifier).toMatchObject({ status: 400, body: { error: "invalid_grant" } });

    const second = await authorize(world, p, config, "eve@example.com");
    // Codes live 60 seconds.
    world.clock.advance(61_000);
    const late = await redeem(p, second.callback.searchParams.get("code")!, second.verifier, basic(clientId, secret));
    expect(late).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });

  it("the secret may also come in the body (client_secret_post)", async () => {
    const p = await world.project();
    const { clientId, secret, config } = await confidentialClient(p);
    await p.signUp("ezra@example.com");
    const flow = await authorize(world, p, config, "ezra@example.com");
    const res = await fetch(`${p.issuer}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: flow.callback.searchParams.get("code")!,
        redirect_uri: REDIRECT_URI,
        code_verifier: flow.verifier,
        client_id: clientId,
        client_secret: secret,
      }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { token_type: string }).token_type).toBe("Bearer");
  });

  it("a replayed code is refused and ends the tokens the first use issued", async () => {
    const p = await world.project();
    const { clientId, secret, config } = await confidentialClient(p);
    await p.signUp("finn@example.com");
    const { callback, verifier } = await authorize(world, p, config, "finn@example.com");
    const code = callback.searchParams.get("code")!;
    const first = await redeem(p, code, verifier, basic(clientId, secret));
    expect(first.status).toBe(200);
    expect((await p.call("POST", "/v1/auth/token/verify", { token: first.body.access_token })).body.valid).toBe(true);
    const replay = await redeem(p, code, verifier, basic(clientId, secret));
    expect(replay).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await p.call("POST", "/v1/auth/token/verify", { token: first.body.access_token })).body.valid).toBe(false);
    await expect(oidc.refreshTokenGrant(config, first.body.refresh_token)).rejects.toMatchObject({
      error: "invalid_grant",
    });
  });
});

describe("tokens end with the Gatehouse session they came from", () => {
  async function signedIn(email: string) {
    const p = await world.project();
    const client = await confidentialClient(p);
    const userId = await p.signUp(email);
    const flow = await authorize(world, p, client.config, email);
    const tokens = await oidc.authorizationCodeGrant(client.config, flow.callback, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
    });
    return { p, userId, tokens, browser: flow.browser, ...client };
  }

  it("the user signs out everywhere: refresh, userinfo and VerifyToken refuse", async () => {
    const { p, userId, tokens, config, browser } = await signedIn("gus@example.com");
    const own = await p.signIn("gus@example.com");
    const out = await p.call("POST", "/v1/auth/sessions/revoke-all", {}, own);
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: "invalid_grant",
    });
    await expect(oidc.fetchUserInfo(config, tokens.access_token, userId)).rejects.toThrow();
    expect((await p.call("POST", "/v1/auth/token/verify", { token: tokens.access_token })).body.valid).toBe(false);
    // The provider's session ended with it: the same browser is asked to sign in again.
    const again = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: "openid",
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    });
    const hop = await browser.follow(again.href, world.publicUrl);
    expect(new URL(hop.url).pathname).toBe(`/v1/auth/${p.project.loginId}/login`);
  });

  it("the user changes their password elsewhere: the application's refresh token ends with the other sessions", async () => {
    const { p, tokens, config } = await signedIn("jo@example.com");
    const own = await p.signIn("jo@example.com");
    const changed = await p.call(
      "POST",
      "/v1/auth/password/change",
      { current_password: PASSWORD, new_password: "another sturdy passphrase 2" },
      own,
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: "invalid_grant",
    });
  });

  it("an admin disables the user: refresh is refused", async () => {
    const { p, userId, tokens, config } = await signedIn("hana@example.com");
    const disabled = await p.call("PATCH", `/v1/auth/users/${userId}`, { disabled: true });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: "invalid_grant",
    });
    expect((await p.call("POST", "/v1/auth/token/verify", { token: tokens.access_token })).body.valid).toBe(false);
  });

  it("the user withdraws consent: the application's tokens stop at once", async () => {
    const { p, userId, tokens, config, clientId } = await signedIn("ivan@example.com");
    const own = await p.signIn("ivan@example.com");
    const revoked = await p.call("DELETE", `/v1/auth/authorized-apps/${clientId}`, undefined, own);
    expect(revoked.body).toEqual({ revoked: true, client_id: clientId });
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: "invalid_grant",
    });
    await expect(oidc.fetchUserInfo(config, tokens.access_token, userId)).rejects.toThrow();
  });
});
