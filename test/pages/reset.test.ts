import { beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { describeInChromium } from "../helpers/browser.js";
import {
  button,
  checkState,
  expectValidTokens,
  field,
  landedWithTokens,
  link,
  linkIn,
  nextMailTo,
  PASSWORD,
  see,
  seeAlert,
  signupOverRest,
  usePagesWorld,
  type PagesProject,
} from "../helpers/pages.js";

// A forgotten password, all in hosted pages: ask from the login page, follow the mail's link
// to the reset page, choose a new password; the new one signs in and the old one no longer does.

describeInChromium("hosted pages: password reset", () => {
  const world = usePagesWorld();
  let project: PagesProject;

  beforeAll(async () => {
    project = await world.project();
  });

  async function signIn(page: Page, email: string, password: string): Promise<void> {
    await page.goto(project.url("login"));
    await field(page, "Email").fill(email);
    await field(page, "Password").fill(password);
    await button(page, "Sign in").click();
  }

  it("forgot password → mail → hosted reset page → new password signs in, the old one is refused in words", async () => {
    const email = await signupOverRest(project);
    const newPassword = "another sturdy passphrase 2";
    const { page } = await world.tab();
    await page.goto(project.url("login"));
    await link(page, "Forgot your password?").click();
    await field(page, "Email").fill(email);
    const mail = nextMailTo(world, email);
    await button(page, "Send reset link").click();
    await see(page, /^If an account exists for/);
    await checkState(page, "forgot-password-sent");

    const url = linkIn((await mail()).text);
    expect(url.startsWith(`${project.url("reset-password")}?`), url).toBe(true);
    const mailClient = await world.tab();
    await mailClient.page.goto(url);
    // The token leaves the address bar once read.
    await field(mailClient.page, "New password").waitFor();
    expect(new URL(mailClient.page.url()).searchParams.has("token")).toBe(false);
    await field(mailClient.page, "New password").fill(newPassword);
    await button(mailClient.page, "Set new password").click();
    await see(mailClient.page, "Your password has been changed.");
    await checkState(mailClient.page, "password-changed");
    await link(mailClient.page, "Sign in").click();
    await field(mailClient.page, "Password").waitFor();

    await signIn(page, email, newPassword);
    await expectValidTokens(project, await landedWithTokens(world, page));

    const second = await world.tab();
    await signIn(second.page, email, PASSWORD);
    await seeAlert(second.page, "That email and password don't match.");
    await checkState(second.page, "login-wrong-password");
  });
});
