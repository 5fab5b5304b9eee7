import { randomBytes } from "node:crypto";
import { decodeJwt } from "jose";
import { newId } from "../../src/crypto/ids.js";
import { beforeAll, expect, it } from "vitest";
import { describeInChromium } from "../helpers/browser.js";
import { signIn, tableRows } from "../helpers/console.js";
import {
  button,
  checkState,
  field,
  heading,
  link,
  linkIn,
  nextMailTo,
  PASSWORD,
  see,
  seeAlert,
  uniqueEmail,
  usePagesWorld,
  type PagesProject,
} from "../helpers/pages.js";

// A project's end users in the console, called on the Authentication interface with the
// console credential (the member's management token and X-Gatehouse-Console): the list with
// its search, filters and pages; one user's page opened by deep link, where a session is ended
// (its refresh token then fails), then all of them, app_metadata is saved, the account is
// disabled (sign-in refused), a reset mail is sent, and the user is deleted after typing the
// email. Each effect is read back through the API with the project's secret key.

describeInChromium("console: users", () => {
  const world = usePagesWorld();
  let project: PagesProject;

  beforeAll(async () => {
    project = await world.project();
  });

  const usersOf = (p: PagesProject) => `#section=users&project=${p.id}`;

  it("searches, filters and pages through the users, and opens one", async () => {
    // 27 users, newest first in the list: 25 on the first page, 2 on the second.
    const ids: string[] = [];
    for (let i = 0; i < 27; i++) {
      const made = await project.call("POST", "/v1/auth/users", {
        email: i === 0 ? "zed.special@example.com" : uniqueEmail("shopper"),
        email_verified: i % 2 === 0,
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      ids.push(made.body.id as string);
    }
    for (const id of ids.slice(1, 3)) {
      const disabled = await project.call("PATCH", `/v1/auth/users/${id}`, { disabled: true });
      expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    }

    const { page } = await world.tab();
    await signIn(world, page, project.adminLogin, { fragment: usersOf(project) });
    await heading(page, "Users").waitFor();
    await button(page, "Next page").waitFor();
    expect(await tableRows(page, "Users")).toHaveLength(25);
    await checkState(page, "console-users-list");
    await button(page, "Next page").click();
    await button(page, "Previous page").waitFor();
    const second = await tableRows(page, "Users");
    // The oldest two, among them the special one, made first.
    expect(second.map((row) => row[0])).toHaveLength(2);
    expect(second.map((row) => row[0])).toContain("zed.special@example.com");
    await button(page, "Previous page").click();
    await button(page, "Next page").waitFor();

    await field(page, "Disabled").selectOption("true");
    await button(page, "Show users").click();
    await expect.poll(async () => (await tableRows(page, "Users")).length).toBe(2);
    const disabled = await tableRows(page, "Users");
    // Columns: email or phone, verified, two-factor, state, created, last sign-in.
    expect(disabled.map((row) => [row[3], row[5]])).toEqual([
      ["Disabled", "Never"],
      ["Disabled", "Never"],
    ]);
    expect(await button(page, "Next page").count()).toBe(0);

    await field(page, "Disabled").selectOption("");
    await field(page, "Search by email").fill("ZED.special");
    await field(page, "Email verified").selectOption("true");
    await button(page, "Show users").click();
    await expect.poll(async () => (await tableRows(page, "Users")).length).toBe(1);
    expect((await tableRows(page, "Users"))[0].slice(0, 4)).toEqual(["zed.special@example.com", "Yes", "No", "Active"]);
    await field(page, "Email verified").selectOption("false");
    await button(page, "Show users").click();
    await see(page, "No users match.");

    await field(page, "Email verified").selectOption("");
    await button(page, "Show users").click();
    await link(page, "zed.special@example.com").click();
    await heading(page, "zed.special@example.com").waitFor();
    expect(new URL(page.url()).hash).toBe(`${usersOf(project)}&user=${ids[0]}`);

    // Adding a user: made at once with a password, the console opens its page, and the person
    // signs in with that password; a weak one is refused at its field.
    await link(page, "All users").click();
    const added = uniqueEmail("added");
    await field(page, "Email").fill(added);
    await field(page, "How").selectOption("create");
    await field(page, "Password (when created now)").fill("password");
    await button(page, "Add user").click();
    await seeAlert(page, "Choose a longer, less common password.");
    expect(await field(page, "Password (when created now)").getAttribute("aria-invalid")).toBe("true");
    await field(page, "Password (when created now)").fill(PASSWORD);
    await button(page, "Add user").click();
    await heading(page, added).waitFor();
    const signIn_ = await project.call("POST", "/v1/auth/login", { email: added, password: PASSWORD });
    expect(signIn_.status, JSON.stringify(signIn_.body)).toBe(200);
  });

  it("ends one session and then all, saves app_metadata, disables, sends a reset and deletes a user", async () => {
    const email = uniqueEmail("customer");
    const signup = await project.call("POST", "/v1/auth/signup", { email, password: PASSWORD });
    expect(signup.status, JSON.stringify(signup.body)).toBe(200);
    const userId = signup.body.user.id as string;
    const login = async () => {
      const res = await project.call("POST", "/v1/auth/login", { email, password: PASSWORD });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return {
        sid: decodeJwt(res.body.access_token as string).sid as string,
        refresh: res.body.refresh_token as string,
      };
    };
    const [first, second] = [await login(), await login()];
    // A passkey as registration stores one (the ceremony is passkeys.test.ts's): the user's
    // second factor from then on.
    await world.server.deps.db.repos.passkeys.create(project.id, {
      id: newId("pk"),
      userId,
      credentialId: randomBytes(16).toString("base64url"),
      publicKey: randomBytes(77).toString("base64url"),
      counter: 0,
      transports: ["internal"],
      backupEligible: true,
      backedUp: true,
      aaguid: null,
      name: "Work laptop",
      createdAt: world.clock.now(),
      lastUsedAt: null,
    });
    const refresh = (token: string) => project.call("POST", "/v1/auth/token/refresh", { refresh_token: token });

    const { page } = await world.tab();
    await signIn(world, page, project.adminLogin, { fragment: `${usersOf(project)}&user=${userId}` });
    await heading(page, email).waitFor();
    // Signup and two logins: three live sessions.
    const sessions = await tableRows(page, "Sessions");
    expect(sessions.map((row) => row[0])).toEqual(expect.arrayContaining([first.sid, second.sid]));
    expect(sessions).toHaveLength(3);
    expect((await tableRows(page, "Events about this user")).map((row) => row[1])).toContain("user.login.succeeded");
    expect((await tableRows(page, "Passkeys")).map((row) => row[0])).toEqual(["Work laptop"]);
    const factors = page.getByRole("region", { name: "Two-factor methods" }).getByRole("listitem");
    expect(await factors.allTextContents()).toEqual(["Passkey"]);
    await checkState(page, "console-users-detail");

    await button(page, `End session ${first.sid}`).click();
    await see(page, `End session ${first.sid}? Its refresh token stops working at once.`);
    await button(page, "End session").click();
    await see(page, `Session ${first.sid} is ended.`);
    expect((await tableRows(page, "Sessions")).map((row) => row[0])).not.toContain(first.sid);
    expect((await refresh(first.refresh)).status).toBe(401);
    const kept = await refresh(second.refresh);
    expect(kept.status, "the other session still refreshes").toBe(200);

    await button(page, "Sign out everywhere").click();
    await button(page, "Sign out everywhere").click();
    await see(page, "2 sessions ended.");
    await see(page, "No live sessions.");
    expect((await refresh(kept.body.refresh_token as string)).status).toBe(401);

    await button(page, "Delete passkey Work laptop").click();
    await button(page, "Delete").click();
    await see(page, "The passkey Work laptop was deleted.");
    await see(page, "No passkeys.");
    const after = await project.call("GET", `/v1/auth/users/${userId}`);
    expect([after.body.passkeys, after.body.mfa_methods]).toEqual([[], []]);

    await field(page, "App metadata (JSON)").fill('{"plan": "pro"}');
    await button(page, "Save metadata").click();
    await see(page, "Saved.");
    expect((await project.call("GET", `/v1/auth/users/${userId}`)).body.app_metadata).toEqual({ plan: "pro" });

    await button(page, "Disable user").click();
    await see(page, `${email} is disabled.`);
    const refused = await project.call("POST", "/v1/auth/login", { email, password: PASSWORD });
    expect([refused.status, refused.body.reason]).toEqual([403, "USER_DISABLED"]);
    await see(page, "A disabled user is sent no reset email: enable the account first.");
    await button(page, "Enable user").click();
    await see(page, `${email} is enabled.`);

    const mail = nextMailTo(world, email);
    await button(page, "Send password reset").click();
    await see(page, `A password reset email is on its way to ${email}.`);
    expect(linkIn((await mail()).text)).toContain("token=");

    await field(page, `Type ${email} to confirm`).fill("someone@example.com");
    await button(page, "Delete user").click();
    await seeAlert(page, "What you typed does not match.");
    expect((await project.call("GET", `/v1/auth/users/${userId}`)).status).toBe(200);
    await field(page, `Type ${email} to confirm`).fill(email);
    await button(page, "Delete user").click();
    await see(page, `${email} was deleted.`);
    expect((await project.call("GET", `/v1/auth/users/${userId}`)).status).toBe(404);
    await link(page, "All users").click();
    await heading(page, "Users").waitFor();
  });
});
