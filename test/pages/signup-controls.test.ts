import { afterAll, beforeAll, expect, it } from "vitest";
import { describeInChromium } from "../helpers/browser.js";
import { http } from "../helpers/clients.js";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.js";
import { button, field, heading, link, PASSWORD, see, seeAlert, uniqueEmail, usePagesWorld } from "../helpers/pages.js";

// The hosted pages under the project's signup controls (API.md section 7): a project closed to
// password signups offers no sign-up form and no link to one; an allowlist shows its refusal in
// words, and the users who exist sign in as before; a before_user_created hook's refusal shows
// the hook's own message.

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

  describeInChromium("with a before_user_created hook", () => {
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver("/hook");
    });
    afterAll(() => receiver?.close());

    it("a refusal shows the hook's message on the sign-up form, and nothing is made", async () => {
      const project = await world.project();
      const set = await http(`${world.server.url}/v1/projects/${project.id}/hooks/before_user_created`, {
        method: "PUT",
        headers: await project.admin(),
        body: { url: receiver.url },
      });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      receiver.secrets = [set.body.secret];
      receiver.behaviour = {
        kind: "json",
        answer: () => ({ decision: "deny", message: "Sign-ups open on Monday. See you then!" }),
      };
      const { page } = await world.tab();
      await page.goto(project.url("signup"));
      const email = uniqueEmail("early");
      await field(page, "Email").fill(email);
      await field(page, "Password").fill(PASSWORD);
      await button(page, "Create account").click();
      await seeAlert(page, "Sign-ups open on Monday. See you then!");
      const users = await project.call("GET", `/v1/auth/users?search=${encodeURIComponent(email)}`);
      expect(users.body.data).toEqual([]);
    });
  });
});
