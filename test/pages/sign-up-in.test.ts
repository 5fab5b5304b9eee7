import { beforeAll, expect, it } from "vitest";
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
  uniqueEmail,
  usePagesWorld,
  type PagesProject,
} from "../helpers/pages.js";

// The hosted pages' main road: sign up, land at the app with tokens, sign out (the refresh
// token dies with the session), sign in again with the password.

describeInChromium("hosted pages: sign up, sign out, sign in", () => {
  const world = usePagesWorld();
  let project: PagesProject;
  const email = uniqueEmail("road");
  let refreshToken = "";
  let accessToken = "";

  beforeAll(async () => {
    project = await world.project();
  });

  it("signs up on /signup and lands at the app's callback with tokens that verify", async () => {
    const { page } = await world.tab();
    await page.goto(project.url("signup"));
    expect(await page.title()).toContain(project.displayName);
    await page.locator(".brand-name").getByText(project.displayName, { exact: true }).waitFor();
    await field(page, "Email").fill(email);
    await field(page, "Password").fill(PASSWORD);
    await checkState(page, "sign-up-filled");
    await button(page, "Create account").click();
    const fragment = await landedWithTokens(world, page);
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
    await page.goto(`${project.url("logout")}#refresh_token=${encodeURIComponent(refreshToken)}&access_token=${encodeURIComponent(accessToken)}`);
    await see(page, "You are signed out.");
    expect(await Promise.all(revocations)).toEqual([200, 200]);
    const verified = await project.call("POST", "/v1/auth/token/verify", { token: accessToken });
    expect(verified.body.valid, JSON.stringify(verified.body)).toBe(false);
    expect(new URL(page.url()).hash).toBe("");
    await checkState(page, "signed-out");
    const refresh = await project.call("POST", "/v1/auth/token/refresh", { refresh_token: refreshToken });
    expect({ status: refresh.status, reason: refresh.body?.reason }).toEqual({ status: 401, reason: "INVALID_REFRESH_TOKEN" });

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

  it("a project that verifies emails: the signup's mail links to the hosted verify-email page, which says so", async () => {
    const verifying = await world.project({ sendVerification: true });
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
