import * as oidc from "openid-client";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { http } from "../helpers/clients.js";
import {
  authorize,
  CookieBrowser,
  formFields,
  REDIRECT_URI,
  signInAtLoginPage,
  useOpenidWorld,
} from "../helpers/openid-provider-world.js";

// The authorization code flow with PKCE against a running Gatehouse, with openid-client as the
// relying party and a cookie jar as the browser: each hop is checked, the sign-in happens over
// the API (the hosted pages' part is test/pages/oauth-*.test.ts, in Chromium).

const world = useOpenidWorld();

describe("authorization code with PKCE", () => {
  it("signs a user in for a confidential client: ID token, JWT access token, userinfo, refresh", async () => {
    const p = await world.project();
    const { client_id, client_secret } = await p.createClient({
      name: "Wiki",
      type: "confidential",
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
    });
    const userId = await p.signUp("ada@example.com");
    const config = await p.discover(client_id, client_secret);
    const { callback, verifier, state } = await authorize(world, p, config, "ada@example.com");
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const idClaims = tokens.claims()!;
    expect(idClaims).toMatchObject({
      iss: p.issuer,
      sub: userId,
      aud: client_id,
      email: "ada@example.com",
      email_verified: false,
    });
    expect(idClaims.amr).toEqual(["pwd"]);
    const access = decodeJwt(tokens.access_token);
    expect(access).toMatchObject({ iss: p.issuer, sub: userId, aud: client_id, client_id, project_id: p.project.id });
    expect(String(access.scope).split(" ").sort()).toEqual(["email", "offline_access", "openid", "profile"]);
    const verified = await p.call("POST", "/v1/auth/token/verify", { token: tokens.access_token });
    expect(verified.body).toMatchObject({ valid: true, claims: { sub: userId, aud: client_id, client_id } });
    // Offline, as an API that receives it would: the JWKS, the issuer, the client as audience.
    const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
    const { protectedHeader } = await jwtVerify(tokens.access_token, jwks, { issuer: p.issuer, audience: client_id });
    expect(protectedHeader).toMatchObject({ alg: "ES256", typ: "at+jwt" });
    const info = await oidc.fetchUserInfo(config, tokens.access_token, userId);
    expect(info).toMatchObject({ sub: userId, email: "ada@example.com" });
    expect(tokens.refresh_token).toBeTruthy();
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(decodeJwt(refreshed.access_token).sub).toBe(userId);
    // The consent is in the audit log: who allowed which client what.
    const audit = await http(
      `${world.publicUrl}/v1/audit-events?project_id=${p.project.id}&type=user.authorized_app.granted`,
      { headers: p.admin },
    );
    expect(audit.body.data).toMatchObject([
      {
        user_id: userId,
        target_id: client_id,
        actor_type: "user",
        details: { scopes: ["openid", "email", "profile", "offline_access"], first_party: false },
      },
    ]);
  });

  it("a client allowed the app_metadata scope gets the user's app_metadata in the ID token and userinfo", async () => {
    const p = await world.project();
    const { client_id, client_secret } = await p.createClient({
      name: "Billing portal",
      type: "confidential",
      redirect_uris: [REDIRECT_URI],
      scopes: ["openid", "email", "app_metadata"],
    });
    const userId = await p.signUp("bo@example.com");
    const set = await p.call("PATCH", `/v1/auth/users/${userId}`, { app_metadata: { plan: "pro", seats: 5 } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const config = await p.discover(client_id, client_secret);
    const flow = await authorize(world, p, config, "bo@example.com", { scope: "openid email app_metadata" });
    const tokens = await oidc.authorizationCodeGrant(config, flow.callback, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
    });
    expect(tokens.claims()!.app_metadata).toEqual({ plan: "pro", seats: 5 });
    expect(await oidc.fetchUserInfo(config, tokens.access_token, userId)).toMatchObject({
      app_metadata: { plan: "pro", seats: 5 },
    });
    // A client not allowed the scope that asks for it is refused: invalid_scope, back at the client.
    const other = await p.createClient({ name: "Wiki", type: "confidential", redirect_uris: [REDIRECT_URI] });
    const otherConfig = await p.discover(other.client_id, other.client_secret);
    const url = oidc.buildAuthorizationUrl(otherConfig, {
      redirect_uri: REDIRECT_URI,
      scope: "openid app_metadata",
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    });
    const refused = new URL((await new CookieBrowser().request(url.href)).location);
    expect(refused.searchParams.get("error")).toBe("invalid_scope");
  });

  it("answers with response_mode=fragment: the code after the #", async () => {
    const p = await world.project();
    const { client_id, client_secret } = await p.createClient({
      name: "Wiki",
      type: "confidential",
      redirect_uris: [REDIRECT_URI],
      first_party: true,
    });
    await p.signUp("di@example.com");
    const config = await p.discover(client_id, client_secret);
    const browser = new CookieBrowser();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: "openid",
      response_mode: "fragment",
      state: "fr",
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    });
    const hop = await browser.follow(url.href, world.publicUrl);
    const back = new URL((await signInAtLoginPage(world, p, browser, hop.url, "di@example.com")).url);
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    expect(back.search).toBe("");
    const fragment = new URLSearchParams(back.hash.slice(1));
    expect(fragment.get("code")).toBeTruthy();
    expect(fragment.get("state")).toBe("fr");
  });

  it("answers with response_mode=form_post: a page whose script the CSP allows by its hash posts the code", async () => {
    const p = await world.project();
    const { client_id, client_secret } = await p.createClient({
      name: "Wiki",
      type: "confidential",
      redirect_uris: [REDIRECT_URI],
      first_party: true,
    });
    await p.signUp("cy@example.com");
    const config = await p.discover(client_id, client_secret);
    const browser = new CookieBrowser();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: "openid",
      response_mode: "form_post",
      state: "fp",
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    });
    const hop = await browser.follow(url.href, world.publicUrl);
    const resumed = await signInAtLoginPage(world, p, browser, hop.url, "cy@example.com");
    expect(resumed.status).toBe(200);
    const { action, fields } = formFields(resumed.body);
    expect(action).toBe(REDIRECT_URI);
    expect(fields).toMatchObject({ state: "fp", iss: p.issuer });
    expect(fields.code).toBeTruthy();
    const csp = resumed.headers!.get("content-security-policy")!;
    const script = /<script>([\s\S]*?)<\/script>/.exec(resumed.body)![1];
    const hash = createHash("sha256").update(script).digest("base64");
    expect(csp).toContain(`'sha256-${hash}'`);
    expect(csp).not.toContain("unsafe-inline");
  });
});
