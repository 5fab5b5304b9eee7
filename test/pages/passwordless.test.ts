import { beforeAll, expect, it } from "vitest";
import { describeInChromium } from "../helpers/browser.js";
import {
  button,
  checkState,
  expectValidTokens,
  field,
  landedWithTokens,
  linkIn,
  nextMailTo,
  see,
  signupOverRest,
  usePagesWorld,
  type PagesProject,
} from "../helpers/pages.js";

// Sign-in without a password: a code by email or SMS typed into the login page, and a link by
// email that opens the hosted magic-link page, which spends it and hands the tokens to the app.

describeInChromium("hosted pages: codes and sign-in links", () => {
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

  it("signs in with a code from the email", async () => {
    const email = await signupOverRest(project);
    const { page } = await world.tab();
    await page.goto(project.url("login"));
    await field(page, "Email").fill(email);
    const mail = nextMailTo(world, email);
    await button(page, "Email me a code").click();
    await field(page, "Code").waitFor();
    await checkState(page, "code-entry");
    await field(page, "Code").fill(codeIn((await mail()).text));
    await button(page, "Verify code").click();
    await expectValidTokens(project, await landedWithTokens(world, page));
  });

  it("signs in with a code by SMS", async () => {
    const phone = `+1555${String(process.pid % 1000).padStart(3, "0")}4242`;
    const { page } = await world.tab();
    await page.goto(project.url("login"));
    await button(page, "Text me a code").click();
    await field(page, "Phone number").fill(phone);
    await button(page, "Send code").click();
    await field(page, "Code").fill(await world.sms.codeFor(phone));
    await button(page, "Verify code").click();
    await expectValidTokens(project, await landedWithTokens(world, page));
  });

  it("signs in with a link from the email: it opens the hosted magic-link page and lands at the callback", async () => {
    const email = await signupOverRest(project);
    const { page } = await world.tab();
    await page.goto(project.url("login"));
    await field(page, "Email").fill(email);
    const mail = nextMailTo(world, email);
    await button(page, "Email me a sign-in link").click();
    await see(page, "Check your email");
    await checkState(page, "magic-link-sent");

    const url = linkIn((await mail()).text);
    expect(url.startsWith(`${project.url("magic-link")}?`), url).toBe(true);
    // Opened from the mail client: a new tab with no state of the first.
    const mailClient = await world.tab();
    await mailClient.page.goto(url);
    await expectValidTokens(project, await landedWithTokens(world, mailClient.page));
  });
});
