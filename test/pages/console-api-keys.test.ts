import { beforeAll, expect, it } from "vitest";
import { describeInChromium } from "../helpers/browser.js";
import { consoleOrganization, signIn, tableRows, type ConsoleOrganization } from "../helpers/console.js";
import { button, checkState, field, heading, see, usePagesWorld } from "../helpers/pages.js";

// API keys in the console: a key made in the browser with one scope is shown once, copies to
// the clipboard, and authenticates a real call within its scope only; revoked after a
// confirmation, it fails at once.

describeInChromium("console: API keys", () => {
  const world = usePagesWorld();
  let org: ConsoleOrganization;

  beforeAll(async () => {
    org = await consoleOrganization(world);
  });

  it("creates a key shown once with a copy button; it works within its scopes; revoking it stops it", async () => {
    const { page, context } = await world.tab();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: world.publicUrl });
    await signIn(world, page, org.developer, { fragment: `#section=api-keys&project=${org.project.id}` });
    await heading(page, "API keys").waitFor();
    await see(page, "This project has no API keys yet.");

    await field(page, "Label").fill("checkout backend");
    await page.getByRole("group", { name: "Scopes" }).getByLabel("auth:read").check();
    await button(page, "Create key").click();
    await see(page, "Copy it now and keep it somewhere safe: it is shown this once only.");
    const key = await page.getByRole("textbox", { name: "API key checkout backend" }).inputValue();
    expect(key).toMatch(/^gk_/);
    await button(page, "Copy").click();
    await see(page, "Copied to the clipboard.");
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(key);
    const rows = await tableRows(page, "API keys");
    expect(rows).toHaveLength(1);
    expect(rows[0].slice(0, 4)).toEqual(["checkout backend", key.slice(0, 8), "Secret (servers)", "auth:read"]);
    await checkState(page, "console-api-key-created");

    // auth:read allows VerifyToken; auth:write (Signup) is not granted.
    const verify = await org.auth(key, "/v1/auth/token/verify", { token: "not-a-token" });
    expect(verify.status, JSON.stringify(verify.body)).toBe(200);
    expect(verify.body.valid).toBe(false);
    const signup = await org.auth(key, "/v1/auth/signup", { email: "x@example.com", password: "a sturdy passphrase" });
    expect(signup.status).toBe(403);

    // A reload forgets the raw key: it is not in the list.
    await page.reload();
    await signIn(world, page, org.developer, { fragment: `#section=api-keys&project=${org.project.id}` });
    expect(await page.locator("body").innerText()).not.toContain(key);

    await button(page, "Revoke checkout backend").click();
    await see(page, "Revoke checkout backend? Calls with this key stop working at once.");
    await checkState(page, "console-api-key-revoke");
    await button(page, "Revoke").click();
    await see(page, "checkout backend is revoked.");
    await see(page, "This project has no API keys yet.");
    const after = await org.auth(key, "/v1/auth/token/verify", { token: "not-a-token" });
    expect(after.status).toBe(401);
  });
});
