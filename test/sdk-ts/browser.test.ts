import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createProject } from "../../src/flows/projects/create-project.js";
import { seedApiKey, seedOrganization } from "../helpers/seed.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { WAIT_GUARD_MS } from "../helpers/patience.js";
import { describeInChromium, sharedChromium } from "../helpers/browser.js";
import { serveBrowserExample } from "./example-page.js";

// The browser example of docs/clients.md (sdk/ts/examples/browser), driven in Debian's
// headless Chromium: a publishable key, the page's origin allowed by the
// project, and one session shared by two tabs through IndexedDB and the Web Locks API.

describeInChromium("the browser example in Chromium (needs Debian's chromium package; .ci/run installs it)", () => {
  let server: TestServer;
  let example: Awaited<ReturnType<typeof serveBrowserExample>>;
  let browser: Browser;
  let url: string;
  /** The example against a project with the default reveal_email_exists (false). */
  let confirmingUrl: string;

  beforeAll(async () => {
    example = await serveBrowserExample("127.0.0.1");
    const origin = example.origin;

    server = await sharedTestServer();
    const { organization } = await seedOrganization(server.deps);
    const settings = {
      name: "Browser example",
      description: "",
      mfaRequired: false,
      sendVerification: false,
      allowedOrigins: [origin],
      redirectUrl: `${origin}/`,
      tokenExpiry: 300,
    };
    // Signups sign in at once here: the tests are about the session the tabs share.
    const project = await createProject(server.deps, organization.id, { ...settings, revealEmailExists: true });
    const { key } = await seedApiKey(server.deps, project, { kind: "publishable" });
    url = `${origin}/?gatehouse=${encodeURIComponent(server.url)}&key=${key}`;
    // The default: a publishable key's signup waits for the mailbox.
    const confirming = await createProject(server.deps, organization.id, settings);
    const confirmingKey = (await seedApiKey(server.deps, confirming, { kind: "publishable" })).key;
    confirmingUrl = `${origin}/?gatehouse=${encodeURIComponent(server.url)}&key=${confirmingKey}`;
    browser = await sharedChromium();
  });
  afterAll(async () => {
    await example?.close();
    await server?.stop();
  });

  const statusOf = (page: Page) => page.locator("#status").textContent();
  const waitForStatus = (page: Page, text: string) =>
    page.waitForFunction(
      (expected) => (globalThis as any).document.querySelector("#status")?.textContent === expected,
      text,
      { timeout: WAIT_GUARD_MS },
    );

  async function signUp(page: Page): Promise<string> {
    const email = `page-${Date.now()}@example.com`;
    await page.goto(url);
    await page.fill("#email", email);
    await page.fill("#password", "a sturdy passphrase 1");
    await page.click("#signup");
    await waitForStatus(page, `Signed in as ${email}.`);
    return email;
  }

  it("signs up from the page with a publishable key, and a second tab is signed in too", async () => {
    const context = await browser.newContext();
    const [first, second] = [await context.newPage(), await context.newPage()];
    const email = await signUp(first);
    await second.goto(url);
    await waitForStatus(second, `Signed in as ${email}.`);
    await second.click("#signout");
    await waitForStatus(second, "Not signed in.");
    await first.reload();
    await waitForStatus(first, "Not signed in.");
    await context.close();
  });

  it("a signup in a project that does not reveal registered emails says to check the email, and nothing is signed in", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const email = `confirm-${Date.now()}@example.com`;
    await page.goto(confirmingUrl);
    await page.fill("#email", email);
    await page.fill("#password", "a sturdy passphrase 1");
    await page.click("#signup");
    await waitForStatus(page, `Check your email: open the link sent to ${email} to finish signing up.`);
    await page.reload();
    await page.waitForFunction(() => (globalThis as any).example !== undefined, undefined, {
      timeout: WAIT_GUARD_MS,
    });
    expect(await page.evaluate(async () => (await (globalThis as any).example.store.load()) ?? null)).toBeNull();
    await context.close();
  });

  it("two tabs that find the token due at once refresh it once between them (Web Locks), and both use the new one", async () => {
    const context = await browser.newContext();
    const [first, second] = [await context.newPage(), await context.newPage()];
    const refreshes: string[] = [];
    context.on("request", (request) => {
      if (request.method() === "POST" && request.url().endsWith("/gatehouse.auth.v1.AuthService/Refresh"))
        refreshes.push(request.url());
    });
    await signUp(first);
    await second.goto(url);
    // Each tab's clock runs 10 minutes ahead, so the stored token (300 s) is due in both.
    const tokens = async (page: Page) => {
      await page.waitForFunction(() => (globalThis as any).example !== undefined, undefined, {
        timeout: WAIT_GUARD_MS,
      });
      return page.evaluate(async () => {
        const { Session, store, auth } = (globalThis as any).example;
        const ahead = new Session({ auth, store, now: () => Date.now() + 600_000 });
        return {
          locks: "locks" in (globalThis as any).navigator,
          tokens: await Promise.all(Array.from({ length: 10 }, () => ahead.accessToken())),
        };
      });
    };
    const [a, b] = await Promise.all([tokens(first), tokens(second)]);
    expect(a.locks && b.locks).toBe(true);
    expect(refreshes).toHaveLength(1);
    expect(new Set([...a.tokens, ...b.tokens]).size).toBe(1);
    // The page's own session reads the refreshed tokens and its profile still loads.
    await second.reload();
    await waitForStatus(second, (await statusOf(first))!);
    await context.close();
  });
});
