import { generateKeyPairSync } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
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

// Members and SSO connections in the console: an admin invites (the mail arrives) and removes a
// member after a confirmation; SSO connections are made with a provider's fields, edited and
// deleted, each effect read back through the API.

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

  it("creates an OpenID Connect and an Apple connection with each provider's fields, edits one and deletes one", async () => {
    const { page } = await world.tab();
    // An issuer of its own is an admin's to choose (issue 46): a developer may use presets only.
    await signIn(world, page, org.admin, { fragment: `#section=sso&project=${org.project.id}` });
    await heading(page, "SSO").waitFor();
    await see(page, "This project has no SSO connections yet.");

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
