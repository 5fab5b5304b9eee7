import { beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { describeInChromium } from "../helpers/browser.js";
import {
  button,
  checkState,
  expectValidTokens,
  landedWithTokens,
  link,
  seeAlert,
  uniqueEmail,
  usePagesWorld,
  type PagesProject,
} from "../helpers/pages.js";

// Single sign-on from the login page: its "Continue with {name}" link goes through Gatehouse to
// the test OpenID provider, whose login and consent pages (plain forms, test/helpers/
// oidc-provider.ts) the browser fills in, and back through Gatehouse's callback to the hosted
// sso page, which hands the tokens to the app.

describeInChromium("hosted pages: single sign-on", () => {
  const world = usePagesWorld({ sso: true });
  let project: PagesProject;
  const name = "Acme Workforce";

  beforeAll(async () => {
    project = await world.project();
    await world.connectSso(project, name);
  });

  async function loginHref(): Promise<string | null> {
    const { page } = await world.tab();
    await page.goto(project.url("login"));
    return link(page, `Continue with ${name}`).getAttribute("href");
  }

  /** At the provider: the login form as `accountId`, then consent (or abort at the login form). */
  async function atProvider(page: Page, accountId: string, deny = false): Promise<void> {
    await page.waitForURL((url) => url.origin === world.idp.issuer && url.pathname.startsWith("/interaction/"));
    if (deny) return void (await page.locator('form[data-prompt="abort"] button').click());
    await page.locator('form[data-prompt="login"] input[name="login"]').fill(accountId);
    await page.locator('form[data-prompt="login"] button').click();
    await page.locator('form[data-prompt="consent"] button').click();
  }

  it("the login page's 'Continue with {name}' ends at the app's callback with tokens", async () => {
    const accountId = `sso-${Date.now()}`;
    world.idp.setAccount(accountId, { email: uniqueEmail("sso"), email_verified: true, name: "SSO Person" });
    const { page } = await world.tab();
    await page.goto(project.url("login"));
    await checkState(page, "login-with-sso");
    const href = await link(page, `Continue with ${name}`).getAttribute("href");
    expect(href).toMatch(/^\/v1\/auth\/sso\/authorize\?|^http:\/\/127\.0\.0\.1:\d+\/v1\/auth\/sso\/authorize\?/);
    await link(page, `Continue with ${name}`).click();
    await atProvider(page, accountId);
    await expectValidTokens(project, await landedWithTokens(world, page));
  });

  it("the signup page offers the same 'Continue with {name}' link", async () => {
    const { page } = await world.tab();
    await page.goto(project.url("signup"));
    await button(page, "Create account").waitFor();
    const [fromSignup, fromLogin] = [await link(page, `Continue with ${name}`).getAttribute("href"), await loginHref()];
    expect(fromSignup).toBe(fromLogin);
  });

  it("refused at the provider: the sso page says 'Single sign-on did not complete: …'", async () => {
    const { page } = await world.tab();
    await page.goto(project.url("login"));
    await link(page, `Continue with ${name}`).click();
    await atProvider(page, "", true);
    await seeAlert(page, /^Single sign-on did not complete: .+/);
    expect(new URL(page.url()).pathname).toBe(`/v1/auth/${project.loginId}/sso`);
    await checkState(page, "sso-refused");
  });
});
