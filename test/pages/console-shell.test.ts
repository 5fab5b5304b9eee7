import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import { describeInChromium } from "../helpers/browser.js";
import { holdRpc } from "../helpers/console-hold.js";
import { consoleOrganization, section, signIn, type ConsoleOrganization, type Person } from "../helpers/console.js";
import { button, checkState, field, heading, see, seeAlert, usePagesWorld, type PagesWorld } from "../helpers/pages.js";

// The console's shell: after sign-in a header names the organization and the member with the
// role, a navigation leads to every section, a deep link in the fragment survives sign-in and
// reload, and the management token stays in the tab's memory. Every project's hosted pages share
// the console's origin (issue 46): "Stay signed in" hands the token to the tab's next page
// through sessionStorage only while no console runs, never through localStorage, and a hosted
// page, in another tab, opened from the console or next in its tab, finds none of it.

/** Signs `who` in as `signIn` does and answers the management token the Login gave the page. */
async function signInHolding(
  world: PagesWorld,
  page: Page,
  who: Person,
  options: { fragment?: string; stay?: boolean } = {},
): Promise<string> {
  const login = page.waitForResponse((r) => r.url().endsWith("/gatehouse.account.v1.AccountService/Login"));
  await signIn(world, page, who, options);
  const body = (await (await login).json()) as { management_token?: string };
  const token = body.management_token ?? "";
  expect(token, JSON.stringify(body)).toMatch(/^gmt_/);
  return token;
}

/** Everything a script of `page` can read without asking the server: both storages, cookies, IndexedDB's names. */
async function readable(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const g = globalThis as any;
    const databases = typeof g.indexedDB?.databases === "function" ? await g.indexedDB.databases() : [];
    return JSON.stringify({
      local: { ...g.localStorage },
      session: { ...g.sessionStorage },
      cookie: g.document.cookie,
      databases,
    });
  });
}

