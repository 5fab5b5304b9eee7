import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { describe } from "vitest";
import { WAIT_GUARD_MS } from "./patience.js";

// Debian's Chromium driven by playwright-core (no browser download): the hosted pages as a
// person meets them, with their real Content-Security-Policy.

export const CHROMIUM = "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const ARTIFACTS = join(import.meta.dirname, "../../artifacts/pages");

/** A describe that is skipped where Debian's chromium package is not installed (.ci/run installs it). */
export const describeInChromium = describe.skipIf(!existsSync(CHROMIUM));

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, timeout: WAIT_GUARD_MS });
}

let shared: Promise<Browser> | undefined;

/**
 * The worker's Chromium, launched by the first file that asks and kept for the later files of
 * the same worker (the "shared" project of vitest.config.ts runs them in one module graph), as
 * sharedTestServer keeps a server: a launch and a close cost about 2 s on a busy machine, and
 * some thirty files ask. Every tab is a browser context of its own (no cookies, storage,
 * permissions or authenticators in common), so files share only the process. Do not close it:
 * it ends with the worker (playwright kills what it launched when its process exits), and one
 * that has crashed or disconnected is launched again for the next file.
 */
export function sharedChromium(): Promise<Browser> {
  if (!shared) {
    const launching = launchChromium();
    shared = launching;
    launching.then(
      (browser) =>
        browser.on("disconnected", () => {
          if (shared === launching) shared = undefined;
        }),
      () => {
        if (shared === launching) shared = undefined;
      },
    );
  }
  return shared;
}

/**
 * A full-page PNG at artifacts/pages/<name>.png, for a person to look at after the run; none
 * with TEST_SCREENSHOTS=0. CI sets it: its clone, and the pictures with it, are deleted at the
 * end, and the captures cost time (158 a run; in test/pages/a11y alone, 40 took 16 s of its
 * 102 s on a busy machine). A screenshot asserts nothing.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.TEST_SCREENSHOTS === "0") return;
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true, timeout: WAIT_GUARD_MS });
}

// axe-core's minified build: the same version and rules as `axe.source` (its axe.js, 1.5 MB),
// in less than half the text. Sending and parsing the library, not running it, was most of
// each check's time (2.4 s against 0.6 s on a busy machine).
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * Runs axe-core in the page and fails on any violation of impact serious or critical, naming
 * each with its nodes. The pages' CSP allows no inline script, so the library goes in through
 * the DevTools protocol (page.evaluate), which CSP does not govern, not through a <script>;
 * once per document (a check after a resize reuses it: axe.run reads the page as it is then).
 */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const loaded = await page
    .evaluate(`(() => { if (typeof globalThis.axe !== "object") { ${AXE_SOURCE}; } return typeof globalThis.axe; })()`)
    .catch((error: Error) => `blocked: ${error.message}`);
  if (loaded !== "object") throw new Error(`axe-core could not be loaded into ${page.url()}: ${String(loaded)}`);
  const violations = await page.evaluate(async () => {
    const result = await (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ["violations"] });
    return (
      result.violations as Array<{
        id: string;
        impact: string;
        help: string;
        nodes: Array<{ target: unknown[]; failureSummary: string }>;
      }>
    ).map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${JSON.stringify(n.target)}: ${n.failureSummary}`),
    }));
  });
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  if (serious.length > 0) {
    const list = serious.map((v) => `- ${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.join("\n    ")}`).join("\n");
    throw new Error(`${serious.length} serious or critical accessibility violation(s) at ${page.url()}:\n${list}`);
  }
}

/** Whether the page scrolls sideways at its current viewport width. */
export function scrollWidth(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);
}

/**
 * A passkey as the DevTools virtual authenticator holds it (WebAuthn.Credential, binary fields
 * in base64): with its private key, so it can move to another tab's authenticator.
 */
export interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
  backupEligibility?: boolean;
  backupState?: boolean;
}

export interface VirtualAuthenticator {
  /** What the authenticator holds now (WebAuthn.getCredentials). */
  credentials(): Promise<VirtualCredential[]>;
  /** Puts a passkey another tab's authenticator made into this one, as a synced or copied key would arrive. */
  add(credential: VirtualCredential): Promise<void>;
}

/**
 * A platform authenticator for `page` (WebAuthn.addVirtualAuthenticator over the DevTools
 * protocol) with resident keys and a person who is always present, so a ceremony completes
 * without a prompt. Its user verification (a PIN or biometrics):
 *
 * - `verifies` (the default): every answer says the user was verified;
 * - `fails`: the person is not recognised, and Chromium ends the ceremony (NotAllowedError);
 * - `unreported`: it answers, but with the UV flag clear (WebAuthn.setResponseOverrideBits
 *   isBadUV), as a key without a PIN or biometrics signs. An authenticator that has no user
 *   verification at all (`hasUserVerification: false`) would say the same, but Chromium then
 *   offers no autofill and ends a discoverable request unanswered.
 *
 * It lives as long as the page's tab, across navigations.
 */
export async function addVirtualAuthenticator(
  page: Page,
  options: { userVerification?: "verifies" | "fails" | "unreported" } = {},
): Promise<VirtualAuthenticator> {
  const uv = options.userVerification ?? "verifies";
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: uv !== "fails",
      automaticPresenceSimulation: true,
    },
  });
  if (uv === "unreported") await cdp.send("WebAuthn.setResponseOverrideBits", { authenticatorId, isBadUV: true });
  return {
    credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
    add: async (credential) => void (await cdp.send("WebAuthn.addCredential", { authenticatorId, credential })),
  };
}
