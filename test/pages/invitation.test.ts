import { beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { describeInChromium } from "../helpers/browser.js";
import {
  button,
  checkState,
  field,
  heading,
  link,
  linkIn,
  nextMailTo,
  see,
  seeAlert,
  uniqueEmail,
  usePagesWorld,
  type PagesProject,
} from "../helpers/pages.js";
import { WAIT_GUARD_MS } from "../helpers/patience.js";
import { injectHttp } from "../helpers/inject.js";
import { http } from "../helpers/clients.js";

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

  /** Invites `email` as the project's organization admin; answers the mail's link. */
  async function invite(email: string): Promise<string> {
    const mail = nextMailTo(world, email);
    const invited = await injectHttp(world.server.handle, "/v1/members/invite", {
      headers: await project.admin(),
      body: { email, role: "developer" },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
    return linkIn((await mail()).text);
  }

  async function organizationName(): Promise<string> {
    const { repos } = world.server.deps.db;
    const found = await repos.projects.getByLoginId(project.loginId);
    return (await repos.organizations.get(found!.organizationId))!.name;
  }

  /** The page's words without the isolates that set names apart (U+2068, U+2069). */
  const plain = (text: string) => text.replace(/[\u2068\u2069]/g, "");

  /** The settings the server rendered into the page for this link (no browser). */
  async function settingsOf(url: string): Promise<Record<string, unknown>> {
    const html = (await http(url)).body as string;
    const block = /<script type="application\/json" id="gatehouse-page">(.*?)<\/script>/s.exec(html)?.[1];
    return JSON.parse(block!) as Record<string, unknown>;
  }

  /** A spent invitation: says so, says what to do, offers sign-in, and no password form. */
  async function expectSpent(page: Page): Promise<void> {
    await heading(page, "Accept your invitation").waitFor();
    await seeAlert(page, "This invitation has expired or was already used.");
    await see(page, "Ask an administrator of the organization to invite you again.");
    await link(page, "Sign in").waitFor();
    expect(await field(page, "Choose a password").count()).toBe(0);
  }

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

  it("the invitation page names the organization and the inviter, as the mail did", async () => {
    const url = await invite(uniqueEmail("named"));
    const organization = await organizationName();
    const { page } = await world.tab();
    await page.goto(url);
    await field(page, "Choose a password").waitFor();
    const said = plain(await page.locator("main p").first().innerText());
    expect(said).toBe(`${project.adminLogin.email} invited you to join ${organization} on Gatehouse.`);
    await checkState(page, "account-invitation-named");
  });

  it("a used or unknown invitation link names nobody, says so at once and what to do instead", async () => {
    const email = uniqueEmail("used");
    const url = await invite(email);
    const pending = await settingsOf(url);
    expect(pending.invitation).toEqual({
      organization_name: await organizationName(),
      inviter_email: project.adminLogin.email,
    });
    const token = new URL(url).searchParams.get("token")!;
    const accepted = await injectHttp(world.server.handle, "/v1/account/invitations/accept", {
      body: { token, password: "accepted elsewhere 7" },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);

    // The server looks the token up, and answers a spent one as it answers one that never was.
    const unknown = `${world.publicUrl}/?token=ginv_${"x".repeat(43)}&type=invitation`;
    expect((await settingsOf(url)).invitation).toBeNull();
    expect((await settingsOf(unknown)).invitation).toBeNull();
    for (const address of [url, unknown]) {
      const { page } = await world.tab();
      await page.goto(address);
      await expectSpent(page);
    }
  });

  it("a member's used password reset link: 'Send reset link' mails a new one, which works", async () => {
    // The member the first test made: the admin's password stays as project.admin() knows it.
    const email = invitee;
    const ask = async () => {
      const mail = nextMailTo(world, email);
      const asked = await injectHttp(world.server.handle, "/v1/account/password/reset-request", {
        headers: { origin: world.publicUrl },
        body: { email },
      });
      expect(asked.status, JSON.stringify(asked.body)).toBe(200);
      return linkIn((await mail()).text);
    };
    const url = await ask();
    const first = (await world.tab()).page;
    await first.goto(url);
    await field(first, "New password").fill("a member's reset passphrase 8");
    const answered = first.waitForResponse((r) => r.url().endsWith("/ResetMemberPassword"), { timeout: WAIT_GUARD_MS });
    await button(first, "Set new password").click();
    expect((await answered).status()).toBe(200);

    const { page } = await world.tab();
    await page.goto(url);
    await field(page, "New password").fill("a member's reset passphrase 9");
    await button(page, "Set new password").click();
    await seeAlert(page, "This link has expired or was already used. Ask for a new one.");
    await field(page, "Email").fill(email);
    const mail = nextMailTo(world, email);
    await button(page, "Send reset link").click();
    await see(page, `If an account exists for ${email}, we sent it a link to choose a new password.`);
    const fresh = linkIn((await mail()).text);
    expect(fresh).not.toBe(url);
    const person = (await world.tab()).page;
    await person.goto(fresh);
    await field(person, "New password").fill("a member's reset passphrase 9");
    await button(person, "Set new password").click();
    await see(person, "Your password has been changed.");
  });

  it("an expired invitation link names nobody either", async () => {
    const url = await invite(uniqueEmail("late"));
    world.clock.advance(7 * 24 * 3600 * 1000 + 60_000);
    expect((await settingsOf(url)).invitation).toBeNull();
    const { page } = await world.tab();
    await page.goto(url);
    await expectSpent(page);
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