/** A new tab of `context` at `url` (the same browser profile: the origin's localStorage is shared). */
async function openTab(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

describeInChromium("console: shell, deep links, staying signed in", () => {
  const world = usePagesWorld();
  let org: ConsoleOrganization;

  beforeAll(async () => {
    org = await consoleOrganization(world);
  });

  it("shows the organization, the member and role, the navigation; a reload signs in again", async () => {
    const { page } = await world.tab();
    await signIn(world, page, org.admin);
    // By its name, though Login named it not (the member has one organization).
    const organization = page.locator(".console-org");
    await organization.getByText(org.organization.name).waitFor();
    expect(await organization.textContent()).not.toContain(org.organization.id);
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

    expect(await readable(page)).not.toContain("gmt_");
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

  it("'Stay signed in' keeps the token across a reload of the tab until sign-out, which revokes it", async () => {
    const { page } = await world.tab();
    const token = await signInHolding(world, page, org.admin, { stay: true, fragment: "#section=members" });
    await heading(page, "Members").waitFor();

    await page.reload();
    await heading(page, "Members").waitFor();
    await see(page, `Signed in as ${org.admin.email}`);
    expect(await readable(page)).not.toContain(token);

    await button(page, "Sign out").click();
    await button(page, "Sign in").waitFor();
    const after = await fetch(`${world.server.url}/v1/projects`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
    // Nothing is handed to the next page after a sign-out.
    await page.reload();
    await button(page, "Sign in").waitFor();
  });

  it("keeps the token where no hosted page of the origin reads it: not stored while the console runs, not in another tab, a page opened from it or the tab's next page", async () => {
    const { page, context } = await world.tab();
    const token = await signInHolding(world, page, org.admin, { stay: true, fragment: "#section=members" });
    await heading(page, "Members").waitFor();
    const hosted = `${world.publicUrl}/v1/auth/${org.project.loginId}/login`;

    // The console's own tab: no storage, no cookie holds any of it.
    const own = await readable(page);
    expect(own).not.toContain(token);
    expect(own).not.toContain("gmt_");

    // A project's hosted page in another tab of the same browser.
    const other = await openTab(context, hosted);
    await field(other, "Email").waitFor();
    expect(await readable(other)).not.toContain("gmt_");

    // Pages opened from the console start with a copy of its tab's sessionStorage.
    for (const url of [hosted, `${world.publicUrl}/openapi.json`]) {
      const [opened] = await Promise.all([
        context.waitForEvent("page"),
        page.evaluate((to) => void (globalThis as any).open(to), url),
      ]);
      await opened.waitForLoadState();
      expect(await readable(opened), url).not.toContain("gmt_");
    }

    // The tab leaves the console for a hosted page: the handed-over entry is dropped there.
    await page.goto(hosted);
    await field(page, "Email").waitFor();
    expect(await readable(page)).not.toContain("gmt_");

    // The token itself still works: it was kept from pages, not revoked.
    expect(
      (await fetch(`${world.server.url}/v1/projects`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
  });

  it("a kept token the server no longer accepts is forgotten, with the sign-in form and words", async () => {
    const { page } = await world.tab();
    const token = await signInHolding(world, page, org.admin, { stay: true });
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
    expect(await readable(page)).not.toContain("gmt_");
    // And not handed over again: a reload shows the plain sign-in form.
    await page.reload();
    await button(page, "Sign in").waitFor();
    expect(await page.getByText("Your session has ended").count()).toBe(0);
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
    await page.getByLabel("البقاء مسجّلًا الدخول حتى أغلق علامة التبويب هذه").waitFor();
    await page.locator("#console-login button[type=submit]").click();
    await heading(page, "الأعضاء").waitFor();
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    await page.getByRole("navigation", { name: "وحدة التحكم" }).getByRole("link", { name: "سجل التدقيق" }).waitFor();
    await button(page, "إرسال الدعوة").waitFor();
    await checkState(page, "console-ar-members");
  });

  it("a section still loading when the project changes never draws: the list shown is the picked project's, once", async () => {
    const other = await org.api(org.admin, "POST", "/v1/projects", {
      name: "Second shop",
      allowed_origins: ["https://second.example.com"],
      redirect_url: "https://second.example.com/cb",
    });
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    const second = other.body.id as string;
    for (const [projectId, label] of [
      [org.project.id, "first shop key"],
      [second, "second shop key"],
    ]) {
      const made = await org.api(org.admin, "POST", "/v1/api-keys", { project_id: projectId, label });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
    }
    const { page } = await world.tab();
    const projectOf = (body: Record<string, unknown>) => body.projectId ?? body.project_id;
    const first = await holdRpc(
      page,
      "gatehouse.account.v1.AccountService/ListApiKeys",
      (b) => projectOf(b) === org.project.id,
    );
    const next = await holdRpc(page, "gatehouse.account.v1.AccountService/ListApiKeys", (b) => projectOf(b) === second);
    await signIn(world, page, org.admin, { fragment: `#section=api-keys&project=${org.project.id}` });
    await first.seen;
    // The member picks the other project while the first one's keys are still on their way.
    await page.getByLabel("Project", { exact: true }).selectOption(second);
    await next.seen;
    // The first answer comes (or its call ends) before the second project's is let through.
    first.release();
    await first.ended;
    next.release();
    await see(page, "second shop key");

    expect(await page.locator("table", { has: page.locator("caption", { hasText: "API keys" }) }).count()).toBe(1);
    expect(await page.getByText("first shop key").count()).toBe(0);
    expect(await page.locator("form#create-key").count()).toBe(1);
    expect(await page.getByLabel("Project", { exact: true }).inputValue()).toBe(second);
    expect(await page.locator("h1").textContent()).toBe("API keys");
  });

  it("a project's settings still loading when the member opens another section neither draw nor rename the heading", async () => {
    const { page } = await world.tab();
    await signIn(world, page, org.admin);
    await heading(page, "Projects").waitFor();
    // Made after the console read the list: opening it reads the list again, and that is held.
    const late = await org.api(org.admin, "POST", "/v1/projects", {
      name: "Late shop",
      allowed_origins: ["https://late.example.com"],
      redirect_url: "https://late.example.com/cb",
    });
    expect(late.status, JSON.stringify(late.body)).toBe(200);
    const held = await holdRpc(page, "gatehouse.account.v1.AccountService/ListProjects", () => true);
    await page.evaluate(
      (hash) => void ((globalThis as any).location.hash = hash),
      `#section=projects&project=${late.body.id}`,
    );
    await held.seen;
    await section(page, "Members").click();
    await see(page, org.developer.email);
    held.release();
    await held.ended;
    // A round trip the page makes after the held answer came: a drawing from that answer, which
    // needs no network, has happened by its end.
    expect(await page.evaluate(async () => (await fetch("/healthz")).status)).toBe(200);
    await button(page, "Send invitation").waitFor();
    expect(await page.locator("h1").textContent()).toBe("Members");
    expect(await page.title()).toBe("Members · Gatehouse");
    expect(await button(page, "Save changes").count()).toBe(0);
    expect(await page.getByText("Late shop").count()).toBe(0);
    // Nor what the late section concludes from an address that has moved on.
    expect(await page.getByText("This project does not exist").count()).toBe(0);
  });
});
