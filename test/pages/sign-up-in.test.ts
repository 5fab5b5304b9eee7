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
  link,
  linkIn,
  nextMailTo,
  PASSWORD,
  see,
  signupOverRest,
  uniqueEmail,
  usePagesWorld,
  WAIT,
  type PagesProject,
} from "../helpers/pages.js";

// The hosted pages' main road: sign up, confirm the address from the mail, land at the app
// with tokens, sign out (the refresh token dies with the session), sign in again with the
// password.

describeInChromium("hosted pages: sign up, sign out, sign in", () => {
  const world = usePagesWorld();

  /**
   * A sign-in link opened from the mail: through the verify-email page to the magic-link page,
   * which may ask for a press before it spends the link; answers the tokens at the callback.
   */
  async function finishMagicLink(page: Page): Promise<URLSearchParams> {
    const deadline = Date.now() + WAIT;
    while (!page.url().startsWith(`${world.callbackUrl}#`)) {
      const press = page.getByRole("button", { name: /^Continue/ });
      if ((await press.count()) > 0) {
        await press.first().click();
        break;
      }
      if (Date.now() > deadline) throw new Error(`the sign-in link did not finish: at ${page.url()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return landedWithTokens(world, page);
  }

  let project: PagesProject;
  const email = uniqueEmail("road");
  let refreshToken = "";
  let accessToken = "";

  beforeAll(async () => {
    project = await world.project();
  });

  it("signs up on /signup, is told to check the email, and the mail's link lands at the app's callback with tokens that verify", async () => {
    const { page } = await world.tab();
    await page.goto(project.url("signup"));
    expect(await page.title()).toContain(project.displayName);
    await page.locator(".brand-name").getByText(project.displayName, { exact: true }).waitFor();
    await field(page, "Email").fill(email);
    await field(page, "Password").fill(PASSWORD);
    await checkState(page, "sign-up-filled");
    const mail = nextMailTo(world, email);
    await button(page, "Create account").click();
    // The project does not reveal registered addresses (the default): nothing is signed in yet.
    await heading(page, "Check your email").waitFor();
    await see(page, `We sent a message to ${email}.`);
    expect(await page.getByRole("status").innerText()).toContain("finish creating your account");
    await checkState(page, "sign-up-check-email");
    expect(new URL(page.url()).hash).toBe("");

    const url = linkIn((await mail()).text);
    expect(url.startsWith(`${project.url("verify-email")}?`), url).toBe(true);
    expect(new URL(url).searchParams.get("type")).toBe("magic_link");
    const mailClient = await world.tab();
    await mailClient.page.goto(url);
    const fragment = await finishMagicLink(mailClient.page);
    await expectValidTokens(project, fragment);
    refreshToken = fragment.get("refresh_token")!;
    accessToken = fragment.get("access_token")!;
  });

  it("signs out on /logout#refresh_token=…&access_token=…: says so, the fragment is gone, and neither token works any more", async () => {
    expect(refreshToken).not.toBe("");
    const { page } = await world.tab();
    const revocations: Array<Promise<number>> = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/RevokeToken")) revocations.push(request.response().then((r) => r?.status() ?? 0));
    });
    await page.goto(
      `${project.url("logout")}#refresh_token=${encodeURIComponent(refreshToken)}&access_token=${encodeURIComponent(accessToken)}`,
    );
    await see(page, "You are signed out.");
    expect(await Promise.all(revocations)).toEqual([200, 200]);
    const verified = await project.call("POST", "/v1/auth/token/verify", { token: accessToken });
    expect(verified.body.valid, JSON.stringify(verified.body)).toBe(false);
    expect(new URL(page.url()).hash).toBe("");
    await checkState(page, "signed-out");
    const refresh = await project.call("POST", "/v1/auth/token/refresh", { refresh_token: refreshToken });
    expect({ status: refresh.status, reason: refresh.body?.reason }).toEqual({
      status: 401,
      reason: "INVALID_REFRESH_TOKEN",
    });

    await link(page, "Sign in again").click();
    await field(page, "Password").waitFor();
    expect(new URL(page.url()).pathname).toBe(`/v1/auth/${project.loginId}/login`);
  });

  it("signs in with the password on /login and is back at the callback", async () => {
    const { page } = await world.tab();
    await page.goto(project.url("login"));
    await field(page, "Email").fill(email);
    await field(page, "Password").fill(PASSWORD);
    await button(page, "Sign in").click();
    await expectValidTokens(project, await landedWithTokens(world, page));
  });

  it("login and signup link to each other, carrying ?redirect_url= along", async () => {
    const { page } = await world.tab();
    const override = `${world.callbackUrl}?from=links`;
    await page.goto(project.url("login", { redirect_url: override }));
    await link(page, "Create an account").click();
    await button(page, "Create account").waitFor();
    expect(new URL(page.url()).pathname).toBe(`/v1/auth/${project.loginId}/signup`);
    expect(new URL(page.url()).searchParams.get("redirect_url")).toBe(override);
    await link(page, "Sign in instead").click();
    await button(page, "Sign in").waitFor();
    expect(new URL(page.url()).searchParams.get("redirect_url")).toBe(override);

    // The override is where the tokens go.
    await field(page, "Email").fill(email);
    await field(page, "Password").fill(PASSWORD);
    await button(page, "Sign in").click();
    await page.waitForURL((url) => url.href.startsWith(`${override}#access_token=`));
  });

  it("a registered address gets the same 'Check your email'; its owner is mailed a notice and keeps the password", async () => {
    const taken = await signupOverRest(project);
    const { page } = await world.tab();
    await page.goto(project.url("signup"));
    await field(page, "Email").fill(taken);
    await field(page, "Password").fill("someone else's passphrase");
    const mail = nextMailTo(world, taken);
    await button(page, "Create account").click();
    await heading(page, "Check your email").waitFor();
    await see(page, `We sent a message to ${taken}.`);
    const notice = await mail();
    expect(notice.subject).toContain("tried to sign up");
    expect(notice.text).not.toContain("token=");
    expect((await project.call("POST", "/v1/auth/login", { email: taken, password: PASSWORD })).status).toBe(200);
    expect(
      (await project.call("POST", "/v1/auth/login", { email: taken, password: "someone else's passphrase" })).status,
    ).toBe(401);
  });

  it("a project that verifies emails: the signup's mail links to the hosted verify-email page, which says so", async () => {
    // Signup signs in at once (and mails the verification link) only where registered addresses may show.
    const verifying = await world.project({ sendVerification: true, revealEmailExists: true });
    const newcomer = uniqueEmail("verify");
    const { page } = await world.tab();
    await page.goto(verifying.url("signup"));
    await field(page, "Email").fill(newcomer);
    await field(page, "Password").fill(PASSWORD);
    const mail = nextMailTo(world, newcomer);
    await button(page, "Create account").click();
    await landedWithTokens(world, page);

    const url = linkIn((await mail()).text);
    expect(url.startsWith(`${verifying.url("verify-email")}?`), url).toBe(true);
    const mailClient = await world.tab();
    await mailClient.page.goto(url);
    await see(mailClient.page, "Your email address is verified.");
    expect(new URL(mailClient.page.url()).searchParams.has("token")).toBe(false);
    await checkState(mailClient.page, "email-verified");
    expect(await link(mailClient.page, "Continue").getAttribute("href")).toBe(world.callbackUrl);
  });
});
