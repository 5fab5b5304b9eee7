import * as oidc from "openid-client";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import {
  CookieBrowser,
  REDIRECT_URI,
  signInAtLoginPage,
  useOpenidWorld,
  type OpenidProject,
} from "../helpers/openid-provider-world.js";

// Pushed authorization requests (RFC 9126) and DPoP (RFC 9449): off unless the server is told
// (OIDC_PAR, OIDC_DPOP). Here they are on, PAR required: openid-client pushes the request,
// binds its tokens to a key, and userinfo takes the token only with a proof made with that key.

const world = useOpenidWorld({ OIDC_PAR: "required", OIDC_DPOP: "on" });

/** Sign-in over the API, consent skipped (first-party): from the authorization URL to the callback. */
async function signInAt(p: OpenidProject, url: URL, email: string): Promise<URL> {
  const browser = new CookieBrowser();
  const atLogin = await browser.follow(url.href, world.publicUrl);
  return new URL((await signInAtLoginPage(world, p, browser, atLogin.url, email)).url);
}

describe("pushed authorization requests and DPoP, when the server offers them", () => {
  it("discovery names them; a request that was not pushed is refused", async () => {
    const p = await world.project();
    const meta = (await p.discover("x")).serverMetadata();
    expect(meta.pushed_authorization_request_endpoint).toBe(`${p.issuer}/oauth/par`);
    expect(meta.require_pushed_authorization_requests).toBe(true);
    expect(meta.dpop_signing_alg_values_supported).toContain("ES256");
    const { client_id } = await p.createClient({
      name: "SPA",
      type: "public",
      redirect_uris: [REDIRECT_URI],
      first_party: true,
    });
    const config = await p.discover(client_id);
    const direct = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: "openid",
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
    });
    const refused = new URL((await new CookieBrowser().request(direct.href)).location);
    expect(refused.searchParams.get("error")).toBe("invalid_request");
  });

  it("a pushed request and DPoP-bound tokens: userinfo wants the proof of the bound key", async () => {
    const p = await world.project();
    const { client_id } = await p.createClient({
      name: "SPA",
      type: "public",
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      first_party: true,
    });
    const userId = await p.signUp("pat@example.com");
    const config = await p.discover(client_id);
    const dpop = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair("ES256"));
    const verifier = oidc.randomPKCECodeVerifier();
    const url = await oidc.buildAuthorizationUrlWithPAR(
      config,
      {
        redirect_uri: REDIRECT_URI,
        scope: "openid email offline_access",
        prompt: "consent",
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
      },
      { DPoP: dpop },
    );
    expect(url.searchParams.get("request_uri")).toMatch(/^urn:ietf:params:oauth:request_uri:/);
    const callback = await signInAt(p, url, "pat@example.com");
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier }, undefined, {
      DPoP: dpop,
    });
    expect(tokens.token_type).toBe("dpop");
    const jkt = (decodeJwt(tokens.access_token).cnf as { jkt: string }).jkt;
    expect(jkt).toBeTruthy();
    expect(await oidc.fetchUserInfo(config, tokens.access_token, userId, { DPoP: dpop })).toMatchObject({
      sub: userId,
      email: "pat@example.com",
    });
    // The same token without a proof, or as a Bearer token, is refused.
    const bearer = await fetch(`${p.issuer}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(bearer.status).toBe(401);
    const noProof = await fetch(`${p.issuer}/oauth/userinfo`, {
      headers: { authorization: `DPoP ${tokens.access_token}` },
    });
    expect(noProof.status).toBe(401);
    expect(noProof.headers.get("www-authenticate")).toContain('error="invalid_dpop_proof"');
    // The refresh token is bound too: refreshing needs the key.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP: dpop });
    expect((decodeJwt(refreshed.access_token).cnf as { jkt: string }).jkt).toBe(jkt);
  });
});
