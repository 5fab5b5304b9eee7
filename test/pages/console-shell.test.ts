import { beforeAll, expect, it } from "vitest";
import { describeInChromium } from "../helpers/browser.js";
import { consoleOrganization, section, signIn, type ConsoleOrganization } from "../helpers/console.js";
import { button, checkState, field, heading, see, seeAlert, usePagesWorld } from "../helpers/pages.js";

// The console's shell: after sign-in a header names the organization and the member with the
// role, a navigation leads to every section, a deep link in the fragment survives sign-in and
// reload, and the management token stays in the tab's memory unless the member asks to stay
// signed in (then in localStorage, forgotten on sign-out or when the server calls it invalid).

/** Where "Stay signed in" keeps the member (src/pages/account/console/session.ts). */
const KEPT = "gatehouse.console.member";

describeInChromium("console: shell, deep links, staying signed in", () => {
  const world = usePagesWorld();
  let org: ConsoleOrganization;

  beforeAll(async () => {
    org = await consoleOrganization(world);
  });

  it("shows the organization, the member and role, the navigation; a reload signs in again", async () => {
    const { page } = await world.tab();
    await signIn(world, page, org.admin);
    await see(page, org.organization.id);
    await see(page, "Admin");
    for (const name of [
      "Projects",
      "Users",
      "API keys",
      "Members",
      "SSO",
      "Webhooks",
      "OAuth clients",
      "Audit log",
      "Usage",
    ])
      await section(page, name).waitFor();
    await heading(page, "Projects").waitFor();
    expect(await section(page, "Projects").getAttribute("aria-current")).toBe("page");
    await checkState(page, "console-home");

    expect(await page.evaluate("JSON.stringify(localStorage)")).toBe("{}");
    await page.reload();
    await button(page, "Sign in").waitFor();
  });

  it("opens the section a shared link names once the member has signed in, and follows the navigation", async () => {
    const { page } = await world.tab();
    await signIn(world, page, org.developer, { fragment: `#section=api-keys&project=${org.project.id}` });
    await heading(page, "API keys").waitFor();
    expect(await page.getByLabel("Project", { exact: true }).inputValue()).toBe(org.project.id);
    await see(page, "Developer");
    await section(page, "Members").click();
    await heading(page, "Members").waitFor();
    expect(new URL(page.url()).hash).toBe("#section=members");
  });

  it("'Stay signed in' keeps the token across a reload until sign-out, which revokes it", async () => {
    const { page } = await world.tab();
    await signIn(world, page, org.admin, { stay: true, fragment: "#section=members" });
    await heading(page, "Members").waitFor();
    const kept = await page.evaluate<Record<string, any>>(`JSON.parse(localStorage.getItem("${KEPT}") ?? "{}")`);
    expect(kept.token).toMatch(/^gmt_/);
    expect(kept.expiresAt).toBeGreaterThan(Date.now());

    await page.reload();
    await heading(page, "Members").waitFor();
    await see(page, `Signed in as ${org.admin.email}`);

    await button(page, "Sign out").click();
    await button(page, "Sign in").waitFor();
    expect(await page.evaluate("localStorage.length")).toBe(0);
    const after = await fetch(`${world.server.url}/v1/projects`, {
      headers: { authorization: `Bearer ${kept.token}` },
    });
    expect(after.status).toBe(401);
  });

  it("a kept token the server no longer accepts is forgotten, with the sign-in form and words", async () => {
    const { page } = await world.tab();
    await signIn(world, page, org.admin, { stay: true });
    const token = (await page.evaluate<Record<string, any>>(`JSON.parse(localStorage.getItem("${KEPT}"))`)).token;
    // Signed out elsewhere (the CLI, another tab): the same token revoked over the API.
    const out = await fetch(`${world.server.url}/v1/account/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(out.status).toBe(200);
    await page.reload();
    await field(page, "Password").waitFor();
    await see(page, "Your session has ended. Sign in again.");
    expect(await page.evaluate("localStorage.length")).toBe(0);
  });

  it("a developer is offered no admin control, and the server's ROLE_REQUIRED reads clearly", async () => {
    const { page } = await world.tab();
    await signIn(world, page, org.developer, { fragment: `#section=projects&project=${org.project.id}` });
    await heading(page, org.project.name).waitFor();
    await button(page, "Save changes").waitFor();
    expect(await button(page, "Delete project").count()).toBe(0);
    await section(page, "Members").click();
    await heading(page, "Members").waitFor();
    await see(page, org.admin.email);
    expect(await button(page, "Send invitation").count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Remove/ }).count()).toBe(0);
    // Webhooks are an admin's: the server refuses and the page says so in words.
    await section(page, "Webhooks").click();
    await seeAlert(page, /admin/i);
    await checkState(page, "console-developer-role-required");
  });

  it("speaks the browser's language: Arabic, right to left, with the console's own words", async () => {
    const { page } = await world.tab({ locale: "ar" });
    await page.goto(`${world.publicUrl}/#section=members`);
    await page.locator("#console-login-email").fill(org.admin.email);
    await page.locator("#console-login-password").fill(org.admin.password);
    await page.getByLabel("البقاء مسجّلًا الدخول على هذا الجهاز").waitFor();
    await page.locator("#console-login button[type=submit]").click();
    await heading(page, "الأعضاء").waitFor();
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    await page.getByRole("navigation", { name: "وحدة التحكم" }).getByRole("link", { name: "سجل التدقيق" }).waitFor();
    await button(page, "إرسال الدعوة").waitFor();
    await checkState(page, "console-ar-members");
  });
});
