import { expect, it } from "vitest";
import { describeInChromium } from "../helpers/browser.js";
import { button, field, heading, link, PASSWORD, see, seeAlert, uniqueEmail, usePagesWorld } from "../helpers/pages.js";

// The hosted pages under the project's signup controls (API.md section 7): a project closed to
// password signups offers no sign-up form and no link to one; an allowlist shows its refusal in
// words, and the users who exist sign in as before.

describeInChromium("hosted pages: signup controls", () => {
  const world = usePagesWorld();

  it("closed: the sign-in page links to no sign-up, and the sign-up page says no account can be made here", async () => {
    const project = await world.project({ signups: "closed" });
    const { page } = await world.tab();
    await page.goto(project.url("login"));
    await heading(page, "Sign in").waitFor();
    expect(await link(page, "Create an account").count()).toBe(0);

    await page.goto(project.url("signup"));
    await see(page, "New accounts cannot be created here. If you already have one, sign in.");
    expect(await field(page, "Email").count()).toBe(0);
    await link(page, "Sign in instead").click();
    await heading(page, "Sign in").waitFor();
  });

  it("allowlist: an address outside it is told in words, before anything is made; an open project still links to sign-up", async () => {
    const project = await world.project({ signups: "allowlist", signupEmailDomains: ["example.org"] });
    const { page } = await world.tab();
    await page.goto(project.url("login"));
    await link(page, "Create an account").click();
    const email = uniqueEmail("outsider");
    await field(page, "Email").fill(email);
    await field(page, "Password").fill(PASSWORD);
    await button(page, "Create account").click();
    await seeAlert(page, "New accounts cannot be created here with this email address.");
    const users = await project.call("GET", `/v1/auth/users?search=${encodeURIComponent(email)}`);
    expect(users.body.data).toEqual([]);
  });
});
