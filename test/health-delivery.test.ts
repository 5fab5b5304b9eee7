import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.js";
import { authFixture } from "./auth/helpers.js";
import { grpcCall, grpcClient, http } from "./helpers/clients.js";
import { createTestClock } from "./helpers/clock.js";
import { eventually } from "./helpers/eventually.js";
import { startTestServer } from "./helpers/server.js";
import { closedPort } from "./helpers/ports.js";
import { startSmtpSink } from "./helpers/smtp.js";

// The threat: the SMTP relay dies and every sign-in code, reset link and invitation waits in
// the outbox while every probe says "ok"; users feel it long before an operator sees it.

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe("/healthz reports the delivery backlog", () => {
  it("SMTP down: mails pile up, /healthz counts them and their age, calls them stale past DELIVERY_BACKLOG_MAX_AGE_S, and stays ready; SMTP back: the backlog drains", async () => {
    const port = await closedPort();
    const clock = createTestClock();
    const server = await startTestServer(
      { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_RETRY_MS: "100", DELIVERY_BACKLOG_MAX_AGE_S: "60" },
      undefined,
      { clock },
    );
    cleanup.push(() => server.stop());
    const health = () => http(`${server.url}/healthz`);
    const app = await authFixture(server, { sendVerification: true });

    const before = (await health()).body;
    expect(before).toEqual({ status: "ok", delivery: { pending: 0, oldest_age_s: 0, stale: false } });

    // Each signup commits its verification mail to the outbox; the relay refuses every attempt.
    const first = await app.signup();
    await app.signup();
    const piled = await health();
    expect(piled.status).toBe(200);
    expect(piled.body.delivery).toMatchObject({ pending: 2, stale: false });

    clock.advance(59_000);
    expect((await health()).body.delivery).toMatchObject({ pending: 2, stale: false });
    clock.advance(2_000);
    const stale = await health();
    // A dead relay is no reason to take the server out of rotation: it still answers 200 ok and SERVING.
    expect(stale.status).toBe(200);
    expect(stale.body.status).toBe("ok");
    expect(stale.body.delivery.pending).toBe(2);
    expect(stale.body.delivery.oldest_age_s).toBeGreaterThanOrEqual(61);
    expect(stale.body.delivery.stale).toBe(true);
    expect((await grpcCall(grpcClient(server.port, "health"), "Check", { service: "" })).response?.status).toBe(
      "SERVING",
    );

    // The relay returns: once the retries come due, the backlog drains and the mails arrive.
    const smtp = await startSmtpSink(port);
    cleanup.push(() => smtp.close());
    clock.advance(3_600_000);
    await smtp.waitFor(first.email);
    const drained = await eventually("the backlog drained", async () => {
      const body = (await health()).body;
      return body.delivery.pending === 0 && body;
    });
    expect(drained).toEqual({ status: "ok", delivery: { pending: 0, oldest_age_s: 0, stale: false } });
  });

  it("without SMTP_URL or SMS_WEBHOOK_URL this instance delivers nothing, and /healthz keeps its plain answer", async () => {
    const server = await startTestServer();
    cleanup.push(() => server.stop());
    const app = await authFixture(server, { sendVerification: true });
    await app.signup();
    expect((await http(`${server.url}/healthz`)).body).toEqual({ status: "ok" });
  });

  it("DELIVERY_BACKLOG_MAX_AGE_S must be a whole number of seconds from 1 to a week", () => {
    for (const bad of ["0", "5m", "604801"]) {
      expect(() => loadConfig({ DELIVERY_BACKLOG_MAX_AGE_S: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ DELIVERY_BACKLOG_MAX_AGE_S: bad })).toThrow(
        `DELIVERY_BACKLOG_MAX_AGE_S must be an integer from 1 to 604800 (got "${bad}")`,
      );
    }
    expect(loadConfig({}).deliveryBacklogMaxAgeS).toBe(300);
  });
});
