import jsqr from "jsqr";
import type { Page } from "playwright-core";
import { PNG } from "pngjs";
import { beforeAll, expect, it } from "vitest";
import { nextStep, parseTotpUri, totpAt } from "../auth/mfa-helpers.js";
import { addVirtualAuthenticator, describeInChromium, type VirtualCredential } from "../helpers/browser.js";
import { consoleOrganization, section, signIn, type ConsoleOrganization, type Person } from "../helpers/console.js";
import { button, checkState, field, heading, see, usePagesWorld } from "../helpers/pages.js";
import { seedMember } from "../helpers/seed.js";

// Members' second factor in the console (issue 46): a member sets up an authenticator app (the
// QR code a phone would scan, decoded here) or a passkey (Chromium's virtual authenticator) in
// Security and sees its recovery codes once; the sign-in then asks for the second step; with
// the organization's rule on, a member without one is taken to set one up before the console
// opens. Pages on http://localhost: a passkey's relying party is a domain name.

describeInChromium("console: members' second factor", () => {
  const world = usePagesWorld({ localhost: true });
  let org: ConsoleOrganization;

  beforeAll(async () => {
    org = await consoleOrganization(world);
  });

  /** The otpauth:// URI in the QR code's PNG. */
  async function qrCodeUri(page: Page): Promise<string> {
    const src = await page.getByAltText("QR code for your authenticator app", { exact: true }).getAttribute("src");
    const png = PNG.sync.read(Buffer.from(src!.slice(src!.indexOf(",") + 1), "base64"));
    const decoded = jsqr.default(new Uint8ClampedArray(png.data), png.width, png.height);
    if (!decoded) throw new Error("the QR code did not decode");
    return decoded.data;
  }

  /** Email and password at `/`, up to the step after them (no wait for the console). */
  async function password(page: Page, who: Person): Promise<void> {
    await page.goto(`${world.publicUrl}/`);
    await field(page, "Email").fill(who.email);
    await field(page, "Password").fill(who.password);
    await button(page, "Sign in").click();
  }

  const codesOn = async (page: Page) =>
    (await page.locator("main, #app").first().innerText()).match(/\b[0-9a-z]{5}-[0-9a-z]{5}\b/g) ?? [];

  let member: Person | undefined;
  let secret = "";
  let codes: string[] = [];

  it("a member sets up an authenticator app from the QR code in Security and sees its recovery codes once", async () => {
    const seeded = await seedMember(world.server.deps, org.organization, "developer");
    member = { email: seeded.email, password: seeded.password };
    const { page } = await world.tab();
    await signIn(world, page, member, { fragment: "#section=security" });
    await heading(page, "Security").waitFor();
    await see(page, "Two-step verification is off: your password alone signs you in.");
    await button(page, "Set up an authenticator app").click();
    secret = parseTotpUri(await qrCodeUri(page)).secret;
    await checkState(page, "console-security-app");
    nextStep(world.clock);
    await field(page, "Authentication code").fill(await totpAt(secret, world.clock));
    await button(page, "Verify").click();
    await heading(page, "Save your recovery codes").waitFor();
    codes = await codesOn(page);
    expect(new Set(codes).size).toBe(10);
    await see(page, "Two-step verification is on for your sign-in.");
    await checkState(page, "console-security-codes");
    // Shown once: drawn again, the section no longer has them.
    await section(page, "Projects").click();
    await section(page, "Security").click();
    await see(page, "10 recovery codes left.");
    expect(await codesOn(page)).toEqual([]);
  });

  it("the next sign-in asks for the code before the console opens, or takes a recovery code", async () => {
    expect(member && secret && codes.length).toBeTruthy();
    const next = (await world.tab()).page;
    await password(next, member!);
    await heading(next, "Two-step verification").waitFor();
    expect(await next.getByText("Signed in as").count()).toBe(0);
    await checkState(next, "console-member-mfa");
    nextStep(world.clock);
    await field(next, "Authentication code").fill(await totpAt(secret, world.clock));
    await button(next, "Verify").click();
    await see(next, `Signed in as ${member!.email}`);

    const third = (await world.tab()).page;
    await password(third, member!);
    await button(third, "Use a recovery code").click();
    await field(third, "Recovery code").fill(codes[0]);
    await button(third, "Verify").click();
    await see(third, `Signed in as ${member!.email}`);
  });

  let adminPasskey: VirtualCredential | undefined;

  it("an admin adds a passkey, then requires a second step of every member", async () => {
    const { page } = await world.tab();
    const authenticator = await addVirtualAuthenticator(page);
    await signIn(world, page, org.admin, { fragment: "#section=security" });
    await heading(page, "Security").waitFor();
    await see(page, "Set up an authenticator app or a passkey for yourself before requiring one of every member.");
    await field(page, "Name").fill("Laptop");
    await button(page, "Add a passkey").click();
    await see(page, "Passkey Laptop added.");
    await heading(page, "Save your recovery codes").waitFor();
    [adminPasskey] = await authenticator.credentials();
    expect(adminPasskey).toBeDefined();
    await page.getByLabel("Require two-step verification for every member").check();
    await button(page, "Save changes").click();
    await see(page, /Two-step verification is now required\./);
    await see(page, "Every member of this organization must sign in with a second step.");
    await checkState(page, "console-security-policy");
    expect((await world.server.deps.db.repos.organizations.get(org.organization.id))?.requireMemberMfa).toBe(true);
  });

  it("with the rule on, a member without a second step sets up an app before the console opens", async () => {
    const { page } = await world.tab();
    await password(page, org.developer);
    await heading(page, "Set up two-step verification").waitFor();
    expect(await page.getByText("Signed in as").count()).toBe(0);
    const { secret } = parseTotpUri(await qrCodeUri(page));
    await checkState(page, "console-member-enroll");
    nextStep(world.clock);
    await field(page, "Authentication code").fill(await totpAt(secret, world.clock));
    await button(page, "Verify").click();
    await heading(page, "Save your recovery codes").waitFor();
    expect(new Set(await codesOn(page)).size).toBe(10);
    await button(page, "Continue").click();
    await see(page, `Signed in as ${org.developer.email}`);
  });

  it("the admin's next sign-in is finished with its passkey", async () => {
    expect(adminPasskey).toBeDefined();
    const { page } = await world.tab();
    // The same passkey on this tab's authenticator, as a synced one would arrive.
    await (await addVirtualAuthenticator(page)).add(adminPasskey!);
    await password(page, org.admin);
    await heading(page, "Two-step verification").waitFor();
    await button(page, "Use a passkey").click();
    await see(page, `Signed in as ${org.admin.email}`);
  });
});
