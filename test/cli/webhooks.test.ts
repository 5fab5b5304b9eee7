// Threats: a webhook secret printed more than once (a list pasted into a ticket), or printed
// and not the one that signs; a delivery log that hides a failure; the CLI reaching an address
// the Account interface would refuse, or acting on another organization's endpoint.
import { userInfo } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.js";
import { cliBox, orgsWithProject, type CliBox } from "./helpers.js";

// The server delivers (its worker polls every 50 ms) and allows the loopback receiver. On
// PGlite the commands run inside it (its operator channel); on PostgreSQL beside it, with the
// same setting in the operator's environment.
const OUTBOUND = { OUTBOUND_ALLOW_HOSTS: "127.0.0.1/32", WEBHOOK_POLL_MS: "50" };

describe("cli: webhook endpoints and their deliveries", () => {
  let box: CliBox;
  let server: TestServer;
  let receiver: Receiver;
  let other: string;
  let project: string;

  beforeAll(async () => {
    box = await cliBox(OUTBOUND);
    server = await startTestServer(OUTBOUND, box.db);
    receiver = await startReceiver();
    ({ other, project } = await orgsWithProject(box));
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
    await box?.db.drop();
  });

  it("prints the secret once, sends a signed test event and shows it in the delivery log", async () => {
    receiver.behaviour = { kind: "ok" };
    const created = await box.run([
      "webhook",
      "create",
      "--project",
      project,
      "--url",
      receiver.url,
      "--event",
      "user.created",
    ]);
    expect(created.code).toBe(0);
    expect(created.stderr).toBe("");
    const [secret, summary, notice] = created.stdout.trimEnd().split("\n");
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    expect(summary).toMatch(
      new RegExp(`^created webhook wh_\\w+  ${receiver.url}  events user\\.created  enabled  project ${project}  `),
    );
    expect(notice).toBe(
      "the secret above is shown only now: give it to the receiver, which verifies signatures with it",
    );
    const id = /wh_\w+/.exec(summary)![0];
    receiver.secrets = [secret];

    // Listed without it, in text and in JSON.
    const listed = await box.run(["webhook", "list", "--project", project]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${id}  ${receiver.url}  events user.created  enabled`);
    expect(listed.stdout).not.toContain(secret);
    const listedJson = await box.json(["webhook", "list", "--project", project]);
    expect(listedJson).toEqual({
      data: [
        {
          id,
          project_id: project,
          url: receiver.url,
          event_types: ["user.created"],
          enabled: true,
          disabled_reason: "",
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      ],
      next_cursor: "",
      has_more: false,
    });
    expect(JSON.stringify(listedJson)).not.toContain(secret);

    // The test event reaches the receiver, signed with the secret printed; the log shows it.
    const test = await box.run(["webhook", "test", "--id", id]);
    expect(test.code).toBe(0);
    expect(test.stdout).toMatch(
      new RegExp(`^queued webhook\\.test delivery whd_\\w+ \\(event evt_\\w+\\) to webhook ${id}`),
    );
    const deliveryId = /whd_\w+/.exec(test.stdout)![0];
    const [received] = await receiver.waitFor((r) => r.body.type === "webhook.test");
    expect(received.verifiedBy).toBe(0);
    const table = await eventually("the test delivery logged as succeeded", async () => {
      const result = await box.run(["webhook", "deliveries", "--id", id]);
      return result.stdout.includes("succeeded") ? result : undefined;
    });
    const [header, row, ...rest] = table.stdout.trimEnd().split("\n");
    expect(header).toMatch(/^TIME\s+EVENT\s+STATUS\s+ATTEMPTS\s+LAST RESULT\s+DELIVERY$/);
    expect(row).toMatch(
      new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\S+Z  webhook\\.test +succeeded +1 +HTTP 204 +${deliveryId}$`),
    );
    expect(rest).toEqual([]);
    const log = await box.json(["webhook", "deliveries", "--id", id, "--status", "succeeded"]);
    expect(log.data).toEqual([
      expect.objectContaining({
        id: deliveryId,
        webhook_id: id,
        event_id: received.id,
        event_type: "webhook.test",
        status: "succeeded",
        attempts: [expect.objectContaining({ status_code: 204, error: "" })],
      }),
    ]);
    expect((await box.run(["webhook", "deliveries", "--id", id, "--status", "failed"])).stdout).toBe("no deliveries\n");

    // A replay sends the same event again, with the same webhook-id.
    const replayed = await box.run(["webhook", "replay", "--id", deliveryId]);
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toContain(`delivery ${deliveryId} (webhook.test, event ${received.id}) is pending again`);
    await receiver.waitFor((r) => r.id === received.id, 2);

    // A failing receiver: the log shows the status it answered, and the retry to come.
    receiver.behaviour = { kind: "fail", status: 500 };
    const failing = await box.json(["webhook", "test", "--id", id]);
    expect(failing.delivery).toMatchObject({ status: "pending", event_type: "webhook.test", attempts: [] });
    const pending = await eventually("the failed attempt logged", async () => {
      const result = await box.run(["webhook", "deliveries", "--id", id, "--status", "pending"]);
      return result.stdout.includes("HTTP 500") ? result : undefined;
    });
    expect(pending.stdout.split("\n")[1]).toMatch(
      new RegExp(`  webhook\\.test +pending +1 +HTTP 500 +${failing.delivery.id}$`),
    );

    // A new secret, printed once; the receiver that holds only it verifies the next event.
    receiver.behaviour = { kind: "ok" };
    const rotated = await box.run(["webhook", "rotate-secret", "--id", id]);
    expect(rotated.code).toBe(0);
    const [newSecret, rotatedLine] = rotated.stdout.split("\n");
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    expect(rotatedLine).toMatch(new RegExp(`^new secret for webhook ${id}; the previous one also signs until \\S+Z$`));
    receiver.secrets = [newSecret];
    const again = await box.json(["webhook", "test", "--id", id]);
    await receiver.waitFor((r) => r.id === again.delivery.event_id && r.verifiedBy === 0);
    expect(JSON.stringify(await box.json(["webhook", "list", "--project", project]))).not.toContain(newSecret);

    // Update: the changes shown; the endpoint disabled by the operator says so.
    const updated = await box.run([
      "webhook",
      "update",
      "--id",
      id,
      "--event",
      "user.created",
      "--event",
      "user.deleted",
      "--disable",
    ]);
    expect(updated.stdout).toMatch(
      new RegExp(
        `^updated webhook ${id}  ${receiver.url}  events user\\.created,user\\.deleted  disabled \\(admin\\)  `,
      ),
    );
    expect(await box.json(["webhook", "update", "--id", id, "--enable"])).toMatchObject({
      id,
      enabled: true,
      disabled_reason: "",
    });

    // Another organization's endpoint is not found, as on the Account interface.
    expect(await box.fails(["webhook", "update", "--org", other, "--id", id, "--disable"], 1)).toMatchObject({
      reason: "WEBHOOK_NOT_FOUND",
    });
    expect(await box.fails(["webhook", "deliveries", "--org", other, "--id", id], 1)).toMatchObject({
      reason: "WEBHOOK_NOT_FOUND",
    });
    expect(await box.fails(["webhook", "replay", "--org", other, "--id", deliveryId], 1)).toMatchObject({
      reason: "WEBHOOK_DELIVERY_NOT_FOUND",
    });

    // Delete: the endpoint and its log are gone.
    expect(await box.json(["webhook", "delete", "--id", id])).toEqual({ deleted: true, id });
    expect((await box.run(["webhook", "list", "--project", project])).stdout).toBe("no webhook endpoints\n");
    expect(await box.run(["webhook", "delete", "--id", id])).toEqual({
      code: 1,
      stdout: "",
      stderr: "gatehouse: no such webhook endpoint in this organization\n",
    });
    expect(await box.fails(["webhook", "replay", "--id", deliveryId], 1)).toMatchObject({
      reason: "WEBHOOK_DELIVERY_NOT_FOUND",
    });

    // The audit log names the operator for each change.
    const events = await box.json([
      "audit",
      "list",
      "--project",
      project,
      "--type",
      "webhook.created,webhook.updated,webhook.secret_rotated,webhook.deleted",
    ]);
    expect(events.data.map((e: any) => e.type)).toEqual([
      "webhook.deleted",
      "webhook.updated",
      "webhook.updated",
      "webhook.secret_rotated",
      "webhook.created",
    ]);
    for (const e of events.data) expect(e).toMatchObject({ actor_type: "operator", actor_id: userInfo().username });
  });

  it("refuses bad options before anything is written, naming the option or the API field", async () => {
    const before = (await box.json(["webhook", "list", "--project", project])).data;
    const create = ["webhook", "create", "--project", project];
    expect(await box.fails([...create, "--event", "user.created"], 64)).toEqual({
      reason: "USAGE",
      message: "--url is required: where events are POSTed (https)",
    });
    expect((await box.fails([...create, "--url", receiver.url], 64)).message).toMatch(/^--event is required/);
    expect(
      (await box.fails(["webhook", "create", "--url", receiver.url, "--event", "user.created"], 64)).message,
    ).toMatch(/^--project is required/);
    expect(await box.fails([...create, "--url", receiver.url, "--evnt", "user.created"], 64)).toMatchObject({
      reason: "USAGE",
      message: expect.stringContaining("'--evnt'"),
    });
    expect(await box.fails([...create, "--url", receiver.url, "--event", "user.made"], 64)).toMatchObject({
      reason: "VALIDATION_FAILED",
      violations: [{ field: "event_types[0]", description: expect.stringContaining('"user.made"') }],
    });
    expect(await box.fails(["webhook", "update", "--id", "wh_x", "--enable", "--disable"], 64)).toEqual({
      reason: "USAGE",
      message: "--enable and --disable contradict each other: give one",
    });
    expect((await box.fails(["webhook", "update", "--id", "wh_x"], 64)).message).toMatch(/^nothing to change/);
    expect((await box.fails(["webhook", "test"], 64)).message).toMatch(/^--id is required/);
    expect(await box.fails(["webhook", "deliveries", "--id", "wh_x", "--status", "lost"], 64)).toMatchObject({
      reason: "VALIDATION_FAILED",
      violations: [{ field: "status" }],
    });

    // Plain http to a public address: the server's reason, as the Account interface gives it.
    const plain = await box.run([...create, "--url", "http://93.184.215.14/hooks", "--event", "user.created"]);
    expect(plain).toEqual({ code: 64, stdout: "", stderr: expect.stringMatching(/^gatehouse: url: must be https\n/) });
    expect(await box.fails([...create, "--url", "http://10.1.2.3/hooks", "--event", "user.created"], 64)).toMatchObject(
      {
        reason: "VALIDATION_FAILED",
        violations: [{ field: "url", description: "must not name a private address" }],
      },
    );
    expect((await box.json(["webhook", "list", "--project", project])).data).toEqual(before);
    expect(await box.fails(["webhook", "test", "--id", "wh_00000000000000000000000000"], 1)).toMatchObject({
      reason: "WEBHOOK_NOT_FOUND",
    });
  });
});
