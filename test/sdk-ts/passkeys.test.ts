import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { build } from "esbuild";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject } from "../../src/flows/projects/create-project.js";
import { seedApiKey, seedOrganization } from "../helpers/seed.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { WAIT_GUARD_MS } from "../helpers/patience.js";

// The SDK's passkey ceremonies (registerPasskey, signInWithPasskey) in the browser example,
// in Debian's headless Chromium with the DevTools virtual authenticator standing in for the
// user's device. WebAuthn needs a secure context with a domain name: the example is served at
// http://localhost (Chromium maps localhost to the loopback address it listens on).

const CHROMIUM = "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--host-resolver-rules=MAP localhost 127.0.0.1",
];
const EXAMPLE = join(import.meta.dirname, "../../sdk/ts/examples/browser");

describe.skipIf(!existsSync(CHROMIUM))("the SDK's passkey ceremonies in Chromium", () => {
  let server: TestServer;
  let pages: Server;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    const bundle = await build({
      entryPoints: [join(EXAMPLE, "main.ts")],
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      write: false,
      outfile: "main.js",
    });
    const files: Record<string, [string, string]> = {
      "/": ["text/html", readFileSync(join(EXAMPLE, "index.html"), "utf8")],
      "/main.js": ["text/javascript", bundle.outputFiles[0]!.text],
    };
    pages = createServer((req, res) => {
      const file = files[new URL(req.url ?? "/", "http://x").pathname];
      if (!file) return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": file[0] }).end(file[1]);
    });
    await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
    const origin = `http://localhost:${(pages.address() as AddressInfo).port}`;

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
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, timeout: WAIT_GUARD_MS });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => pages?.close(resolve));
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

  /** A page with a virtual authenticator attached (resident keys; user verification unless told). */
  async function pageWithAuthenticator(verifiesUser = true) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable", { enableUI: false });
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        // Without user verification: a plain security key, which has no PIN or biometrics to offer.
        hasUserVerification: verifiesUser,
        isUserVerified: verifiesUser,
        automaticPresenceSimulation: true,
      },
    });
    const held = async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials;
    return { context, page, held };
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
    expect((await held())[0]!.signCount).toBeGreaterThan(credentials[0]!.signCount);
    await context.close();
  });

  it("a passkey that does not verify its user, of a user with no other factor, is refused with PASSKEY_VERIFICATION_FAILED", async () => {
    const { context, page } = await pageWithAuthenticator(false);
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
    // Email-first: a key without user verification is not asked to find its credential itself.
    await page.fill("#email", email);
    await page.click("#passkey");
    await waitForStatus(page, "That did not work: PASSKEY_VERIFICATION_FAILED.");
    await context.close();
  });
});
