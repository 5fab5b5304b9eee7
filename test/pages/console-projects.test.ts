import { beforeAll, expect, it } from "vitest";
import { describeInChromium } from "../helpers/browser.js";
import { consoleOrganization, signIn, tableRows, type ConsoleOrganization } from "../helpers/console.js";
import { button, checkState, field, heading, see, seeAlert, usePagesWorld } from "../helpers/pages.js";

// Projects in the console: create one, change its settings (general, branding, limits, signup
// controls, MFA, language) with one save, see the server's field violation next to its field,
// and delete it after typing its name. Each effect is read back through the API.

describeInChromium("console: projects", () => {
  const world = usePagesWorld();
  let org: ConsoleOrganization;

  beforeAll(async () => {
    org = await consoleOrganization(world);
  });

  it("creates a project and opens its settings; the API has it", async () => {
    const { page } = await world.tab();
    await signIn(world, page, org.admin);
    await heading(page, "Projects").waitFor();
    expect((await tableRows(page, "Projects")).map((row) => row[0])).toEqual([org.project.name]);
    await field(page, "Name").fill("Bakery");
    await field(page, "Redirect URL").fill("https://bakery.example.com/auth");
    await field(page, "Allowed origins").fill("https://bakery.example.com\nhttps://admin.bakery.example.com");
    await button(page, "Create project").click();
    await heading(page, "Bakery").waitFor();
    const id = new URLSearchParams(new URL(page.url()).hash.slice(1)).get("project");
    expect(id).toMatch(/^proj_/);
    const got = await org.api(org.admin, "GET", `/v1/projects/${id}`);
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(got.body).toMatchObject({
      name: "Bakery",
      redirect_url: "https://bakery.example.com/auth",
      allowed_origins: ["https://bakery.example.com", "https://admin.bakery.example.com"],
    });
  });

  it("saves every kind of setting with one UpdateProject", async () => {
    const { page } = await world.tab();
    await signIn(world, page, org.admin, { fragment: `#section=projects&project=${org.project.id}` });
    await heading(page, org.project.name).waitFor();
    await field(page, "Description").fill("The online shop");
    await field(page, "Access token lifetime (seconds)").fill("900");
    await field(page, "Display name").fill("Shop");
    await field(page, "Accent colour").fill("#0f766e");
    await field(page, "Most sessions per user").fill("5");
    await field(page, "Signups per IP address").fill("7");
    await field(page, "Who may sign up").selectOption("allowlist");
    await field(page, "Email domains").fill("shop.example.com");
    await page.getByRole("group", { name: "Ways to sign up" }).getByLabel("SSO").uncheck();
    await page.getByLabel("Every user must use two-factor authentication").check();
    await field(page, "Default language").selectOption("fr");
    await button(page, "Save changes").click();
    await see(page, "Saved.");
    await checkState(page, "console-project-settings");

    const got = await org.api(org.admin, "GET", `/v1/projects/${org.project.id}`);
    expect(got.body).toMatchObject({
      description: "The online shop",
      token_expiry: 900,
      display_name: "Shop",
      accent_color: "#0f766e",
      max_sessions_per_user: 5,
      signups: "allowlist",
      signup_email_domains: ["shop.example.com"],
      signup_methods: ["password", "otp", "magic_link"],
      mfa_required: true,
      default_locale: "fr",
    });
    expect(got.body.rate_limits.signups_per_ip).toBe(7);
  });

  it("shows the server's field violation next to its field, and saves nothing", async () => {
    const { page } = await world.tab();
    await signIn(world, page, org.admin, { fragment: `#section=projects&project=${org.project.id}` });
    await heading(page, org.project.name).waitFor();
    await field(page, "Access token lifetime (seconds)").fill("10");
    await button(page, "Save changes").click();
    await seeAlert(page, /Access token lifetime/);
    expect(await field(page, "Access token lifetime (seconds)").getAttribute("aria-invalid")).toBe("true");
    await checkState(page, "console-project-violation");
    const got = await org.api(org.admin, "GET", `/v1/projects/${org.project.id}`);
    expect(got.body.token_expiry).not.toBe(10);
  });

  it("deletes a project only once its name is typed", async () => {
    const created = await org.api(org.admin, "POST", "/v1/projects", {
      name: "Short-lived",
      allowed_origins: ["https://short.example.com"],
      redirect_url: "https://short.example.com/cb",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { page } = await world.tab();
    await signIn(world, page, org.admin, { fragment: `#section=projects&project=${created.body.id}` });
    await heading(page, "Short-lived").waitFor();
    await field(page, "Type Short-lived to confirm").fill("Short");
    await button(page, "Delete project").click();
    await seeAlert(page, "The name you typed does not match the project's name.");
    expect((await org.api(org.admin, "GET", `/v1/projects/${created.body.id}`)).status).toBe(200);
    await field(page, "Type Short-lived to confirm").fill("Short-lived");
    await button(page, "Delete project").click();
    await heading(page, "Projects").waitFor();
    expect((await org.api(org.admin, "GET", `/v1/projects/${created.body.id}`)).status).toBe(404);
  });
});
