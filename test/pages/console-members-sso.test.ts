import { generateKeyPairSync } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import { ssoCallbackUrl } from "../../src/flows/auth/sso/authorize.js";
import { describeInChromium } from "../helpers/browser.js";
import { consoleOrganization, signIn, tableRows, type ConsoleOrganization } from "../helpers/console.js";
import {
  button,
  checkState,
  field,
  heading,
  linkIn,
  nextMailTo,
  see,
  uniqueEmail,
  usePagesWorld,
} from "../helpers/pages.js";
import { seedMember } from "../helpers/seed.js";

// Members and SSO connections in the console: an admin invites (the mail arrives), sees the
// pending invitations, changes a member's role and removes a member after a confirmation; SSO
// connections are made with a provider's fields (beside the callback URL to register at the
// provider), edited and deleted, each effect read back through the API.

describeInChromium("console: members and SSO connections", () => {
  const world = usePagesWorld();
  let org: ConsoleOrganization;

  beforeAll(async () => {
    org = await consoleOrganization(world);
  });

  it("an admin invites a member by email and role, and removes one after confirming", async () => {
    const leaving = await seedMember(world.server.deps, org.organization, "developer");
    const { page } = await world.tab();
    await signIn(world, page, org.admin, { fragment: "#section=members" });
    await heading(page, "Members").waitFor();
    const emails = (await tableRows(page, "Members")).map((row) => row[0]);
    expect(emails).toEqual(expect.arrayContaining([org.admin.email, org.developer.email, leaving.email]));

    const invitee = uniqueEmail("console-invitee");
    const mail = nextMailTo(world, invitee);
    await field(page, "Email").fill(invitee);
    await field(page, "Role").selectOption("admin");
    await button(page, "Send invitation").click();
    await see(page, `An invitation is on its way to ${invitee}.`);
    expect(linkIn((await mail()).text)).toContain("type=invitation");

    await button(page, `Remove ${leaving.email}`).click();
    await see(page, `Remove ${leaving.email} from the organization? Their console access ends at once.`);
    await button(page, "Remove").click();
    await see(page, `${leaving.email} was removed.`);
    await checkState(page, "console-members");
    const listed = await org.api(org.admin, "GET", "/v1/members?limit=100");
    expect(listed.body.data.map((m: { email: string }) => m.email)).not.toContain(leaving.email);
    // The admin cannot remove itself from here.
    expect(await button(page, `Remove ${org.admin.email}`).count()).toBe(0);
  });

  it("lists pending invitations beside the members, and an admin changes a member's role after confirming; a developer sees the invitations and no role control", async () => {
    const promoted = await seedMember(world.server.deps, org.organization, "developer");
    const waiting = uniqueEmail("console-waiting");
    const sent = await org.api(org.admin, "POST", "/v1/members/invite", { email: waiting, role: "developer" });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const { page } = await world.tab();
    await signIn(world, page, org.admin, { fragment: "#section=members" });
    await heading(page, "Pending invitations").waitFor();
    const pending = async () => (await tableRows(page, "Pending invitations")).map((row) => row.slice(0, 3));
    expect(await pending()).toContainEqual([waiting, "Developer", org.admin.email]);
    // Not a member until accepted.
    expect((await tableRows(page, "Members")).map((row) => row[0])).not.toContain(waiting);

    const invitee = uniqueEmail("console-pending");
    await field(page, "Email").fill(invitee);
    await field(page, "Role").selectOption("admin");
    await button(page, "Send invitation").click();
    await see(page, `An invitation is on its way to ${invitee}.`);
    expect((await pending())[0]).toEqual([invitee, "Admin", org.admin.email]);

    await button(page, `Make admin ${promoted.email}`).click();
    await see(
      page,
      `Make ${promoted.email} an admin? They can then invite and remove members, change roles and manage webhooks.`,
    );
    await button(page, "Make admin").click();
    await see(page, `${promoted.email} is now an admin.`);
    const roleOf = async () =>
      (await org.api(org.admin, "GET", "/v1/members?limit=100")).body.data.find(
        (m: { email: string }) => m.email === promoted.email,
      ).role;
    expect(await roleOf()).toBe("admin");
    expect((await tableRows(page, "Members")).find((row) => row[0] === promoted.email)?.[1]).toBe("Admin");
    await checkState(page, "console-members-roles");

    await button(page, `Make developer ${promoted.email}`).click();
    await button(page, "Make developer").click();
    await see(page, `${promoted.email} is now a developer.`);
    expect(await roleOf()).toBe("developer");
    // The admin's own role is not changed from here.
    expect(await button(page, `Make developer ${org.admin.email}`).count()).toBe(0);

    const developer = (await world.tab()).page;
    await signIn(world, developer, org.developer, { fragment: "#section=members" });
    await heading(developer, "Pending invitations").waitFor();
    expect((await tableRows(developer, "Pending invitations")).map((row) => row[0])).toContain(waiting);
    expect(await developer.getByRole("button", { name: /^Make / }).count()).toBe(0);
  });

  it("creates an OpenID Connect and an Apple connection with each provider's fields, edits one and deletes one", async () => {
    const { page } = await world.tab();
    // An issuer of its own is an admin's to choose (issue 46): a developer may use presets only.
    await signIn(world, page, org.admin, { fragment: `#section=sso&project=${org.project.id}` });
    await heading(page, "SSO").waitFor();
    await see(page, "This project has no SSO connections yet.");
    // The address to register at the provider: the one the server sends it (PUBLIC_URL's).
    const callback = ssoCallbackUrl(world.server.deps.config.publicUrl);
    expect(callback).toBe(`${world.publicUrl}/v1/auth/sso/callback`);
    expect(await field(page, "Callback URL").inputValue()).toBe(callback);

    await field(page, "Name").fill("Okta");
    await field(page, "Client id").fill("okta-client");
    await field(page, "Issuer URL").fill("https://login.example.com");
    await field(page, "Client secret").fill("okta-secret-value");
    await button(page, "Create connection").click();
    await see(page, "Okta is saved.");

    await field(page, "Provider").selectOption("apple");
    expect(await field(page, "Client secret").isVisible()).toBe(false);
    await field(page, "Name").fill("Apple");
    await field(page, "Client id").fill("com.example.shop");
    await field(page, "Team id").fill("TEAM123456");
    await field(page, "Key id").fill("KEY1234567");
    await field(page, "Private key (.p8)").fill(P8);
    await checkState(page, "console-sso-apple");
    await button(page, "Create connection").click();
    await see(page, "Apple is saved.");
    expect((await tableRows(page, "SSO")).map((row) => row.slice(0, 3))).toEqual([
      ["Okta", "OpenID Connect", "okta-client"],
      ["Apple", "Apple", "com.example.shop"],
    ]);

    await page.getByRole("row", { name: /Okta/ }).getByRole("button", { name: "Edit" }).click();
    await heading(page, "Edit Okta").waitFor();
    expect(await field(page, "Callback URL").inputValue()).toBe(callback);
    await field(page, "Name").fill("Okta Workforce");
    await button(page, "Save changes").click();
    await see(page, "Okta Workforce is saved.");

    await button(page, "Delete Apple").click();
    await button(page, "Delete").click();
    await see(page, "Apple was deleted.");
    await checkState(page, "console-sso");
    const listed = await org.api(org.developer, "GET", `/v1/projects/${org.project.id}/sso-connections`);
    expect(listed.body.data.map((c: { name: string; issuer: string }) => [c.name, c.issuer])).toEqual([
      ["Okta Workforce", "https://login.example.com"],
    ]);
  });
});

// A throwaway P-256 key in PKCS #8 PEM, the shape of Apple's .p8 files.
const P8 = generateKeyPairSync("ec", { namedCurve: "P-256" })
  .privateKey.export({ type: "pkcs8", format: "pem" })
  .toString();
