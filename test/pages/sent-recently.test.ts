import type { Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import { describeInChromium } from "../helpers/browser.js";
import {
  button,
  checkState,
  expectValidTokens,
  field,
  landedWithTokens,
  link,
  nextMailTo,
  see,
  signupOverRest,
  usePagesWorld,
  type PagesProject,
} from "../helpers/pages.js";

// A second "Email me a code" within the minute is refused by the server as a resend too soon
// (RATE_LIMITED naming `limit: resend_interval`). The page used to say "Too many attempts" and
// mark the Email field invalid, though nothing was wrong with it and the first code was on its
// way. It now says that a code went there less than a minute ago, marks no field, and lets the
// person type the code that came.

describeInChromium("hosted pages: a second send within the minute", () => {
  const world = usePagesWorld();
  let project: PagesProject;

  beforeAll(async () => {
    project = await world.project();
  });

  const codeIn = (text: string) => {
    const code = /\b(\d{6})\b/.exec(text)?.[1];
    if (!code) throw new Error(`no six-digit code in:\n${text}`);
    return code;
  };

  /** The wait the words give, checked to be the rest of the minute. */
  async function waitSaid(page: Page, words: RegExp): Promise<number> {
    await see(page, words);
    const text = await page.getByText(words).first().innerText();
    const seconds = Number(/wait (\d+) seconds? to ask for a new one/.exec(text)?.[1]);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    return seconds;
  }

  const noFieldInvalid = async (page: Page) => {
    expect(await page.locator('[aria-invalid="true"]').count(), "a field marked invalid").toBe(0);
    expect(await page.getByText(/Too many attempts/).count()).toBe(0);
  };

  it("'Email me a code' again within the minute: says a code was sent less than a minute ago, marks no field, and the first code signs in", async () => {
    const email = await signupOverRest(project);
    const { page } = await world.tab();
    await page.goto(project.url("login"));
    await field(page, "Email").fill(email);
    const first = nextMailTo(world, email);
    await button(page, "Email me a code").click();
    await field(page, "Code").waitFor();

    await link(page, "Back to sign in").click();
    await field(page, "Email").fill(email);
    await button(page, "Email me a code").click();
    const words = new RegExp(
      `^A code was sent to ${email.replace(/[.]/g, "\\.")} less than a minute ago\\. Check your inbox, or wait \\d+ seconds? to ask for a new one\\.$`,
    );
    await waitSaid(page, words);
    await noFieldInvalid(page);
    await checkState(page, "code-sent-recently");

    await field(page, "Code").fill(codeIn((await first()).text));
    await button(page, "Verify code").click();
    await expectValidTokens(project, await landedWithTokens(world, page));
  });

  it("'Send a new code' within the minute says so without marking the Code field; after the minute it sends one that signs in", async () => {
    const email = await signupOverRest(project);
    const { page } = await world.tab();
    await page.goto(project.url("login"));
    await field(page, "Email").fill(email);
    const first = nextMailTo(world, email);
    await button(page, "Email me a code").click();
    await field(page, "Code").waitFor();
    // The outbox delivers after the answer: counted before it lands, the first code would pass
    // for the second one, which replaces it.
    await first();
    await button(page, "Send a new code").click();
    await waitSaid(
      page,
      /^A code was sent to .* less than a minute ago\. Check your inbox, or wait \d+ seconds? to ask/,
    );
    await noFieldInvalid(page);

    world.clock.advance(61_000);
    const second = nextMailTo(world, email);
    await button(page, "Send a new code").click();
    await see(page, `We sent a new code to ${email}.`);
    await field(page, "Code").fill(codeIn((await second()).text));
    await button(page, "Verify code").click();
    await expectValidTokens(project, await landedWithTokens(world, page));
  });

  it("'Email me a sign-in link' again within the minute says a link was sent less than a minute ago", async () => {
    const email = await signupOverRest(project);
    const { page } = await world.tab();
    await page.goto(project.url("login"));
    await field(page, "Email").fill(email);
    await button(page, "Email me a sign-in link").click();
    await see(page, "Check your email");
    await link(page, "Back to sign in").click();
    await field(page, "Email").fill(email);
    await button(page, "Email me a sign-in link").click();
    await waitSaid(
      page,
      /^A sign-in link was sent to .* less than a minute ago\. Check your inbox, or wait \d+ seconds? to ask/,
    );
    await noFieldInvalid(page);
  });
});
