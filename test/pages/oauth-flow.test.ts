import * as oidc from "openid-client";
import type { Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import { nextStep, totpAt } from "../auth/mfa-helpers.js";
import { describeInChromium } from "../helpers/browser.js";
import { http } from "../helpers/clients.js";
import {
  button,
  checkState,
  field,
  heading,
  PASSWORD,
  see,
  signupOverRest,
  usePagesWorld,
  WAIT,
  type PagesProject,
} from "../helpers/pages.js";

// "Sign in with Gatehouse" as a person meets it: openid-client is the application, Chromium
// the person's browser. The authorization request lands on the hosted sign-in page, the person
// signs in (with a second factor when the project asks for one), approves the application on
// the consent page, and the application gets its tokens at its redirect URI.

describeInChromium("OpenID Provider: the code flow through the hosted pages", () => {
  const world = usePagesWorld();

  async function registerClient(project: PagesProject, firstParty = false) {
    const res = await http(`${world.publicUrl}/v1/oauth-clients`, {
      headers: await project.admin(),
      body: {
        project_id: project.id,
        name: "Team Wiki",
        type: "confidential",
        redirect_uris: [world.callbackUrl],
        grant_types: ["authorization_code", "refresh_token"],
        first_party: firstParty,
        logo_uri: world.logoUrl,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const issuer = `${world.publicUrl}/v1/auth/${project.loginId}`;
    const config = await oidc.discovery(
      new URL(issuer),
      res.body.client_id,
      { client_secret: res.body.client_secret },
      oidc.ClientSecretBasic(res.body.client_secret),
      { execute: [oidc.allowInsecureRequests] },
    );
    return { config, issuer, clientId: res.body.client_id as string };
  }

  /** The application's sign-in button: an authorization URL with PKCE and state. */
  async function startAuthorization(config: oidc.Configuration) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: world.callbackUrl,
      scope: "openid email profile",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
    });
    return { url, verifier, state };
  }

  async function landedAtApp(page: Page): Promise<URL> {
    await page.waitForURL((url) => url.href.startsWith(`${world.callbackUrl}?`), { timeout: WAIT });
    return new URL(page.url());
  }

  async function signIn(page: Page, email: string): Promise<void> {
    await heading(page, "Sign in").waitFor();
    await field(page, "Email").fill(email);
    await field(page, "Password").fill(PASSWORD);
    await button(page, "Sign in").click();
  }

  let project: PagesProject;

  beforeAll(async () => {
    project = await world.project();
  });

  it("signs in on the hosted page, asks for consent once, and the application gets verified tokens", async () => {
    const { config, issuer, clientId } = await registerClient(project);
    const email = await signupOverRest(project);
    const { page } = await world.tab();
    const first = await startAuthorization(config);
    await page.goto(first.url.href);
    await see(page, "to continue to Team Wiki");
    await checkState(page, "oauth-sign-in");
    await signIn(page, email);
    await heading(page, "Authorize Team Wiki").waitFor();
    await see(page, "See your email address");
    await checkState(page, "oauth-consent");
    await button(page, "Allow").click();
    const callback = await landedAtApp(page);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: first.verifier,
      expectedState: first.state,
    });
    expect(tokens.claims()).toMatchObject({ iss: issuer, aud: clientId, email, amr: ["pwd"] });
    const info = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
    expect(info.email).toBe(email);

    // The same browser, later: signed in at the provider and consent remembered, so the
    // application gets a code without a page.
    const again = await startAuthorization(config);
    await page.goto(again.url.href);
    const second = await landedAtApp(page);
    const more = await oidc.authorizationCodeGrant(config, second, {
      pkceCodeVerifier: again.verifier,
      expectedState: again.state,
    });
    expect(more.claims()!.sub).toBe(tokens.claims()!.sub);

    // The person withdraws the consent: the next authorization asks again, and a denial goes
    // back to the application as access_denied.
    const apps = await project.call("GET", `/v1/auth/authorized-apps?user_id=${tokens.claims()!.sub}`);
    expect(apps.body.data.map((a: { client_id: string }) => a.client_id)).toEqual([clientId]);
    const revoked = await project.call(
      "DELETE",
      `/v1/auth/authorized-apps/${clientId}?user_id=${tokens.claims()!.sub}`,
    );
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    const third = await startAuthorization(config);
    await page.goto(third.url.href);
    await heading(page, "Authorize Team Wiki").waitFor();
    await button(page, "Deny").click();
    const denied = await landedAtApp(page);
    expect(denied.searchParams.get("error")).toBe("access_denied");
    expect(denied.searchParams.get("state")).toBe(third.state);
  });

  it("a project that requires MFA: the second factor is asked on the way, and the ID token says so", async () => {
    const strict = await world.project({ mfaRequired: true });
    const { config } = await registerClient(strict, true);
    const email = await signupOverRest(strict);
    const { page } = await world.tab();
    const start = await startAuthorization(config);
    await page.goto(start.url.href);
    await signIn(page, email);
    await heading(page, "Set up two-step verification").waitFor();
    const secret = (await page.locator("main").innerText()).match(/\b[A-Z2-7]{16,}\b/)?.[0];
    expect(secret).toBeTruthy();
    nextStep(world.clock);
    await field(page, "Authentication code").fill(await totpAt(secret!, world.clock));
    await button(page, "Verify").click();
    await button(page, "Continue").click();
    // First-party: no consent page.
    const callback = await landedAtApp(page);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    expect(tokens.claims()!.amr).toEqual(["pwd", "totp"]);
    expect(tokens.claims()!.email).toBe(email);
  });
});
