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
  see,
  seeAlert,
  signupOverRest,
  usePagesWorld,
  type PagesProject,
} from "../helpers/pages.js";

// Sign-in without a password: a code by email or SMS typed into the login page, and a link by
// email that opens the hosted magic-link page, which spends it when the person presses
// "Continue signing in" and hands the tokens to the app.

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
    await button(mailClient.page, "Continue signing in").click();
    await expectValidTokens(project, await landedWithTokens(world, mailClient.page));
  });

  const VERIFY = /VerifyMagicLink|magic-link\/verify/;

  it("opening the link spends nothing (a mail scanner that runs the page's script); the press signs in", async () => {
    // Threat: a scanner that follows every link in a mail, running its scripts, signed in with
    // the page's automatic VerifyMagicLink and left the person a dead link.
    const email = await signupOverRest(project);
    const mail = nextMailTo(world, email);
    const sent = await project.call("POST", "/v1/auth/magic-link/send", {
      email,
      redirect_url: project.url("magic-link"),
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const url = linkIn((await mail()).text);

    const scanner = await world.tab();
    const verifies: string[] = [];
    scanner.page.on("request", (request) => {
      if (VERIFY.test(request.url())) verifies.push(request.url());
    });
    // Loaded as a scanner would, script and all: the page either waits for a press or posts.
    const outcome = Promise.race([
      button(scanner.page, "Continue signing in")
        .waitFor()
        .then(() => "waits for a press"),
      scanner.page.waitForRequest(VERIFY).then(() => "posted VerifyMagicLink on load"),
    ]);
    await scanner.page.goto(url);
    expect(await outcome).toBe("waits for a press");
    expect(await heading(scanner.page, `Sign in to ${project.displayName}`).isVisible()).toBe(true);
    expect(new URL(scanner.page.url()).search, "the token leaves the address bar").toBe("");
    expect(verifies).toEqual([]);
    await scanner.context.close();

    // The person's own press, later, in another browser: the link still works.
    const person = await world.tab();
    await person.page.goto(url);
    await button(person.page, "Continue signing in").click();
    await expectValidTokens(project, await landedWithTokens(world, person.page));

    // Now it is spent: a press on a third opening says so in words, with the way back.
    const again = await world.tab();
    await again.page.goto(url);
    await button(again.page, "Continue signing in").click();
    await seeAlert(again.page, "This link has expired or was already used. Ask for a new one.");
    await link(again.page, "Back to sign in").waitFor();
    // Three browser contexts, one after another: more than the default bound on a busy machine.
  });
});
