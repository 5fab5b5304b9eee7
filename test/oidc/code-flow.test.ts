import * as oidc from "openid-client";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { authorize, REDIRECT_URI, useOpenidWorld } from "../helpers/openid-provider-world.js";

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
    const info = await oidc.fetchUserInfo(config, tokens.access_token, userId);
    expect(info).toMatchObject({ sub: userId, email: "ada@example.com" });
    expect(tokens.refresh_token).toBeTruthy();
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(decodeJwt(refreshed.access_token).sub).toBe(userId);
  });
});
