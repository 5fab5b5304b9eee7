import { beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { describeInChromium } from "../helpers/browser.js";
import {
  button,
  checkState,
  expectNoJson,
  field,
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

// What a person reads when something goes wrong: the contract's words in an alert tied to the
// field it is about, never the API's JSON.

describeInChromium("hosted pages: errors in words", () => {
  const world = usePagesWorld();
  let project: PagesProject;

  beforeAll(async () => {
    project = await world.project();
  });

  /** The alert is announced and tied to the field: aria-invalid, and aria-describedby naming it. */
  async function expectFieldError(page: Page, label: string, words: string | RegExp): Promise<void> {
    await seeAlert(page, words);
    const input = field(page, label);
    expect(await input.getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await input.getAttribute("aria-describedby")) ?? "";
    const described = await Promise.all(
      describedBy
        .split(/\s+/)
        .filter(Boolean)
        .map((id) => page.locator(`[id="${id}"]`).innerText()),
    );
    expect(described.join(" ")).toMatch(words);
  }

  it("a wrong code: 'That code is not right…', on the Code field", async () => {
    const email = await signupOverRest(project);
    const { page } = await world.tab();
    await page.goto(project.url("login"));
    await field(page, "Email").fill(email);
    const mail = nextMailTo(world, email);
    await button(page, "Email me a code").click();
    const code = /\b(\d{6})\b/.exec((await mail()).text)![1];
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    await field(page, "Code").fill(wrong);
    await button(page, "Verify code").click();
    await expectFieldError(page, "Code", "That code is not right. Check it and try again.");
    await checkState(page, "error-wrong-code");
  });

  it("a sign-in link used twice: the INVALID_LINK words the second time", async () => {
    const email = await signupOverRest(project);
    const { page } = await world.tab();
    await page.goto(project.url("login"));
    await field(page, "Email").fill(email);
    const mail = nextMailTo(world, email);
    await button(page, "Email me a sign-in link").click();
    await see(page, "Check your email");
    const url = linkIn((await mail()).text);
    await page.goto(url);
    // Opening the page spends nothing: the press does.
    await button(page, "Continue signing in").click();
    await landedWithTokens(world, page);

    const again = await world.tab();
    await again.page.goto(url);
    await button(again.page, "Continue signing in").click();
    await seeAlert(again.page, "This link has expired or was already used. Ask for a new one.");
    await checkState(again.page, "error-used-link");
  });

  it("too many wrong passwords: 'Too many attempts. Try again in … seconds.'", async () => {
    const limited = await world.project({ rateLimits: { signInFailuresPerAccount: 1, signInWaitSeconds: 60 } });
    const email = await signupOverRest(limited);
    const { page } = await world.tab();
    await page.goto(limited.url("login"));
    await field(page, "Email").fill(email);
    await field(page, "Password").fill("not the password at all");
    await button(page, "Sign in").click();
    await seeAlert(page, "That email and password don't match.");
    await field(page, "Password").fill(PASSWORD);
    await button(page, "Sign in").click();
    await seeAlert(page, /^Too many attempts\. Try again in (60|59|58) seconds\.$/);
    await checkState(page, "error-rate-limited");
  });

  it("signup: a weak password and a taken email, in words", async () => {
    // A taken email is said only where the project reveals it (reveal_email_exists; not the default).
    const revealing = await world.project({ revealEmailExists: true });
    const taken = await signupOverRest(revealing);
    const { page } = await world.tab();
    await page.goto(revealing.url("signup"));
    await field(page, "Email").fill(uniqueEmail("weak"));
    await field(page, "Password").fill("password");
    await button(page, "Create account").click();
    await expectFieldError(page, "Password", "Choose a longer, less common password.");
    await checkState(page, "error-weak-password");
    await field(page, "Email").fill(taken);
    await field(page, "Password").fill(PASSWORD);
    await button(page, "Create account").click();
    await seeAlert(page, "An account with this email already exists. Sign in instead.");
  });

  it("an unknown project, an unknown page and a foreign redirect_url answer HTML pages in words", async () => {
    const { page } = await world.tab();
    for (const url of [
      `${world.publicUrl}/v1/auth/lp_00000000000000000000000000/login`,
      project.url("no-such-page"),
      project.url("login", { redirect_url: "https://evil.example/steal" }),
    ]) {
      const response = await page.goto(url);
      expect(response?.status(), url).toBeGreaterThanOrEqual(400);
      expect(response?.headers()["content-type"], url).toMatch(/^text\/html/);
      await expectNoJson(page);
      expect((await page.locator("body").innerText()).trim().length, url).toBeGreaterThan(10);
    }
    await checkState(page, "error-bad-redirect");
  });
});
