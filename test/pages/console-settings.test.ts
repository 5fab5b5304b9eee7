import { afterAll, beforeAll, expect, it } from "vitest";
import { describeInChromium } from "../helpers/browser.js";
import { consoleOrganization, signIn, tableRows, type ConsoleOrganization } from "../helpers/console.js";
import { button, checkState, field, heading, see, seeAlert, usePagesWorld } from "../helpers/pages.js";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.js";

// The console's remaining settings: a project's passkey, SMS, bot protection and signup answers
// and its rate limits (all sixteen on the page), a violation at its field; a webhook endpoint
// edited and its secret rotated (a receiver holding only the new secret verifies the next
// event, at the new URL); an OAuth client's grant types, scopes and first-party flag at
// creation and in its edit form. Each effect is read back through the API.

describeInChromium("console: remaining settings", () => {
  const world = usePagesWorld();
  let org: ConsoleOrganization;
  let first: Receiver;
  let second: Receiver;

  beforeAll(async () => {
    org = await consoleOrganization(world);
    first = await startReceiver("/hooks/first");
    second = await startReceiver("/hooks/second");
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it("saves passkeys, SMS countries, bot protection, signup answers and rate limits; a violation stays at its field", async () => {
    const { page } = await world.tab();
    await signIn(world, page, org.admin, { fragment: `#section=projects&project=${org.project.id}` });
    await heading(page, org.project.name).waitFor();
    for (const legend of ["Passkeys", "SMS", "Failures per account", "Per IP address, code and session"]) {
      await page.getByRole("group", { name: legend, exact: true }).waitFor();
    }
    expect(await page.locator('input[name^="rate_limits."]').count()).toBe(16);

    await field(page, "Relying party id").fill("shop.example.com");
    await field(page, "User verification (PIN or biometrics)").selectOption("required");
    await field(page, "Attestation").selectOption("direct");
    await field(page, "Country calling codes SMS may go to").fill("+44\n1");
    await page.getByLabel("Ask for a bot check before signups and before sending codes and links").check();
    await page.getByLabel("Tell people signing up when their email is already registered").check();
    await page.getByLabel("Send a verification email after signup, unless the request says otherwise").check();
    await field(page, "Wait after those failures (seconds)").fill("30");
    await field(page, "Longest wait (seconds)").fill("600");
    await field(page, "Refreshes per session").fill("40");
    await field(page, "SMS to new numbers, per country code").fill("5");
    await field(page, "SMS per number per day").fill("3");
    await button(page, "Save changes").click();
    await see(page, "Saved.");
    await checkState(page, "console-settings-project");

    const got = await org.api(org.admin, "GET", `/v1/projects/${org.project.id}`);
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(got.body).toMatchObject({
      passkey_rp_id: "shop.example.com",
      passkey_user_verification: "required",
      passkey_attestation: "direct",
      sms_country_codes: ["44", "1"],
      bot_protection: true,
      reveal_email_exists: true,
      send_verification: true,
    });
    expect(got.body.rate_limits).toMatchObject({
      sign_in_wait_seconds: 30,
      sign_in_max_wait_seconds: 600,
      refreshes_per_session: 40,
      first_contact_sms_per_country: 5,
      sms_per_destination_per_day: 3,
    });

    // A relying-party id that covers none of the project's origins: refused at that field.
    await field(page, "Relying party id").fill("elsewhere.example.org");
    await field(page, "Country calling codes SMS may go to").fill("");
    await button(page, "Save changes").click();
    await seeAlert(page, /Relying party id/);
    expect(await field(page, "Relying party id").getAttribute("aria-invalid")).toBe("true");
    await checkState(page, "console-settings-violation");
    const kept = await org.api(org.admin, "GET", `/v1/projects/${org.project.id}`);
    expect(kept.body).toMatchObject({ passkey_rp_id: "shop.example.com", sms_country_codes: ["44", "1"] });

    // Emptied, the SMS list is cleared (the API reads an empty list as "unchanged").
    await field(page, "Relying party id").fill("");
    await button(page, "Save changes").click();
    await see(page, "Saved.");
    const cleared = await org.api(org.admin, "GET", `/v1/projects/${org.project.id}`);
    expect(cleared.body.sms_country_codes ?? []).toEqual([]);
    expect(cleared.body.passkey_rp_id ?? "").toBe("");
  });

  it("edits a webhook endpoint and rotates its secret: the next event reaches the new URL, signed with the new secret", async () => {
    const made = await org.api(org.admin, "POST", "/v1/webhooks", {
      project_id: org.project.id,
      url: first.url,
      event_types: ["user.created"],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const { page } = await world.tab();
    await signIn(world, page, org.admin, { fragment: `#section=webhooks&project=${org.project.id}` });
    await heading(page, "Webhooks").waitFor();

    await button(page, `Edit ${first.url}`).click();
    await heading(page, `Edit ${first.url}`).waitFor();
    await field(page, "URL").fill(second.url);
    await field(page, "Events").fill("user.created\nuser.deleted");
    await button(page, "Save changes").click();
    await see(page, `${second.url} is saved.`);
    const [row] = await tableRows(page, "Webhooks");
    expect(row?.slice(0, 3)).toEqual([second.url, "user.created, user.deleted", "Enabled"]);

    await button(page, `Rotate secret of ${second.url}`).click();
    await see(page, `Give ${second.url} a new signing secret? The current one keeps signing too for 24 hours.`);
    await button(page, "Rotate secret").click();
    const secret = await page.getByRole("textbox", { name: `New signing secret of ${second.url}` }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(made.body.secret);
    await see(page, /The previous secret also signs until/);
    await checkState(page, "console-settings-webhook");

    second.secrets = [secret];
    await button(page, `Send test to ${second.url}`).click();
    const [received] = await second.waitFor((r) => r.body.type === "webhook.test");
    expect(received?.verifiedBy).toBe(0);
    expect(first.requests).toBe(0);

    await button(page, `Edit ${second.url}`).click();
    await page.getByLabel("Deliver events to this endpoint").uncheck();
    await button(page, "Save changes").click();
    await see(page, `${second.url} is saved.`);
    const listed = await org.api(org.admin, "GET", `/v1/projects/${org.project.id}/webhooks`);
    expect(listed.body.data).toMatchObject([
      { url: second.url, event_types: ["user.created", "user.deleted"], enabled: false, disabled_reason: "admin" },
    ]);
  });

  it("creates an OAuth client with its grant types, scopes and first-party flag, then edits them", async () => {
    const { page } = await world.tab();
    await signIn(world, page, org.developer, { fragment: `#section=oauth-clients&project=${org.project.id}` });
    await heading(page, "OAuth clients").waitFor();
    await field(page, "Name").fill("Back office");
    await field(page, "Redirect URIs").fill("https://office.example.com/callback");
    const scopes = page.getByRole("group", { name: "Scopes", exact: true });
    await scopes.getByLabel("app_metadata", { exact: true }).check();
    await page.getByLabel("First party: skip the consent page").check();
    await button(page, "Create client").click();
    await page.getByRole("textbox", { name: "Client secret of Back office" }).waitFor();
    const listOf = async () => {
      const listed = await org.api(org.developer, "GET", `/v1/projects/${org.project.id}/oauth-clients`);
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      return listed.body.data as Array<Record<string, unknown>>;
    };
    expect(await listOf()).toMatchObject([
      {
        name: "Back office",
        grant_types: ["authorization_code", "refresh_token"],
        scopes: ["openid", "email", "profile", "offline_access", "app_metadata"],
        first_party: true,
      },
    ]);

    await button(page, "Edit Back office").click();
    await heading(page, "Edit Back office").waitFor();
    const grants = page.getByRole("group", { name: "Grant types", exact: true });
    await grants.getByLabel("Refresh token").uncheck();
    await grants.getByLabel("Client credentials (server to server, confidential clients only)").check();
    await scopes.getByLabel("profile", { exact: true }).uncheck();
    await page.getByLabel("First party: skip the consent page").uncheck();
    await field(page, "Redirect URIs after sign-out").fill("https://office.example.com/bye");
    await button(page, "Save changes").click();
    await see(page, "Back office is saved.");
    await heading(page, "New OAuth client").waitFor();
    expect(await listOf()).toMatchObject([
      {
        name: "Back office",
        grant_types: ["authorization_code", "client_credentials"],
        scopes: ["openid", "email", "offline_access", "app_metadata"],
        first_party: false,
        post_logout_redirect_uris: ["https://office.example.com/bye"],
      },
    ]);
    await button(page, "Edit Back office").click();
    await checkState(page, "console-settings-oauth-edit");
  });
});
