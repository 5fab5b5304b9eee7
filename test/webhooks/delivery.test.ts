import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../helpers/clients.js";
import { eventually } from "../helpers/eventually.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.js";
import { newEmail, passwordlessProject, type PasswordlessProject } from "../auth/passwordless-helpers.js";

// Webhooks as a receiver sees them (API.md section 7, issue 25): every event signed per
// Standard Webhooks and verified with the `standardwebhooks` package, the same webhook-id and
// body on every retry, retries on the schedule, the delivery log, replay, rotation with two
// signatures, the endpoint disabled after a failure streak. Time moves with the test clock.

const PASSWORD = "a sturdy passphrase 1";
const HOUR = 3600_000;

describe("webhook delivery", () => {
  const ctx = useMessagingServer({ env: { OUTBOUND_ALLOW_HOSTS: "127.0.0.1/32", WEBHOOK_POLL_MS: "50" } });
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver?.close());

  const account = (app: PasswordlessProject, method: string, path: string, body?: unknown) =>
    http(`${ctx.server.url}${path}`, {
      method,
      headers: app.management,
      body: method === "GET" || method === "DELETE" ? undefined : (body ?? {}),
    });

  async function endpoint(app: PasswordlessProject, eventTypes: string[], url = receiver.url) {
    const res = await account(app, "POST", "/v1/webhooks", { project_id: app.projectId, url, event_types: eventTypes });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    receiver.secrets = [res.body.secret];
    return res.body as { id: string; secret: string };
  }

  async function deliveries(app: PasswordlessProject, id: string): Promise<any[]> {
    const res = await account(app, "GET", `/v1/webhooks/${id}/deliveries`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  }

  /**
   * Waits until the delivery log shows `attempts` attempts of the endpoint's only delivery,
   * then moves the clock to its next attempt and answers how far that was.
   */
  async function toNextAttempt(app: PasswordlessProject, id: string, attempts: number): Promise<number> {
    // Read from the store: the test clock outruns a management token.
    const page = { limit: 10 };
    const delivery = await eventually(`attempt ${attempts} logged`, async () => {
      const [d] = await ctx.server.deps.db.repos.webhookDeliveries.list(app.projectId, id, undefined, page);
      return d?.attempts.length === attempts && d.nextAttemptAt ? d : undefined;
    });
    const wait = delivery.nextAttemptAt!.getTime() - ctx.clock.now().getTime();
    ctx.clock.advance(wait);
    return wait;
  }

  async function signInAgain(app: PasswordlessProject): Promise<void> {
    const login = await http(`${ctx.server.url}/v1/account/login`, { body: app.admin });
    expect(login.status).toBe(200);
    app.management.authorization = `Bearer ${login.body.management_token}`;
  }

  it("a signup is user.created, signed, with the user as it was and nothing secret", async () => {
    receiver.behaviour = { kind: "ok" };
    const app = await passwordlessProject(ctx.server);
    const hook = await endpoint(app, ["user.created", "user.signed_in"]);
    const email = newEmail("signup");
    const signup = await app.call("POST", "/v1/auth/signup", { email, password: PASSWORD, metadata: { plan: "free" } });
    expect(signup.status).toBe(200);
    const userId = signup.body.user.id as string;
    const [created] = await receiver.waitFor((r) => r.body.data.user_id === userId);
    expect(created.body).toMatchObject({
      type: "user.created",
      data: {
        project_id: app.projectId,
        user_id: userId,
        user: { id: userId, email, email_verified: false, metadata: { plan: "free" }, mfa_methods: [] },
        actor: { type: "user", id: userId },
        details: { method: "password" },
      },
    });
    expect(created.id).toMatch(/^evt_/);
    expect(Date.parse(created.body.timestamp)).toBeGreaterThan(0);
    const raw = JSON.stringify(created.body);
    for (const secret of [PASSWORD, signup.body.access_token, signup.body.refresh_token, "argon2", "password_hash"])
      expect(raw).not.toContain(secret);

    // A sign-in is user.signed_in with its method and amr.
    const login = await app.call("POST", "/v1/auth/login", { email, password: PASSWORD });
    expect(login.status).toBe(200);
    const [signedIn] = await receiver.waitFor(
      (r) => r.body.type === "user.signed_in" && r.body.data.user_id === userId,
    );
    expect(signedIn.body.data.details).toMatchObject({ method: "password", amr: ["pwd"] });

    // The receiver sees the POST before the worker writes its answer down: wait for the log.
    const log = await eventually("both deliveries answered", async () => {
      const all = await deliveries(app, hook.id);
      return all.every((d) => d.status !== "pending") ? all : undefined;
    });
    expect(log.map((d) => [d.event_type, d.status])).toEqual([
      ["user.signed_in", "succeeded"],
      ["user.created", "succeeded"],
    ]);
    expect(log[1]).toMatchObject({ event_id: created.id, webhook_id: hook.id });
    expect(log[1].attempts).toHaveLength(1);
    expect(log[1].attempts[0]).toMatchObject({ status_code: 204, error: "" });
  });

  it("an event type the endpoint did not ask for is not sent; a failed sign-in carries no password", async () => {
    receiver.behaviour = { kind: "ok" };
    const app = await passwordlessProject(ctx.server);
    const hook = await endpoint(app, ["user.sign_in_failed"]);
    const email = newEmail("failing");
    expect((await app.call("POST", "/v1/auth/signup", { email, password: PASSWORD })).status).toBe(200);
    const wrong = "not the password at all";
    expect((await app.call("POST", "/v1/auth/login", { email, password: wrong })).status).toBe(401);
    const [failed] = await receiver.waitFor(
      (r) => r.body.type === "user.sign_in_failed" && r.body.data.project_id === app.projectId,
    );
    expect(failed.body.data).toMatchObject({ reason: "INVALID_CREDENTIALS", details: { method: "password" } });
    expect(JSON.stringify(failed.body)).not.toContain(wrong);
    const log = await deliveries(app, hook.id);
    expect(log.map((d) => d.event_type)).toEqual(["user.sign_in_failed"]);
  });

  it("a failing receiver is retried with the same webhook-id and body until it answers", async () => {
    const app = await passwordlessProject(ctx.server);
    const hook = await endpoint(app, ["user.created"]);
    receiver.behaviour = { kind: "fail", status: 503 };
    const signup = await app.call("POST", "/v1/auth/signup", { email: newEmail("retry"), password: PASSWORD });
    const userId = signup.body.user.id as string;
    const mine = (r: { body: any }) => r.body.data.user_id === userId;
    await receiver.waitFor(mine, 1);
    // The first retry is due 5 seconds later, the second 5 minutes after that.
    expect(await toNextAttempt(app, hook.id, 1)).toBeCloseTo(5_000, -3);
    await receiver.waitFor(mine, 2);
    expect(await toNextAttempt(app, hook.id, 2)).toBeCloseTo(5 * 60_000, -3);
    await receiver.waitFor(mine, 3);
    receiver.behaviour = { kind: "ok" };
    expect(await toNextAttempt(app, hook.id, 3)).toBeCloseTo(30 * 60_000, -3);
    const attempts = await receiver.waitFor(mine, 4);
    expect(new Set(attempts.map((a) => a.id)).size).toBe(1);
    expect(new Set(attempts.map((a) => JSON.stringify(a.body))).size).toBe(1);
    // The receiver sees the POST before the worker writes its answer down: wait for the log.
    const delivery = await eventually("the fourth attempt logged", async () => {
      const [d] = await deliveries(app, hook.id);
      return d.attempts.length === 4 ? d : undefined;
    });
    expect(delivery.status).toBe("succeeded");
    expect(delivery.attempts.map((a: any) => a.status_code)).toEqual([503, 503, 503, 204]);
    expect(delivery.attempts[0].response_excerpt).toContain("failing on purpose");
    // Nothing more is sent once it succeeded.
    ctx.clock.advance(24 * HOUR);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received.filter(mine)).toHaveLength(4);
  });

  it("replay sends a delivery again with the same id; a test event reaches only its endpoint", async () => {
    receiver.behaviour = { kind: "ok" };
    const app = await passwordlessProject(ctx.server);
    const hook = await endpoint(app, ["user.created"]);
    const test = await account(app, "POST", `/v1/webhooks/${hook.id}/test`);
    expect(test.status, JSON.stringify(test.body)).toBe(200);
    const [first] = await receiver.waitFor((r) => r.id === test.body.delivery.event_id);
    expect(first.body).toMatchObject({ type: "webhook.test", data: { project_id: app.projectId } });
    const replay = await account(app, "POST", `/v1/webhook-deliveries/${test.body.delivery.id}/replay`);
    expect(replay.status, JSON.stringify(replay.body)).toBe(200);
    const both = await receiver.waitFor((r) => r.id === first.id, 2);
    expect(both[1].body).toEqual(first.body);
    // Another organization's admin cannot see or replay it.
    const outsider = await passwordlessProject(ctx.server);
    const foreign = await account(outsider, "POST", `/v1/webhook-deliveries/${test.body.delivery.id}/replay`);
    expect({ status: foreign.status, reason: foreign.body.reason }).toEqual({
      status: 404,
      reason: "WEBHOOK_DELIVERY_NOT_FOUND",
    });
  });

  it("after a rotation both secrets sign for a day; then only the new one", async () => {
    receiver.behaviour = { kind: "ok" };
    const app = await passwordlessProject(ctx.server);
    const hook = await endpoint(app, ["user.created"]);
    const rotated = await account(app, "POST", `/v1/webhooks/${hook.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(hook.secret);
    // A receiver still holding the old secret verifies; so does one that switched.
    receiver.secrets = [hook.secret];
    const a = await app.call("POST", "/v1/auth/signup", { email: newEmail("rot"), password: PASSWORD });
    const [old] = await receiver.waitFor((r) => r.body.data.user_id === a.body.user.id);
    expect(old.headers["webhook-signature"].split(" ")).toHaveLength(2);
    receiver.secrets = [rotated.body.secret];
    const b = await app.call("POST", "/v1/auth/signup", { email: newEmail("rot"), password: PASSWORD });
    await receiver.waitFor((r) => r.body.data.user_id === b.body.user.id);
    // A day later the old secret no longer signs.
    ctx.clock.advance(24 * HOUR + 1000);
    receiver.secrets = [rotated.body.secret];
    const c = await app.call("POST", "/v1/auth/signup", { email: newEmail("rot"), password: PASSWORD });
    const [late] = await receiver.waitFor((r) => r.body.data.user_id === c.body.user.id);
    expect(late.headers["webhook-signature"].split(" ")).toHaveLength(1);
  });

  it("gives up after the last retry and disables an endpoint failing for 3 days, audited", async () => {
    const app = await passwordlessProject(ctx.server);
    const hook = await endpoint(app, ["user.created"]);
    receiver.behaviour = { kind: "fail", status: 500 };
    const signup = await app.call("POST", "/v1/auth/signup", { email: newEmail("dead"), password: PASSWORD });
    const mine = (r: { body: any }) => r.body.data.user_id === signup.body.user.id;
    const schedule = [5_000, 5 * 60_000, 30 * 60_000, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
    await receiver.waitFor(mine, 1);
    const waits: number[] = [];
    for (const i of schedule.keys()) {
      waits.push(await toNextAttempt(app, hook.id, i + 1));
      await receiver.waitFor(mine, i + 2);
    }
    // At least 24 hours of retries (API.md section 7), each wait as scheduled.
    waits.forEach((wait, i) => expect(wait).toBeCloseTo(schedule[i], -3));
    expect(schedule.reduce((a, b) => a + b)).toBeGreaterThan(24 * HOUR);
    await signInAgain(app);
    const [given] = await deliveries(app, hook.id);
    expect(given).toMatchObject({ status: "failed" });
    expect(given.attempts).toHaveLength(8);
    expect(given.next_attempt_at).toBeUndefined();
    // The streak began about 27 hours ago; a later event fails too, 3 days after its start.
    ctx.clock.advance(2 * 24 * HOUR);
    const later = await app.call("POST", "/v1/auth/signup", { email: newEmail("dead"), password: PASSWORD });
    await receiver.waitFor((r) => r.body.data.user_id === later.body.user.id);
    await signInAgain(app);
    const listed = await account(app, "GET", `/v1/projects/${app.projectId}/webhooks`);
    expect(listed.body.data[0]).toMatchObject({ id: hook.id, enabled: false, disabled_reason: "failing" });
    const audit = await account(app, "GET", `/v1/audit-events?project_id=${app.projectId}&type=webhook.disabled`);
    expect(audit.status, JSON.stringify(audit.body)).toBe(200);
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0]).toMatchObject({ target_id: hook.id, reason: "failing" });
    // Disabled, it receives nothing; enabled again, it does.
    receiver.behaviour = { kind: "ok" };
    const quiet = await app.call("POST", "/v1/auth/signup", { email: newEmail("dead"), password: PASSWORD });
    const enabled = await account(app, "PATCH", `/v1/webhooks/${hook.id}`, { enabled: true });
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: "" });
    const after = await app.call("POST", "/v1/auth/signup", { email: newEmail("dead"), password: PASSWORD });
    await receiver.waitFor((r) => r.body.data.user_id === after.body.user.id);
    expect(receiver.received.some((r) => r.body.data.user_id === quiet.body.user.id)).toBe(false);
  });
});
