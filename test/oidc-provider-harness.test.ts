import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOidcProvider, type OidcProviderHarness, type TamperMode } from "./helpers/oidc-provider.js";

// The SSO tests trust this harness to behave like a real identity provider and to forge exactly
// the ID tokens they ask for. Prove both with openid-client v6 alone, no Gatehouse involved.

// The relying party's callbacks are never fetched: signIn stops at the first off-provider URL.
const A = { clientId: "project-a", clientSecret: "secret-a", redirectUris: ["http://127.0.0.1:9/a/callback"] };
const B = {
  clientId: "project-b",
  clientSecret: "secret-b",
  redirectUris: ["http://127.0.0.1:9/b/callback"],
  tokenEndpointAuthMethod: "client_secret_basic" as const,
};

let idp: OidcProviderHarness;

beforeAll(async () => {
  idp = await startOidcProvider({
    clients: [A],
    accounts: {
      alice: { email: "alice@example.com", email_verified: true, name: "Alice" },
      bob: { email: "bob@example.com", email_verified: false, name: "Bob" },
    },
  });
  idp.addClient(B);
  idp.setAccount("carol", { email: "carol@example.com", name: "Carol" });
});
afterAll(() => idp?.close());

async function configFor(c: typeof A | typeof B, ...execute: ((config: client.Configuration) => void)[]) {
  const auth = "tokenEndpointAuthMethod" in c ? client.ClientSecretBasic(c.clientSecret) : undefined;
  return client.discovery(new URL(idp.issuer), c.clientId, c.clientSecret, auth, {
    execute: [client.allowInsecureRequests, ...execute],
  });
}

// One authorization code flow as Gatehouse runs it: state, nonce and PKCE S256.
async function begin(config: client.Configuration, c: typeof A | typeof B = A) {
  const checks = {
    pkceCodeVerifier: client.randomPKCECodeVerifier(),
    expectedState: client.randomState(),
    expectedNonce: client.randomNonce(),
  };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: c.redirectUris[0],
    scope: "openid email profile",
    state: checks.expectedState,
    nonce: checks.expectedNonce,
    code_challenge: await client.calculatePKCECodeChallenge(checks.pkceCodeVerifier),
    code_challenge_method: "S256",
  });
  return { url: url.toString(), checks };
}

