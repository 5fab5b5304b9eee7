import { beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { describeInChromium } from "../helpers/browser.js";
import {
  button,
  checkState,
  field,
  heading,
  linkIn,
  nextMailTo,
  see,
  uniqueEmail,
  usePagesWorld,
  type PagesProject,
} from "../helpers/pages.js";
import { WAIT_GUARD_MS } from "../helpers/patience.js";
import { injectHttp } from "../helpers/inject.js";

// The account pages at `/`: a member invited by an admin accepts from the mail's link and
// chooses a password, reaches the console home, signs out, and signs in again at `/`; a
// member who forgot the password resets it from the mail's link.

describeInChromium("account pages: invitation, console sign-in, member reset", () => {
  const world = usePagesWorld();
  let project: PagesProject;
  const invitee = uniqueEmail("invitee");
  const password = "invited and sturdy 3";

  beforeAll(async () => {
    project = await world.project();
  });

  async function consoleSignIn(page: Page, email: string, secret: string): Promise<void> {
    await page.goto(`${world.publicUrl}/`);
    await field(page, "Email").fill(email);
    await field(page, "Password").fill(secret);
    await button(page, "Sign in").click();
    await see(page, `Signed in as ${email}`);
    await heading(page, "Projects").waitFor();
  }

  it("an invitation's link opens 'Accept your invitation'; a chosen password signs the member in to the console", async () => {
    const mail = nextMailTo(world, invitee);
    const invite = await injectHttp(world.server.handle, "/v1/members/invite", {
      headers: await project.admin(),
      body: { email: invitee, role: "developer" },
    });
    expect(invite.status, JSON.stringify(invite.body)).toBe(200);
    const url = linkIn((await mail()).text);
    expect(url).toMatch(new RegExp(`^${world.publicUrl}/?\\?token=ginv_[A-Za-z0-9_-]+&type=invitation$`));

    const { page } = await world.tab();
    await page.goto(url);
    await heading(page, "Accept your invitation").waitFor();
    expect(new URL(page.url()).searchParams.has("token")).toBe(false);
    await checkState(page, "account-invitation");
    await field(page, "Choose a password").fill(password);
    await button(page, "Accept invitation").click();
    await see(page, `Signed in as ${invitee}`);
    await heading(page, "Projects").waitFor();
    await checkState(page, "account-console-home");
  });

  it("the console sign-in at / works with that password, and 'Sign out' signs out", async () => {
    const { page } = await world.tab();
    await consoleSignIn(page, invitee, password);
    await button(page, "Sign out").click();
    await button(page, "Sign in").waitFor();
    await field(page, "Password").waitFor();
    await checkState(page, "account-sign-in");
  });

  it("a member's password reset link opens the reset form; the new password signs in", async () => {
    const mail = nextMailTo(world, project.adminLogin.email);
    const asked = await injectHttp(world.server.handle, "/v1/account/password/reset-request", {
      headers: { origin: world.publicUrl },
      body: { email: project.adminLogin.email },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const url = linkIn((await mail()).text);
    expect(url).toContain("type=member_password_reset");

    const { page } = await world.tab();
    await page.goto(url);
    await field(page, "New password").fill("a fresh member passphrase 4");
    await checkState(page, "account-member-reset");
    // The contract names no words for this page's success, so the test waits for the answer.
    const answered = page.waitForResponse((r) => r.url().endsWith("/ResetMemberPassword"), { timeout: WAIT_GUARD_MS });
    await button(page, "Set new password").click();
    expect((await answered).status()).toBe(200);
    await consoleSignIn((await world.tab()).page, project.adminLogin.email, "a fresh member passphrase 4");
  });
});
