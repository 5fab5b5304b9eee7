import type { Page, Request } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import { describeInChromium } from "../helpers/browser.js";
import { http } from "../helpers/clients.js";
import {
  button,
  checkState,
  field,
  nextMailTo,
  see,
  seeAlert,
  signupOverRest,
  uniqueEmail,
  usePagesWorld,
  PASSWORD,
  type PagesProject,
} from "../helpers/pages.js";

// A project with bot_protection asks the hosted pages for a solved challenge with every signup
// and every send, as it asks a publishable key. The pages show the ALTCHA widget, which solves
// the challenge in a worker under the pages' strict CSP (no inline script or style, no blob:
// worker), and send its payload as bot_proof. A project without the setting loads none of it.

const RPC = "/gatehouse.auth.v1.AuthService/";

/** The widget in the view, once it has solved its challenge. */
const solvedWidget = (page: Page) => page.locator('altcha-widget [data-state="verified"]').first().waitFor();

/** The next answer of `rpc` to the page, with the request's bot_proof. */
function nextCall(page: Page, rpc: string): Promise<{ status: number; botProof: string }> {
  return page
    .waitForResponse((response) => response.url().endsWith(RPC + rpc))
    .then((response) => ({
      status: response.status(),
      // Connect JSON from connect-web: the JSON (camelCase) field name.
      botProof: (JSON.parse(response.request().postData() ?? "{}") as { botProof?: string }).botProof ?? "",
    }));
}

describeInChromium("hosted pages: bot protection", () => {
  const world = usePagesWorld();
  let guarded: PagesProject;
  let open: PagesProject;

  beforeAll(async () => {
    guarded = await world.project({ botProtection: true });
    open = await world.project();
  });

  it("signing up sends a solved challenge the server accepts", async () => {
    const { page } = await world.tab();
    await page.goto(guarded.url("signup"));
    await field(page, "Email").fill(uniqueEmail("bot-signup"));
    await field(page, "Password").fill(PASSWORD);
    await solvedWidget(page);
    await checkState(page, "signup-bot-check");
    const signup = nextCall(page, "Signup");
    await button(page, "Create account").click();
    const answer = await signup;
    expect(answer.status).toBe(200);
    expect(answer.botProof).not.toBe("");
  });

  it("asking for a code by email sends a proof, and asking for a new one sends another", async () => {
    const email = await signupOverRest(guarded);
    const { page } = await world.tab();
    await page.goto(guarded.url("login"));
    await field(page, "Email").fill(email);
    const first = nextMailTo(world, email);
    const sent = nextCall(page, "SendOtp");
    await button(page, "Email me a code").click();
    const firstCall = await sent;
    expect(firstCall.status).toBe(200);
    await field(page, "Code").waitFor();
    expect((await first()).text).toMatch(/\b\d{6}\b/);

    // The code view has its own widget: a proof works once. (A minute on, or the address's
    // one-a-minute limit would answer instead.)
    await solvedWidget(page);
    world.clock.advance(61_000);
    await checkState(page, "code-entry-bot-check");
    const second = nextMailTo(world, email);
    const resent = nextCall(page, "SendOtp");
    await button(page, "Send a new code").click();
    const secondCall = await resent;
    expect(secondCall.status).toBe(200);
    expect(secondCall.botProof).not.toBe(firstCall.botProof);
    await see(page, "We sent a new code");
    expect((await second()).text).toMatch(/\b\d{6}\b/);
  });

  it("a sign-in link, a code by SMS and a reset link each go with a proof", async () => {
    const email = await signupOverRest(guarded);
    const { page } = await world.tab();
    await page.goto(guarded.url("login"));
    await field(page, "Email").fill(email);
    const link = nextCall(page, "SendMagicLink");
    await button(page, "Email me a sign-in link").click();
    expect(await link).toEqual({ status: 200, botProof: expect.stringMatching(/^ey/) });
    await see(page, "Check your email");

    await page.goto(guarded.url("login"));
    await button(page, "Text me a code").click();
    const phone = `+1555${String(process.pid % 1000).padStart(3, "0")}7373`;
    await field(page, "Phone number").fill(phone);
    const sms = nextCall(page, "SendOtp");
    await button(page, "Send code").click();
    expect(await sms).toEqual({ status: 200, botProof: expect.stringMatching(/^ey/) });
    expect(await world.sms.codeFor(phone)).toMatch(/^\d{6}$/);

    await page.goto(guarded.url("forgot-password"));
    await field(page, "Email").fill(email);
    const reset = nextCall(page, "RequestPasswordReset");
    await button(page, "Send reset link").click();
    expect(await reset).toEqual({ status: 200, botProof: expect.stringMatching(/^ey/) });
    await see(page, "If an account exists");
  });

  it("only a project with bot protection loads the widget (and its worker); another sends no proof", async () => {
    const { page } = await world.tab();
    const assets: string[] = [];
    page.on("request", (request: Request) => {
      if (request.url().includes("/assets/")) assets.push(new URL(request.url()).pathname);
    });
    await page.goto(guarded.url("login"));
    await solvedWidget(page);
    expect([...new Set(assets)].sort()).toEqual([
      "/assets/altcha-worker.js",
      "/assets/altcha.js",
      "/assets/auth.js",
      "/assets/pages.css",
    ]);

    assets.length = 0;
    await page.goto(open.url("login"));
    await field(page, "Email").fill(await signupOverRest(open));
    const sent = nextCall(page, "SendOtp");
    await button(page, "Email me a code").click();
    expect(await sent).toEqual({ status: 200, botProof: "" });
    expect(await page.locator("altcha-widget").count()).toBe(0);
    expect([...new Set(assets)].sort()).toEqual(["/assets/auth.js", "/assets/pages.css"]);
  });

  it("a page opened before the project turned bot protection on says the check did not pass", async () => {
    const later = await world.project();
    const { page } = await world.tab();
    await page.goto(later.url("signup"));
    await field(page, "Email").fill(uniqueEmail("bot-later"));
    await field(page, "Password").fill(PASSWORD);
    const on = await http(`${world.server.url}/v1/projects/${later.id}`, {
      method: "PATCH",
      headers: await later.admin(),
      body: { bot_protection: true },
    });
    expect(on.body.bot_protection).toBe(true);
    const signup = nextCall(page, "Signup");
    await button(page, "Create account").click();
    expect((await signup).status).toBe(403);
    await seeAlert(page, "The check that you are a person did not pass. Try again.");
  });
});
