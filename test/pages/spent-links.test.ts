import type { Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import { describeInChromium } from "../helpers/browser.js";
import {
  button,
  checkState,
  expectValidTokens,
  field,
  heading,
  landedWithTokens,
  linkIn,
  nextMailTo,
  PASSWORD,
  see,
  seeAlert,
  signupOverRest,
  uniqueEmail,
  usePagesWorld,
  type PagesProject,
} from "../helpers/pages.js";

// A link that no longer works (used, replaced, expired) used to end the page: "This link has
// expired or was already used. Ask for a new one." and a way back. Now the page that says so
// holds the button that asks for a new one, and the new link does what the old one was for.

const SPENT = "This link has expired or was already used. Ask for a new one.";

describeInChromium("hosted pages: a used link asks for a new one", () => {
  const world = usePagesWorld();
  let project: PagesProject;
  /** Mails a verification link at signup (and so its users a second mail): the third test's. */
  let verifying: PagesProject;

  beforeAll(async () => {
    project = await world.project();
    verifying = await world.project({ sendVerification: true });
  });

  /** Opens `url` in a fresh tab, as a mail client would. */
  async function open(url: string): Promise<Page> {
    const { page } = await world.tab();
    await page.goto(url);
    return page;
  }

  /** Fills Email, presses `label`, and answers the link of the mail it sent. */
  async function askAgain(page: Page, email: string, label: string, sent: string | RegExp): Promise<string> {
    await field(page, "Email").fill(email);
    const mail = nextMailTo(world, email);
    await button(page, label).click();
    await see(page, sent);
    return linkIn((await mail()).text);
  }

  it("a used sign-in link: 'Email me a sign-in link' mails a new one, which signs in", async () => {
    const email = await signupOverRest(project);
    const mail = nextMailTo(world, email);
    const sent = await project.call("POST", "/v1/auth/magic-link/send", {
      email,
      redirect_url: project.url("magic-link"),
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const url = linkIn((await mail()).text);
    const first = await open(url);
    await button(first, "Continue signing in").click();
    await landedWithTokens(world, first);

    const again = await open(url);
    await button(again, "Continue signing in").click();
    await seeAlert(again, SPENT);
    await checkState(again, "magic-link-spent");
    // A minute on, so the new send is not the resend within the minute.
    world.clock.advance(61_000);
    const fresh = await askAgain(again, email, "Email me a sign-in link", "Check your email");
    expect(fresh).not.toBe(url);
    const person = await open(fresh);
    await button(person, "Continue signing in").click();
    await expectValidTokens(project, await landedWithTokens(world, person));
  });

  it("a used password reset link: 'Send reset link' mails a new one, which sets the password", async () => {
    const email = await signupOverRest(project);
    const mail = nextMailTo(world, email);
    const asked = await project.call("POST", "/v1/auth/password/reset-request", {
      email,
      redirect_url: project.url("reset-password"),
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const url = linkIn((await mail()).text);
    const first = await open(url);
    await field(first, "New password").fill("a first new passphrase 5");
    await button(first, "Set new password").click();
    await see(first, "Your password has been changed.");

    const again = await open(url);
    await field(again, "New password").fill("a second new passphrase 6");
    await button(again, "Set new password").click();
    await seeAlert(again, SPENT);
    await heading(again, "Reset your password").waitFor();
    const fresh = await askAgain(again, email, "Send reset link", /^If an account exists for/);
    const person = await open(fresh);
    await field(person, "New password").fill("a second new passphrase 6");
    await button(person, "Set new password").click();
    await see(person, "Your password has been changed.");
    const login = await project.call("POST", "/v1/auth/login", { email, password: "a second new passphrase 6" });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
  });

  it("a used verification link: 'Email me a sign-in link' mails a link that signs in", async () => {
    const email = uniqueEmail("verify-again");
    const mail = nextMailTo(world, email);
    const signup = await verifying.call("POST", "/v1/auth/signup", {
      email,
      password: PASSWORD,
      redirect_url: verifying.url("verify-email"),
    });
    expect(signup.status, JSON.stringify(signup.body)).toBe(200);
    const url = linkIn((await mail()).text);
    expect(url.startsWith(`${verifying.url("verify-email")}?`), url).toBe(true);
    await see(await open(url), "Your email address is verified.");

    const again = await open(url);
    await seeAlert(again, SPENT);
    await checkState(again, "verify-email-spent");
    const fresh = await askAgain(again, email, "Email me a sign-in link", "Check your email");
    const person = await open(fresh);
    await button(person, "Continue signing in").click();
    await expectValidTokens(verifying, await landedWithTokens(world, person));
  });
});
