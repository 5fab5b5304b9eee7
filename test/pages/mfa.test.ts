import jsqr from "jsqr";
import type { Page } from "playwright-core";
import { PNG } from "pngjs";
import { beforeAll, expect, it } from "vitest";
import { nextStep, parseTotpUri, totpAt } from "../auth/mfa-helpers.js";
import { describeInChromium } from "../helpers/browser.js";
import {
  button,
  checkState,
  expectValidTokens,
  field,
  heading,
  landedWithTokens,
  link,
  PASSWORD,
  seeAlert,
  signupOverRest,
  usePagesWorld,
  type PagesProject,
} from "../helpers/pages.js";

// A project with mfa_required: the first sign-in must enroll an authenticator (the QR code a
// phone would scan, decoded here), then each sign-in asks for a code, or a recovery code. The
// server runs on the test clock, so codes are computed for its time, not the machine's.

describeInChromium("hosted pages: two-step verification", () => {
  const world = usePagesWorld();
  let project: PagesProject;
  let email = "";
  let secret = "";
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    project = await world.project({ mfaRequired: true });
    email = await signupOverRest(project);
  });

  async function signInWithPassword(page: Page): Promise<void> {
    await page.goto(project.url("login"));
    await field(page, "Email").fill(email);
    await field(page, "Password").fill(PASSWORD);
    await button(page, "Sign in").click();
  }

  /** The otpauth:// URI in the QR code's PNG (the img's data URL). */
  async function qrCodeUri(page: Page): Promise<string> {
    const src = await page.getByAltText("QR code for your authenticator app", { exact: true }).getAttribute("src");
    expect(src).toMatch(/^data:image\/png;base64,/);
    const png = PNG.sync.read(Buffer.from(src!.slice(src!.indexOf(",") + 1), "base64"));
    // jsqr is CommonJS with its function on `default` too, which is what the types describe.
    const decoded = jsqr.default(new Uint8ClampedArray(png.data), png.width, png.height);
    if (!decoded) throw new Error("the QR code did not decode");
    return decoded.data;
  }

  it("the first sign-in enrolls an authenticator from the QR code, shows the recovery codes, then lands with tokens", async () => {
    const { page } = await world.tab();
    await signInWithPassword(page);
    await heading(page, "Set up two-step verification").waitFor();
    await checkState(page, "mfa-enroll");
    const uri = await qrCodeUri(page);
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    expect(await link(page, "otpauth URI").getAttribute("href")).toBe(uri);
    secret = parseTotpUri(uri).secret;
    // The secret is also written out, for typing into an authenticator by hand.
    expect(await page.locator("main").innerText()).toContain(secret);

    nextStep(world.clock);
    await field(page, "Authentication code").fill(await totpAt(secret, world.clock));
    await button(page, "Verify").click();
    await button(page, "Continue").waitFor();
    recoveryCodes = (await page.locator("main").innerText()).match(/\b[0-9a-z]{5}-[0-9a-z]{5}\b/g) ?? [];
    expect(new Set(recoveryCodes).size).toBe(10);
    await checkState(page, "mfa-recovery-codes");
    await button(page, "Continue").click();
    await expectValidTokens(project, await landedWithTokens(world, page));
  });

  it("signs in again with a code of the next step: 'Two-step verification', then tokens", async () => {
    expect(secret).not.toBe("");
    const { page } = await world.tab();
    await signInWithPassword(page);
    await heading(page, "Two-step verification").waitFor();
    await checkState(page, "mfa-challenge");
    // A step accepted once is never accepted again: the clock moves on 30 s.
    nextStep(world.clock);
    await field(page, "Authentication code").fill(await totpAt(secret, world.clock));
    await button(page, "Verify").click();
    await expectValidTokens(project, await landedWithTokens(world, page));
  });

  it("signs in with a recovery code instead", async () => {
    expect(recoveryCodes.length).toBeGreaterThan(0);
    const { page } = await world.tab();
    await signInWithPassword(page);
    await heading(page, "Two-step verification").waitFor();
    await button(page, "Use a recovery code").click();
    await field(page, "Recovery code").fill(recoveryCodes[0]);
    await checkState(page, "mfa-recovery-entry");
    await button(page, "Verify").click();
    await expectValidTokens(project, await landedWithTokens(world, page));
  });

  it("says so in words when a code is wrong, and when the sign-in waited past its five minutes", async () => {
    expect(secret).not.toBe("");
    const { page } = await world.tab();
    await signInWithPassword(page);
    await heading(page, "Two-step verification").waitFor();
    nextStep(world.clock);
    const right = await totpAt(secret, world.clock);
    // Another six digits than the right code: each digit moved on by one.
    const wrong = [...right].map((d) => String((Number(d) + 1) % 10)).join("");
    await field(page, "Authentication code").fill(wrong);
    await button(page, "Verify").click();
    await seeAlert(page, "That code is not right. Check it and try again.");
    expect(await field(page, "Authentication code").getAttribute("aria-invalid")).toBe("true");

    // The challenge (mfa_token) lives 300 s; past it even the right code starts over.
    world.clock.advance(301_000);
    await field(page, "Authentication code").fill(await totpAt(secret, world.clock));
    await button(page, "Verify").click();
    await seeAlert(page, "This sign-in has expired. Start again.");
  });
});
