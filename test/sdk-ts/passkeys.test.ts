import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createProject } from "../../src/flows/projects/create-project.js";
import { seedApiKey, seedOrganization } from "../helpers/seed.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { WAIT_GUARD_MS } from "../helpers/patience.js";
import { addVirtualAuthenticator, describeInChromium, sharedChromium } from "../helpers/browser.js";
import { serveBrowserExample } from "./example-page.js";

// The SDK's passkey ceremonies (registerPasskey, signInWithPasskey) in the browser example,
// in Debian's headless Chromium with the DevTools virtual authenticator standing in for the
// user's device. WebAuthn needs a secure context with a domain name: the example is served at
// http://localhost.

describeInChromium("the SDK's passkey ceremonies in Chromium", () => {
  let server: TestServer;
  let example: Awaited<ReturnType<typeof serveBrowserExample>>;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    example = await serveBrowserExample("localhost");
    const origin = example.origin;

    server = await sharedTestServer();
    const { organization } = await seedOrganization(server.deps);
    const project = await createProject(server.deps, organization.id, {
      name: "Passkey example",
      description: "",
      mfaRequired: false,
      sendVerification: false,
      allowedOrigins: [origin],
      redirectUrl: `${origin}/`,
      revealEmailExists: true,
    });
    const { key } = await seedApiKey(server.deps, project, { kind: "publishable" });
    url = `${origin}/?gatehouse=${encodeURIComponent(server.url)}&key=${key}`;
    browser = await sharedChromium();
  });
  afterAll(async () => {
    await example?.close();
    await server?.stop();
  });

  async function waitForStatus(page: Page, text: string): Promise<void> {
    try {
      await page.waitForFunction(
        (expected) => (globalThis as any).document.querySelector("#status")?.textContent === expected,
        text,
        { timeout: WAIT_GUARD_MS },
      );
    } catch (error) {
      // Say what the page said instead: that is the finding.
      expect(await page.locator("#status").textContent(), String(error)).toBe(text);
    }
  }

  /** A tab with a virtual platform authenticator (test/helpers/browser.ts). */
  async function pageWithAuthenticator(userVerification: "verifies" | "unreported" = "verifies") {
    const context = await browser.newContext();
    const page = await context.newPage();
    const authenticator = await addVirtualAuthenticator(page, { userVerification });
    return { context, page, held: authenticator.credentials };
  }

  it("registerPasskey adds a passkey for the signed-in user; after sign-out, signInWithPasskey signs in with it alone", async () => {
    const { context, page, held } = await pageWithAuthenticator();
    const email = `passkey-${Date.now()}@example.com`;
    await page.goto(url);
    await page.fill("#email", email);
    await page.fill("#password", "a sturdy passphrase 1");
    await page.click("#signup");
    await waitForStatus(page, `Signed in as ${email}.`);

    await page.click("#add-passkey");
    await waitForStatus(page, 'Passkey "This browser" added. Save your 10 recovery codes.');
    const credentials = await held();
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: "localhost" });

    await page.click("#signout");
    await waitForStatus(page, "Not signed in.");
    // Usernameless: the email field is empty, the browser offers the passkey it holds.
    await page.fill("#email", "");
    await page.click("#passkey");
    await waitForStatus(page, `Signed in as ${email}.`);
    const amr = await page.evaluate(async () => {
      const tokens = await (globalThis as any).example.store.load();
      return JSON.parse(atob(tokens.accessToken.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))).amr;
    });
    expect(amr).toEqual(["hwk", "user"]);
    // The authenticator counted the sign-in.
    expect((await held())[0].signCount).toBeGreaterThan(credentials[0].signCount);
    await context.close();
  });

  it("a passkey that does not verify its user, of a user with no other factor, is refused with PASSKEY_VERIFICATION_FAILED", async () => {
    const { context, page } = await pageWithAuthenticator("unreported");
    const email = `passkey-nouv-${Date.now()}@example.com`;
    await page.goto(url);
    await page.fill("#email", email);
    await page.fill("#password", "a sturdy passphrase 1");
    await page.click("#signup");
    await waitForStatus(page, `Signed in as ${email}.`);
    await page.click("#add-passkey");
    await waitForStatus(page, 'Passkey "This browser" added. Save your 10 recovery codes.');
    await page.click("#signout");
    await waitForStatus(page, "Not signed in.");
    // Email-first this time (the email field is filled): the SDK passes it to StartPasskeySignIn.
    await page.fill("#email", email);
    await page.click("#passkey");
    await waitForStatus(page, "That did not work: PASSKEY_VERIFICATION_FAILED.");
    await context.close();
  });
});
