import * as oidc from "openid-client";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import {
  authorize,
  CookieBrowser,
  formFields,
  REDIRECT_URI,
  signInAtLoginPage,
  useOpenidWorld,
} from "../helpers/openid-provider-world.js";

// The grants and endpoints beside the code flow: client credentials, the device grant (RFC
// 8628), introspection (RFC 7662), revocation (RFC 7009), RP-initiated logout, native apps on a
// loopback port (RFC 8252), and first-party clients that skip consent.

const world = useOpenidWorld();

describe("client credentials", () => {
  it("a confidential client gets an access token for itself, which VerifyToken accepts", async () => {
    const p = await world.project();
    const { client_id, client_secret } = await p.createClient({
      name: "Billing job",
      type: "confidential",
      grant_types: ["client_credentials"],
    });
    const config = await p.discover(client_id, client_secret);
    const tokens = await oidc.clientCredentialsGrant(config);
    expect(tokens.refresh_token).toBeUndefined();
    const claims = decodeJwt(tokens.access_token);
    expect(claims).toMatchObject({
      sub: client_id,
      aud: client_id,
      client_id,
      iss: p.issuer,
      project_id: p.project.id,
    });
    const verified = await p.call("POST", "/v1/auth/token/verify", { token: tokens.access_token });
    expect(verified.body).toMatchObject({ valid: true, claims: { sub: client_id, client_id, sid: "" } });
    // It names no user: userinfo refuses it.
    const info = await fetch(`${p.issuer}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(info.status).toBe(401);
    expect(info.headers.get("www-authenticate")).toContain('error="invalid_token"');
    // Deleting the client ends its tokens.
    const deleted = await fetch(`${world.publicUrl}/v1/oauth-clients/${client_id}`, {
      method: "DELETE",
      headers: p.admin,
    });
    expect(deleted.status).toBe(200);
    expect((await p.call("POST", "/v1/auth/token/verify", { token: tokens.access_token })).body.valid).toBe(false);
  });

  it("a client not allowed the grant is refused", async () => {
    const p = await world.project();
    const { client_id, client_secret } = await p.createClient({
      name: "Wiki",
      type: "confidential",
      redirect_uris: [REDIRECT_URI],
    });
    const config = await p.discover(client_id, client_secret);
    await expect(oidc.clientCredentialsGrant(config)).rejects.toMatchObject({
      error: "invalid_request",
      error_description: "requested grant type is not allowed for this client",
    });
  });
});

describe("device authorization grant", () => {
  it("a CLI shows a code, the user approves it in a browser after signing in, and the CLI's poll gets tokens", async () => {
    const p = await world.project();
    const { client_id } = await p.createClient({
      name: "Gatehouse CLI",
      type: "public",
      grant_types: ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"],
      first_party: true,
    });
    const userId = await p.signUp("dev@example.com");
    const config = await p.discover(client_id);
    const device = await oidc.initiateDeviceAuthorization(config, { scope: "openid email offline_access" });
    expect(device.verification_uri).toBe(`${p.issuer}/oauth/device`);
    expect(device.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);

    const pending = await fetch(`${p.issuer}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:device_code",
        device_code: device.device_code,
        client_id,
      }),
    });
    expect(((await pending.json()) as { error: string }).error).toBe("authorization_pending");

    // The person's browser: the page asks to confirm the code, then the sign-in.
    const browser = new CookieBrowser();
    // The complete URI carries the code: its page posts it on by itself (a form the script submits).
    const carried = await browser.request(device.verification_uri_complete!);
    const posted = formFields(carried.body);
    expect(posted.fields.user_code).toBe(device.user_code);
    const confirm = await browser.request(posted.action, { form: posted.fields });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain(device.user_code);
    const { action, fields } = formFields(confirm.body, "op.deviceConfirmForm");
    const submitted = await browser.request(new URL(action, p.issuer).href, { form: fields });
    const atLogin = await browser.follow(submitted.location, world.publicUrl);
    const hop = await signInAtLoginPage(world, p, browser, atLogin.url, "dev@example.com");
    expect(hop.status).toBe(200);
    expect(hop.body).toContain("Device connected");

    const granted = await fetch(`${p.issuer}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:device_code",
        device_code: device.device_code,
        client_id,
      }),
    });
    const tokens = (await granted.json()) as Record<string, string>;
    expect(granted.status, JSON.stringify(tokens)).toBe(200);
    expect(decodeJwt(tokens.id_token)).toMatchObject({ sub: userId, email: "dev@example.com", aud: client_id });
    expect(tokens.refresh_token).toBeTruthy();
  });
});

describe("introspection, revocation and logout", () => {
  async function session() {
    const p = await world.project();
    const { client_id, client_secret } = await p.createClient({
      name: "Wiki",
      type: "confidential",
      redirect_uris: [REDIRECT_URI],
      post_logout_redirect_uris: ["https://rp.example.com/signed-out"],
      grant_types: ["authorization_code", "refresh_token"],
    });
    await p.signUp("kim@example.com");
    const config = await p.discover(client_id, client_secret);
    const flow = await authorize(world, p, config, "kim@example.com");
    const tokens = await oidc.authorizationCodeGrant(config, flow.callback, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
    });
    return { p, config, tokens, browser: flow.browser, clientId: client_id };
  }

  it("introspects a refresh token, revokes it, and then it is inactive and its access token too", async () => {
    const { p, config, tokens, clientId } = await session();
    const active = await oidc.tokenIntrospection(config, tokens.refresh_token!);
    expect(active).toMatchObject({ active: true, client_id: clientId, scope: "openid email profile offline_access" });
    // Another client of the project learns nothing about it.
    const other = await p.createClient({ name: "Other", type: "confidential", redirect_uris: [REDIRECT_URI] });
    const otherConfig = await p.discover(other.client_id, other.client_secret);
    expect((await oidc.tokenIntrospection(otherConfig, tokens.refresh_token!)).active).toBe(false);
    await oidc.tokenRevocation(config, tokens.refresh_token!);
    expect((await oidc.tokenIntrospection(config, tokens.refresh_token!)).active).toBe(false);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: "invalid_grant",
    });
    expect((await p.call("POST", "/v1/auth/token/verify", { token: tokens.access_token })).body.valid).toBe(false);
  });

  it("RP-initiated logout asks the person, signs out of the provider, and returns to the registered address", async () => {
    const { p, config, tokens, browser } = await session();
    const url = oidc.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: "https://rp.example.com/signed-out",
      state: "bye",
    });
    const asked = await browser.request(url.href);
    expect(asked.status).toBe(200);
    expect(asked.body).toContain("Do you want to sign out of Wiki?");
    const { action, fields } = formFields(asked.body, "op.logoutForm");
    const out = await browser.request(new URL(action, p.issuer).href, { form: { ...fields, logout: "yes" } });
    expect(out.location).toBe("https://rp.example.com/signed-out?state=bye");
    // Signed out of the provider: the next authorization asks for a sign-in again.
    const again = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: "openid",
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    });
    const hop = await browser.follow(again.href, world.publicUrl);
    expect(new URL(hop.url).pathname).toBe(`/v1/auth/${p.project.loginId}/login`);
  });
});

describe("clients", () => {
  it("a native app's loopback redirect matches on any port (RFC 8252), and a first-party client skips consent", async () => {
    const p = await world.project();
    const { client_id } = await p.createClient({
      name: "Desktop app",
      type: "public",
      redirect_uris: ["http://127.0.0.1/callback"],
      first_party: true,
    });
    await p.signUp("lee@example.com");
    const config = await p.discover(client_id);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: "http://127.0.0.1:53123/callback",
      scope: "openid email",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    });
    const browser = new CookieBrowser();
    const atLogin = await browser.follow(url.href, world.publicUrl);
    const hop = await signInAtLoginPage(world, p, browser, atLogin.url, "lee@example.com");
    // No consent page: straight back to the app, on its port.
    const callback = new URL(hop.url);
    expect(callback.origin + callback.pathname).toBe("http://127.0.0.1:53123/callback");
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
    expect(tokens.claims()!.email).toBe("lee@example.com");
    // A first-party client is listed among the user's apps too, and can be revoked there.
    const apps = await p.call("GET", `/v1/auth/authorized-apps?user_id=${tokens.claims()!.sub}`);
    expect(apps.body.data).toMatchObject([{ client_id, first_party: true, scopes: ["openid", "email"] }]);
  });
});
