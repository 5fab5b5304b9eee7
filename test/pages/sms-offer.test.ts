import { beforeAll, expect, it } from "vitest";
import { describeInChromium } from "../helpers/browser.js";
import { button, field, usePagesWorld, type PagesProject } from "../helpers/pages.js";

// "Text me a code" is a promise that a text will come. A server without an SMS transport (no
// SMS_WEBHOOK_URL) keeps every SMS in its outbox, so its sign-in page must not offer one; with
// a transport it does, and the button leads to the phone step.

describeInChromium("hosted sign-in page without an SMS transport", () => {
  const world = usePagesWorld({ sms: false });
  let project: PagesProject;

  beforeAll(async () => {
    project = await world.project();
  });

  it("offers no 'Text me a code', and the other ways in are there", async () => {
    const { page } = await world.tab();
    await page.goto(project.url("login"));
    await button(page, "Email me a code").waitFor();
    await button(page, "Email me a sign-in link").waitFor();
    expect(await button(page, "Text me a code").count()).toBe(0);
    expect(await page.getByText("Text me a code").count()).toBe(0);
  });
});

describeInChromium("hosted sign-in page with an SMS transport", () => {
  const world = usePagesWorld();
  let project: PagesProject;

  beforeAll(async () => {
    project = await world.project();
  });

  it("offers 'Text me a code', which asks for the phone number", async () => {
    const { page } = await world.tab();
    await page.goto(project.url("login"));
    await button(page, "Text me a code").click();
    await field(page, "Phone number").waitFor();
  });
});
