import { afterEach, describe, expect, it } from "vitest";
import { authFixture } from "./auth/helpers.js";
import { grpcCall, grpcClient, http } from "./helpers/clients.js";
import { createTestClock } from "./helpers/clock.js";
import { eventually } from "./helpers/eventually.js";
import { startTestServer } from "./helpers/server.js";
import { startSmsSink } from "./helpers/sms.js";

// The threat: a server with no SMS transport (no SMS_WEBHOOK_URL) takes SendOtp by SMS, answers
// "sent", and keeps the code in the outbox while the person waits for a text that never comes;
// /healthz said "ok" and nothing else. Now it counts those SMS and their age.

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const phone = (n: number) => `+1555${String(process.pid % 1000).padStart(3, "0")}${String(n).padStart(4, "0")}`;

describe("/healthz reports SMS it cannot send", () => {
  it("without SMS_WEBHOOK_URL: the SMS codes asked for wait in the outbox, and /healthz counts them and their age while staying ready", async () => {
    const clock = createTestClock();
    const server = await startTestServer({}, undefined, { clock });
    cleanup.push(() => server.stop());
    const health = () => http(`${server.url}/healthz`);
    const app = await authFixture(server);

    expect((await health()).body).toEqual({ status: "ok" });

    for (const n of [1, 2]) {
      const sent = await app.call("POST", "/v1/auth/otp/send", { phone: phone(n), channel: "sms" });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    }
    const piled = await health();
    expect(piled.status).toBe(200);
    expect(piled.body).toEqual({ status: "ok", undeliverable: { sms: { pending: 2, oldest_age_s: 0 } } });

    clock.advance(90_000);
    const later = await health();
    // Reported, never a reason to take the server out of rotation: 200 ok and SERVING.
    expect(later.status).toBe(200);
    expect(later.body.status).toBe("ok");
    expect(later.body.undeliverable.sms.pending).toBe(2);
    expect(later.body.undeliverable.sms.oldest_age_s).toBeGreaterThanOrEqual(90);
    expect((await grpcCall(grpcClient(server.port, "health"), "Check", { service: "" })).response?.status).toBe(
      "SERVING",
    );
  });

  it("with SMS_WEBHOOK_URL the SMS go out: nothing is undeliverable, and the outbox is the delivery backlog", async () => {
    const sms = await startSmsSink();
    cleanup.push(() => sms.close());
    const server = await startTestServer({ SMS_WEBHOOK_URL: sms.url, MAIL_RETRY_MS: "100" });
    cleanup.push(() => server.stop());
    const app = await authFixture(server);

    const sent = await app.call("POST", "/v1/auth/otp/send", { phone: phone(3), channel: "sms" });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await sms.codeFor(phone(3));
    const drained = await eventually("the SMS left the outbox", async () => {
      const body = (await http(`${server.url}/healthz`)).body;
      return body.delivery.pending === 0 && body;
    });
    expect(drained).toEqual({ status: "ok", delivery: { pending: 0, oldest_age_s: 0, stale: false } });
  });
});
