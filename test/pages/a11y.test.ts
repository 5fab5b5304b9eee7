import { beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { describeInChromium } from "../helpers/browser.js";
import { button, checkState, field, heading, link, usePagesWorld, type PagesProject } from "../helpers/pages.js";
import { WAIT_GUARD_MS } from "../helpers/patience.js";

// Every hosted page, as first opened and in its main other states: at 1280 and 360 px wide
// (screenshots in artifacts/pages for a person to look at), with no sideways scroll on a
// phone, no serious or critical axe-core violation, and the security headers of the contract.

interface Visit {
  name: string;
  url: () => string;
  /** Resolves once the page shows what it is for (the bundle has run). */
  ready: (page: Page) => Promise<unknown>;
  /** A further state of the same page to check too. */
  then?: { name: string; act: (page: Page) => Promise<unknown> };
}

describeInChromium("hosted pages: every page at 1280 and 360 px, accessible, with its headers", () => {
  const world = usePagesWorld();
  let project: PagesProject;
  /** With bot_protection: the forms that send show the ALTCHA widget. */
  let guarded: PagesProject;

  beforeAll(async () => {
    project = await world.project();
    guarded = await world.project({ botProtection: true });
  });

  const alert = (page: Page) => page.getByRole("alert").first().waitFor();
  const widgetIn = (state: string) => (page: Page) =>
    page.locator(`altcha-widget [data-state="${state}"]`).first().waitFor();
  const visits: Visit[] = [
    {
      name: "login",
      url: () => project.url("login"),
      ready: (page) => button(page, "Sign in").waitFor(),
      then: {
        name: "login-phone",
        act: (page) =>
          button(page, "Text me a code")
            .click()
            .then(() => field(page, "Phone number").waitFor()),
      },
    },
    {
      name: "login-error",
      url: () => project.url("login"),
      ready: async (page) => {
        await field(page, "Email").fill("nobody@example.com");
        await field(page, "Password").fill("not the password");
        await button(page, "Sign in").click();
        await alert(page);
      },
    },
    {
      name: "signup",
      url: () => project.url("signup"),
      ready: (page) => button(page, "Create account").waitFor(),
      then: {
        name: "signup-check-email",
        act: async (page) => {
          await field(page, "Email").fill(`a11y-${Date.now()}@example.com`);
          await field(page, "Password").fill("a sturdy passphrase 1");
          await button(page, "Create account").click();
          await heading(page, "Check your email").waitFor();
        },
      },
    },
    {
      name: "login-bot-check",
      url: () => guarded.url("login"),
      ready: widgetIn("verified"),
      then: {
        name: "login-phone-bot-check",
        act: (page) =>
          button(page, "Text me a code")
            .click()
            .then(() => widgetIn("verified")(page)),
      },
    },
    { name: "signup-bot-check", url: () => guarded.url("signup"), ready: widgetIn("verified") },
    { name: "forgot-password-bot-check", url: () => guarded.url("forgot-password"), ready: widgetIn("verified") },
    {
      name: "forgot-password",
      url: () => project.url("forgot-password"),
      ready: (page) => button(page, "Send reset link").waitFor(),
    },
    {
      name: "reset-password",
      url: () => project.url("reset-password", { token: "gpr_not_a_real_token" }),
      ready: (page) => field(page, "New password").waitFor(),
    },
    {
      name: "verify-email-bad-token",
      url: () => project.url("verify-email", { token: "gev_not_a_real_token" }),
      ready: alert,
    },
    {
      name: "magic-link",
      url: () => project.url("magic-link", { token: "gml_not_a_real_token" }),
      ready: (page) => button(page, "Continue signing in").waitFor(),
      then: {
        name: "magic-link-bad-token",
        act: (page) =>
          button(page, "Continue signing in")
            .click()
            .then(() => alert(page)),
      },
    },
    {
      name: "sso-error",
      url: () => `${project.url("sso")}#error=access_denied&error_description=End-User%20aborted%20interaction`,
      ready: alert,
    },
    { name: "logout", url: () => project.url("logout"), ready: (page) => link(page, "Sign in again").waitFor() },
    { name: "account-sign-in", url: () => `${world.publicUrl}/`, ready: (page) => button(page, "Sign in").waitFor() },
    {
      name: "account-invitation-bad-token",
      url: () => `${world.publicUrl}/?token=ginv_not_a_real_token&type=invitation`,
      ready: (page) => heading(page, "Accept your invitation").waitFor(),
    },
    {
      name: "account-member-reset",
      url: () => `${world.publicUrl}/?token=gmpr_not_a_real_token&type=member_password_reset`,
      ready: (page) => field(page, "New password").waitFor(),
    },
    {
      name: "not-found",
      url: () => `${world.publicUrl}/v1/auth/${project.loginId}/nothing-here`,
      ready: (page) => page.locator("body").waitFor(),
    },
  ];

  for (const visit of visits) {
    it(`${visit.name}: both widths, axe, Content-Security-Policy`, async () => {
      const { page } = await world.tab();
      const response = await page.goto(visit.url());
      const headers = response!.headers();
      expect(headers["content-type"]).toMatch(/^text\/html/);
      const csp = headers["content-security-policy"] ?? "";
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(headers["x-frame-options"]).toBe("DENY");
      expect(headers["referrer-policy"]).toBe("no-referrer");
      expect(headers["cache-control"]).toContain("no-store");
      await visit.ready(page);
      await checkState(page, visit.name);
      if (visit.then) {
        await visit.then.act(page);
        await checkState(page, visit.then.name);
      }
    });
  }

  it("the project's branding: its name in the title and header, its logo, its accent colour", async () => {
    const { page } = await world.tab();
    const response = await page.goto(project.url("login"));
    await button(page, "Sign in").waitFor();
    expect(await page.title()).toMatch(new RegExp(` · ${project.displayName}$`));
    expect(await page.locator("header.brand .brand-name").innerText()).toBe(project.displayName);
    const logo = page.locator("header.brand img.logo");
    expect(await logo.getAttribute("src")).toBe(world.logoUrl);
    expect(await logo.getAttribute("alt")).toBe("");
    // The logo's origin is allowed to load, and it did.
    expect(response!.headers()["content-security-policy"]).toContain(new URL(world.logoUrl).origin);
    await page.waitForFunction(
      () => (globalThis as any).document.querySelector("header.brand img.logo")?.naturalWidth === 48,
      undefined,
      { timeout: WAIT_GUARD_MS },
    );
    const accent = await page.evaluate(() => {
      const style = (globalThis as any).getComputedStyle((globalThis as any).document.documentElement);
      return {
        accent: style.getPropertyValue("--accent").trim(),
        onAccent: style.getPropertyValue("--on-accent").trim(),
      };
    });
    expect(accent.accent.toLowerCase()).toBe("#1d4ed8");
    expect(accent.onAccent.toLowerCase()).toMatch(/^(#fff|#ffffff|white|#000|#000000|black)$/);
  });
});
