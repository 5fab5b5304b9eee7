import * as oidc from "openid-client";
import { describe, expect, it } from "vitest";
import { http } from "../helpers/clients.js";
import {
  answerConsentPage,
  authorize,
  CookieBrowser,
  REDIRECT_URI,
  signInAtLoginPage,
  useOpenidWorld,
  type OpenidProject,
} from "../helpers/openid-provider-world.js";

// OAuth 2.1 asks PKCE of every client, confidential ones too: a client secret authenticates the
// client at the token endpoint, but does not stop a code stolen on the way back (a leaked
// redirect, a log) from being injected into the client's own callback. A confidential client of
// a legacy relying party that cannot send a code_challenge may be given the exception
// (`allow_missing_pkce`); a public client never.

const world = useOpenidWorld();

async function confidentialClient(p: OpenidProject, extra: Record<string, unknown> = {}) {
  const created = (await p.createClient({
    name: "Legacy wiki",
    type: "confidential",
    redirect_uris: [REDIRECT_URI],
    grant_types: ["authorization_code"],
    ...extra,
  })) as { client_id: string; client_secret: string; client: { allow_missing_pkce: boolean } };
  return { ...created, config: await p.discover(created.client_id, created.client_secret) };
}

/** An authorization request with no code_challenge, as a legacy relying party sends it. */
async function authorizeWithoutPkce(p: OpenidProject, config: oidc.Configuration, email?: string) {
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT_URI, scope: "openid email", state });
  const browser = new CookieBrowser();
  let hop = await browser.follow(url.href, world.publicUrl);
  if (email && new URL(hop.url).pathname.endsWith("/login"))
    hop = await signInAtLoginPage(world, p, browser, hop.url, email);
  if (email && new URL(hop.url).pathname.endsWith("/consent"))
    hop = await answerConsentPage(world, p, browser, hop.url, true);
  return { callback: new URL(hop.url), state };
}

function expectPkceRefusal(callback: URL, state: string): void {
  expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
  expect(callback.searchParams.get("error")).toBe("invalid_request");
  expect(callback.searchParams.get("error_description")).toMatch(/PKCE/);
  expect(callback.searchParams.get("state")).toBe(state);
  expect(callback.searchParams.get("code")).toBeNull();
}

describe("PKCE for confidential clients", () => {
  it("a new confidential client is refused without a code_challenge (invalid_request), and signs in with one", async () => {
    const p = await world.project();
    await p.signUp("ada@example.com");
    const { client, config } = await confidentialClient(p);
    expect(client.allow_missing_pkce).toBe(false);

    const { callback, state } = await authorizeWithoutPkce(p, config);
    expectPkceRefusal(callback, state);

    const flow = await authorize(world, p, config, "ada@example.com", { scope: "openid email" });
    const tokens = await oidc.authorizationCodeGrant(config, flow.callback, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
    });
    expect(tokens.claims()).toMatchObject({ email: "ada@example.com" });
  });

  it("with allow_missing_pkce it signs in without PKCE, until the exception is taken away", async () => {
    const p = await world.project();
    await p.signUp("bo@example.com");
    const { client_id, client, config } = await confidentialClient(p, { allow_missing_pkce: true });
    expect(client.allow_missing_pkce).toBe(true);

    const { callback, state } = await authorizeWithoutPkce(p, config, "bo@example.com");
    expect(callback.searchParams.get("code"), callback.href).toBeTruthy();
    const tokens = await oidc.authorizationCodeGrant(config, callback, { expectedState: state });
    expect(tokens.claims()).toMatchObject({ aud: client_id, email: "bo@example.com" });

    // A relying party that does send PKCE is held to its verifier all the same.
    const flow = await authorize(world, p, config, "bo@example.com", { scope: "openid email" });
    await expect(
      oidc.authorizationCodeGrant(config, flow.callback, {
        pkceCodeVerifier: oidc.randomPKCECodeVerifier(),
        expectedState: flow.state,
      }),
    ).rejects.toMatchObject({ error: "invalid_grant" });

    const patched = await http(`${world.publicUrl}/v1/oauth-clients/${client_id}`, {
      method: "PATCH",
      headers: p.admin,
      body: { allow_missing_pkce: false },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.client.allow_missing_pkce).toBe(false);
    const again = await authorizeWithoutPkce(p, config);
    expectPkceRefusal(again.callback, again.state);
  });

  it("a public client cannot be given the exception, and is refused without PKCE as before", async () => {
    const p = await world.project();
    const refused = await http(`${world.publicUrl}/v1/oauth-clients`, {
      headers: p.admin,
      body: {
        project_id: p.project.id,
        name: "SPA",
        type: "public",
        redirect_uris: [REDIRECT_URI],
        allow_missing_pkce: true,
      },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.reason).toBe("VALIDATION_FAILED");
    expect(refused.body.violations.map((v: { field: string }) => v.field)).toEqual(["allow_missing_pkce"]);
    const { client_id } = await p.createClient({ name: "SPA", type: "public", redirect_uris: [REDIRECT_URI] });
    const { callback, state } = await authorizeWithoutPkce(p, await p.discover(client_id));
    expectPkceRefusal(callback, state);
  });
});
