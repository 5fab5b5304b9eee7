import { beforeAll, expect, it } from "vitest";
import { describeInChromium } from "../helpers/browser.js";
import {
  button,
  checkState,
  expectValidTokens,
  field,
  heading,
  landedWithTokens,
  link,
  linkIn,
  nextMailTo,
  PASSWORD,
  see,
  seeAlert,
  uniqueEmail,
  usePagesWorld,
  WAIT,
  type PagesProject,
} from "../helpers/pages.js";

// An end user invited by the project's administrator (InviteUser, issue 25): the mail's link
// opens the hosted reset page as "Choose your password"; the chosen password verifies the
// address, and the page continues to the redirect_url the administrator named, or to sign-in.
// (The member invitations of the Account interface are test/pages/invitation.test.ts.)

describeInChromium("hosted pages: an invited user chooses a password", () => {
  const world = usePagesWorld();
  let project: PagesProject;

  beforeAll(async () => {
    project = await world.project();
  });

  async function invite(email: string, redirectUrl?: string): Promise<string> {
    const mail = nextMailTo(world, email);
    const res = await project.call("POST", "/v1/auth/users/invite", {
      email,
      ...(redirectUrl && { redirect_url: redirectUrl }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const url = linkIn((await mail()).text);
    expect(url.startsWith(`${project.url("reset-password")}?`), url).toBe(true);
    return url;
  }

  it("the link opens 'Choose your password'; the password set, Continue goes to the named redirect_url", async () => {
    const email = uniqueEmail("invited");
    const destination = `${world.callbackUrl}?from=invitation`;
    const url = await invite(email, destination);

    const { page } = await world.tab();
    await page.goto(url);
    await heading(page, "Choose your password").waitFor({ timeout: WAIT });
    // The token leaves the address bar once read; the destination stays.
    const shown = new URL(page.url());
    expect(shown.searchParams.has("token")).toBe(false);
    expect(shown.searchParams.get("redirect_url")).toBe(destination);
    await checkState(page, "user-invitation");
    await field(page, "New password").fill(PASSWORD);
    await button(page, "Set password").click();
    await see(page, "Your password is set and your email address is verified.");
    await checkState(page, "user-invitation-done");
    await link(page, "Continue").click();
    await page.waitForURL((u) => u.href === destination, { timeout: WAIT });
    await heading(page, "Back at the app").waitFor({ timeout: WAIT });

    const login = await project.call("POST", "/v1/auth/login", { email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.user.email_verified).toBe(true);

    // Opened again, the link is spent: said in words.
    const again = await world.tab();
    await again.page.goto(url);
    await field(again.page, "New password").fill("another sturdy passphrase 2");
    await button(again.page, "Set password").click();
    await seeAlert(again.page, "This link has expired or was already used. Ask for a new one.");
  });

  it("without a redirect_url the page ends at sign-in, which lands at the project's redirect_url with tokens", async () => {
    const email = uniqueEmail("invited-plain");
    const url = await invite(email);
    const { page } = await world.tab();
    await page.goto(url);
    await field(page, "New password").fill(PASSWORD);
    await button(page, "Set password").click();
    await heading(page, "Password set").waitFor({ timeout: WAIT });
    await link(page, "Sign in").click();
    await field(page, "Email").fill(email);
    await field(page, "Password").fill(PASSWORD);
    await button(page, "Sign in").click();
    await expectValidTokens(project, await landedWithTokens(world, page));
  });
});