describe("OIDC provider harness", () => {
  it("signs a user in: code at the callback, ID token with email and email_verified, userinfo too", async () => {
    const discoveries = idp.discoveryRequests;
    const config = await configFor(A);
    expect(idp.discoveryRequests).toBe(discoveries + 1);
    const { url, checks } = await begin(config);

    const callback = new URL(await idp.signIn(url, "alice"));
    expect(callback.origin + callback.pathname).toBe(A.redirectUris[0]);
    expect(callback.searchParams.get("state")).toBe(checks.expectedState);
    expect(callback.searchParams.get("iss")).toBe(idp.issuer);

    const tokens = await client.authorizationCodeGrant(config, callback, checks);
    expect(tokens.claims()).toMatchObject({
      sub: "alice",
      email: "alice@example.com",
      email_verified: true,
      name: "Alice",
    });
    const userinfo = await client.fetchUserInfo(config, tokens.access_token, "alice");
    expect(userinfo).toMatchObject({ sub: "alice", email: "alice@example.com", email_verified: true });
  });

  it("passes email_verified through as false, or leaves it out when the account has none", async () => {
    const config = await configFor(A);
    for (const [id, verified] of [
      ["bob", false],
      ["carol", undefined],
    ] as const) {
      const { url, checks } = await begin(config);
      const tokens = await client.authorizationCodeGrant(config, new URL(await idp.signIn(url, id)), checks);
      expect(tokens.claims()?.email_verified).toBe(verified);
      expect(tokens.claims()?.email).toBe(`${id}@example.com`);
    }
  });

  it("serves a second client (client_secret_basic) and keeps codes bound to the client they were issued to", async () => {
    const configA = await configFor(A);
    const configB = await configFor(B);
    const first = await begin(configB, B);
    const tokens = await client.authorizationCodeGrant(
      configB,
      new URL(await idp.signIn(first.url, "alice")),
      first.checks,
    );
    expect(tokens.claims()).toMatchObject({ sub: "alice", aud: B.clientId });

    const second = await begin(configA, A);
    const callback = new URL(await idp.signIn(second.url, "alice"));
    await expect(client.authorizationCodeGrant(configB, callback, second.checks)).rejects.toMatchObject({
      name: "ResponseBodyError",
      error: "invalid_grant",
    });
  });

  it("refuses an authorization request without PKCE, at the callback", async () => {
    const config = await configFor(A);
    const url = client.buildAuthorizationUrl(config, { redirect_uri: A.redirectUris[0], scope: "openid", state: "s1" });
    const callback = new URL(await idp.signIn(url.toString(), "alice"));
    expect(callback.searchParams.get("error")).toBe("invalid_request");
    expect(callback.searchParams.get("state")).toBe("s1");
  });

  it("answers access_denied at the callback when the user cancels login or refuses consent", async () => {
    const config = await configFor(A);
    for (const options of [{ deny: true }, { consent: false }]) {
      const { url, checks } = await begin(config);
      const callback = new URL(await idp.signIn(url, "alice", options));
      expect(callback.searchParams.get("error")).toBe("access_denied");
      expect(callback.searchParams.get("state")).toBe(checks.expectedState);
      await expect(client.authorizationCodeGrant(config, callback, checks)).rejects.toMatchObject({
        name: "AuthorizationResponseError",
        error: "access_denied",
      });
    }
  });

  // Each forged ID token must be refused by the relying party; the code and message are what
  // openid-client v6 reports, so the SSO tests know what a correct refusal looks like.
  const refusals: [Exclude<TamperMode, null>, string, RegExp][] = [
    ["nonce", "OAUTH_JWT_CLAIM_COMPARISON_FAILED", /"nonce"/],
    ["audience", "OAUTH_JWT_CLAIM_COMPARISON_FAILED", /"aud"/],
    ["issuer", "OAUTH_JWT_CLAIM_COMPARISON_FAILED", /"iss"/],
    ["expired", "OAUTH_JWT_TIMESTAMP_CHECK_FAILED", /"exp"/],
    ["signature", "OAUTH_INVALID_RESPONSE", /signature/],
  ];
  for (const [mode, code, message] of refusals) {
    it(`tamper("${mode}"): the token response carries a forged ID token that the relying party refuses`, async () => {
      const config = await configFor(A, client.enableNonRepudiationChecks);
      const { url, checks } = await begin(config);
      const callback = new URL(await idp.signIn(url, "alice"));
      idp.tamper(mode);
      try {
        await expect(client.authorizationCodeGrant(config, callback, checks)).rejects.toMatchObject({ code, message });
      } finally {
        idp.tamper(null);
      }
    });
  }

  it('tamper("signature") passes openid-client unless enableNonRepudiationChecks is on (its v6 default)', async () => {
    const config = await configFor(A);
    const { url, checks } = await begin(config);
    const callback = new URL(await idp.signIn(url, "alice"));
    idp.tamper("signature");
    try {
      const tokens = await client.authorizationCodeGrant(config, callback, checks);
      expect(tokens.claims()?.sub).toBe("alice");
    } finally {
      idp.tamper(null);
    }
  });

  it("counts JWKS fetches and rotates the signing key behind the same issuer", async () => {
    const config = await configFor(A, client.enableNonRepudiationChecks);
    const jwks = idp.jwksRequests;
    const tokensFor = async (c: client.Configuration) => {
      const { url, checks } = await begin(c);
      return client.authorizationCodeGrant(c, new URL(await idp.signIn(url, "alice")), checks);
    };
    await tokensFor(config);
    await tokensFor(config);
    expect(idp.jwksRequests).toBe(jwks + 1); // fetched once, then cached by openid-client

    const before = idp.signingKid;
    await idp.rotateKeys();
    expect(idp.signingKid).not.toBe(before);
    const served = (await (await fetch(`${idp.issuer}/jwks`)).json()) as { keys: { kid: string; d?: string }[] };
    expect(served.keys.map((k) => k.kid)).toEqual([idp.signingKid]);
    expect(served.keys[0].d).toBeUndefined(); // public part only

    // openid-client refetches on a key miss only when its cached JWKS is at least 60 s old,
    // so right after a rotation the cached configuration fails and a fresh one succeeds.
    await expect(tokensFor(config)).rejects.toMatchObject({ code: "OAUTH_KEY_SELECTION_FAILED" });
    const fresh = await configFor(A, client.enableNonRepudiationChecks);
    expect((await tokensFor(fresh)).claims()?.sub).toBe("alice");
    expect(idp.jwksRequests).toBe(jwks + 3); // our fetch above, and the fresh configuration's
  });
});
