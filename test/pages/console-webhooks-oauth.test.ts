import { afterAll, beforeAll, expect, it } from "vitest";
import { describeInChromium } from "../helpers/browser.js";
import { consoleOrganization, signIn, tableRows, type ConsoleOrganization } from "../helpers/console.js";
import { button, checkState, field, heading, see, usePagesWorld, WAIT } from "../helpers/pages.js";
import { eventually } from "../helpers/eventually.js";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.js";

// Webhooks and OAuth clients in the console: an endpoint made in the browser gets its signing
// secret once, and a receiver holding that secret verifies the test event and its replay; an
// OAuth client's secret is shown once and again after a rotation; deleting either is read back
// through the API.

describeInChromium("console: webhooks and OAuth clients", () => {
  const world = usePagesWorld();
  let org: ConsoleOrganization;
  let receiver: Receiver;

  beforeAll(async () => {
    org = await consoleOrganization(world);
    receiver = await startReceiver();
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it("creates an endpoint (secret shown once), sends a test, replays it from the log, and deletes it", async () => {
    const { page } = await world.tab();
    await signIn(world, page, org.admin, { fragment: `#section=webhooks&project=${org.project.id}` });
    await heading(page, "Webhooks").waitFor();
    await see(page, "This project has no webhook endpoints.");
    await field(page, "URL").fill(receiver.url);
    await field(page, "Events").fill("user.created\nuser.deleted");
    await button(page, "Create endpoint").click();
    const secret = await page.getByRole("textbox", { name: `Signing secret of ${receiver.url}` }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    receiver.secrets = [secret];

    await button(page, `Send test to ${receiver.url}`).click();
    await see(page, `A test event is on its way to ${receiver.url}.`);
    await receiver.waitFor((r) => r.body.type === "webhook.test");

    await button(page, `Deliveries to ${receiver.url}`).click();
    await heading(page, `Deliveries to ${receiver.url}`).waitFor();
    const [delivery] = await tableRows(page, "Deliveries");
    expect(delivery?.[1]).toBe("webhook.test");
    await checkState(page, "console-webhooks");
    await page.getByRole("button", { name: /^Replay webhook\.test/ }).click();
    await see(page, "webhook.test is sent again.");
    await receiver.waitFor((r) => r.body.type === "webhook.test", 2);

    await button(page, `Delete ${receiver.url}`).click();
    await button(page, "Delete").click();
    await see(page, `${receiver.url} was deleted.`);
    const listed = await org.api(org.admin, "GET", `/v1/projects/${org.project.id}/webhooks`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data).toEqual([]);
  });

  it("shows each delivery's last answer: the server's reason for a failed attempt, as the API gives it", async () => {
    const failing = await startReceiver("/hooks/failing");
    try {
      failing.behaviour = { kind: "fail", status: 500 };
      const made = await org.api(org.admin, "POST", "/v1/webhooks", {
        project_id: org.project.id,
        url: failing.url,
        event_types: ["user.created"],
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      failing.secrets = [made.body.secret];
      expect((await org.api(org.admin, "POST", `/v1/webhooks/${made.body.id}/test`)).status).toBe(200);
      await failing.waitFor((r) => r.body.type === "webhook.test");
      const error = await eventually("the failed attempt in the delivery log", async () => {
        const log = await org.api(org.admin, "GET", `/v1/webhooks/${made.body.id}/deliveries`);
        return (log.body.data?.[0]?.attempts?.[0]?.error as string | undefined) || undefined;
      });
      expect(error).toContain("500");

      const { page } = await world.tab();
      await signIn(world, page, org.admin, { fragment: `#section=webhooks&project=${org.project.id}` });
      await button(page, `Deliveries to ${failing.url}`).click();
      await heading(page, `Deliveries to ${failing.url}`).waitFor();
      const [row] = await tableRows(page, "Deliveries");
      expect(row?.slice(1, 3)).toEqual(["webhook.test", expect.stringMatching(/^(pending|failed)$/)]);
      // The last attempt's reason; a retry made since shows the same one.
      expect(row?.[4]).toBe(error);
      expect(
        await page.getByRole("columnheader", { name: "Last answer" }).count(),
        "the column is named for a reader",
      ).toBe(1);
    } finally {
      await failing.close();
    }
  });

  it("creates a confidential OAuth client (secret shown once), rotates its secret and deletes it", async () => {
    const { page } = await world.tab();
    await signIn(world, page, org.developer, { fragment: `#section=oauth-clients&project=${org.project.id}` });
    await heading(page, "OAuth clients").waitFor();
    await field(page, "Name").fill("Partner portal");
    await field(page, "Redirect URIs").fill("https://partner.example.com/callback");
    await button(page, "Create client").click();
    const secretBox = page.getByRole("textbox", { name: "Client secret of Partner portal" });
    const first = await secretBox.inputValue();
    expect(first).toMatch(/^gcs_/);
    const [row] = await tableRows(page, "OAuth clients");
    expect(row?.[0]).toBe("Partner portal");
    const clientId = row[1];
    expect(clientId).toMatch(/^oac_/);

    await button(page, "Rotate secret of Partner portal").click();
    await see(page, "Rotate the secret of Partner portal? The current secret stops working at once.");
    await button(page, "Rotate secret").click();
    await expect.poll(() => secretBox.inputValue(), { timeout: WAIT }).not.toBe(first);
    expect(await secretBox.inputValue()).toMatch(/^gcs_/);
    await checkState(page, "console-oauth-clients");

    await button(page, "Delete Partner portal").click();
    await button(page, "Delete").click();
    await see(page, "Partner portal was deleted.");
    const listed = await org.api(org.developer, "GET", `/v1/projects/${org.project.id}/oauth-clients`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data).toEqual([]);
  });
});
