import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { authFixture, type AuthFixture } from "./auth/helpers.js";
import { http, type HttpAnswer } from "./helpers/clients.js";
import { createTestDatabase } from "./helpers/database.js";
import { useMessagingServer } from "./helpers/messaging-server.js";
import { runCommand } from "./cli/helpers.js";
import { spawnService } from "./helpers/process.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { closedPort } from "./helpers/ports.js";
import { startSmtpSink } from "./helpers/smtp.js";
import { eventually } from "./helpers/eventually.js";
import { injectHttp } from "./helpers/inject.js";

// Threats: a sign-in code or link lost to an SMS webhook or SMTP outage, an API answer that
// changes during one (telling an attacker something, or failing a user who will get the
// message anyway), and a code leaked to the logs when no webhook is configured. Codes and
// links commit with their message in the outbox; delivery happens after commit, with retries.

const CODE = /\b(\d{6})\b/;
const LINK = /https:\/\/app\.example\.com\/callback\?token=(gml_[A-Za-z0-9_-]+)&type=magic_link/;
const OTP_SENT = { message: "A sign-in code has been sent. It expires in 10 minutes.", expires_in: 600 };
const LINK_SENT = { message: "A sign-in link has been sent. It expires in 15 minutes.", expires_in: 900 };

/** The answer as the caller reads it, without the per-request id. */
const answer = (res: HttpAnswer) => {
  const { request_id: _ignored, ...body } = res.body;
  return { status: res.status, body };
};

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** The outbox rows to one recipient, read-only. */
const outboxTo = (server: TestServer, to: string) =>
  server.deps.db.dataSource.query(
    "SELECT channel, attempts, last_error, sent_at, body_sealed FROM outbox WHERE recipient = $1",
    [to],
  );

/** Waits until the worker has marked the message to `to` sent. */
const sentTo = (server: TestServer, to: string) =>
  eventually(`the message to ${to} marked sent`, async () => (await outboxTo(server, to)).find((r: any) => r.sent_at));

describe("SMS webhook outage", () => {
  const ctx = useMessagingServer({ sms: true });
  let app: AuthFixture;
  beforeAll(async () => {
    app = await authFixture(ctx.server);
  });
  // Registered after the helper's afterAll, so it runs first: the webhook is up again before the server stops.
  afterAll(() => ctx.sms.setDown(false));

  it("SendOtp answers exactly as when the webhook is up; the SMS waits with its error, arrives once the webhook is back, and its code signs in", async () => {
    const up = await app.call("POST", "/v1/auth/otp/send", { phone: "+15550100001" });
    expect(answer(up)).toEqual({ status: 200, body: OTP_SENT });
    await ctx.sms.waitFor("+15550100001");

    ctx.sms.setDown(true);
    const phone = "+15550100002";
    const down = await app.call("POST", "/v1/auth/otp/send", { phone });
    expect(answer(down)).toEqual(answer(up));
    const failed = await eventually("two refused attempts recorded", async () =>
      ctx.sms.refused >= 2
        ? (await outboxTo(ctx.server, phone)).find((r: any) => r.attempts >= 2 && r.last_error)
        : undefined,
    );
    expect(failed).toMatchObject({ channel: "sms", sent_at: null });
    expect(failed.last_error).toContain("503");
    expect(failed.body_sealed).toMatch(/^v1\./); // kept, sealed: the code is never in clear
    expect(ctx.sms.refused).toBeGreaterThanOrEqual(2);
    expect(ctx.sms.messages.filter((m) => m.to === phone)).toEqual([]);

    ctx.sms.setDown(false);
    const message = await ctx.sms.waitFor(phone);
    expect(message.body).toMatch(/^\d{6} is your Auth test sign-in code\. It expires in 10 minutes\./);
    const sent = await sentTo(ctx.server, phone);
    expect(sent).toMatchObject({ last_error: null, body_sealed: null });
    expect(ctx.sms.messages.filter((m) => m.to === phone)).toHaveLength(1);

    const verified = await app.call("POST", "/v1/auth/otp/verify", { phone, otp: CODE.exec(message.body)![1] });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ phone, phone_verified: true });
  });

  it("an MFA challenge during the outage answers as usual; its SMS arrives after the outage and finishes the sign-in", async () => {
    const { body, email, password } = await app.signup();
    const factorPhone = "+15550100003";
    await app.call("POST", "/v1/auth/mfa/enroll", { method: "sms", phone: factorPhone }, body.access_token);
    const enrolled = await app.call(
      "POST",
      "/v1/auth/mfa/verify",
      { code: await ctx.sms.codeFor(factorPhone), method: "sms" },
      body.access_token,
    );
    expect(enrolled.body).toMatchObject({ enrolled: true, method: "sms" });

    ctx.sms.setDown(true);
    const refusedBefore = ctx.sms.refused;
    const challenge = await app.call("POST", "/v1/auth/login", { email, password });
    expect(answer(challenge)).toEqual({
      status: 200,
      body: { mfa_required: true, mfa_token: expect.stringMatching(/^gmfa_/), mfa_methods: ["sms"], expires_in: 300 },
    });
    await eventually("the challenge's SMS refused", async () => ctx.sms.refused > refusedBefore);
    ctx.sms.setDown(false);
    const code = await ctx.sms.codeFor(factorPhone, { nth: 2 });
    const done = await app.call("POST", "/v1/auth/mfa/verify", { mfa_token: challenge.body.mfa_token, code });
    expect(done.status).toBe(200);
    const claims = (await app.call("POST", "/v1/auth/token/verify", { token: done.body.access_token })).body.claims;
    expect(claims.amr).toEqual(["pwd", "sms"]);
  });
});

describe("SMTP outage", () => {
  it("SendOtp and SendMagicLink answer as once SMTP is back; both emails arrive when it listens, and the code and the link sign in", async () => {
    const port = await closedPort();
    const server = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_RETRY_MS: "200" });
    cleanup.push(() => server.stop());
    const app = await authFixture(server);
    const [codeTo, linkTo] = ["code-in-outage@example.com", "link-in-outage@example.com"];

    const otpDown = await app.call("POST", "/v1/auth/otp/send", { email: codeTo });
    const linkDown = await app.call("POST", "/v1/auth/magic-link/send", { email: linkTo });
    expect(answer(otpDown)).toEqual({ status: 200, body: OTP_SENT });
    expect(answer(linkDown)).toEqual({ status: 200, body: LINK_SENT });
    for (const to of [codeTo, linkTo]) {
      const failed = await eventually(`a failed attempt recorded for ${to}`, async () =>
        (await outboxTo(server, to)).find((r: any) => r.last_error),
      );
      expect(failed).toMatchObject({ channel: "email", sent_at: null });
      expect(failed.last_error).toContain("ECONNREFUSED");
    }

    const mail = await startSmtpSink(port);
    cleanup.push(() => mail.close());
    const otp = CODE.exec((await mail.waitFor(codeTo)).text)![1];
    const token = LINK.exec((await mail.waitFor(linkTo)).text)![1];
    await sentTo(server, codeTo);
    await sentTo(server, linkTo);
    expect(mail.messages.filter((m) => m.to.includes(codeTo) || m.to.includes(linkTo))).toHaveLength(2);

    // With SMTP back the same requests answer the same.
    expect(answer(await app.call("POST", "/v1/auth/otp/send", { email: "code-after@example.com" }))).toEqual(
      answer(otpDown),
    );
    expect(answer(await app.call("POST", "/v1/auth/magic-link/send", { email: "link-after@example.com" }))).toEqual(
      answer(linkDown),
    );

    const byCode = await app.call("POST", "/v1/auth/otp/verify", { email: codeTo, otp });
    expect(byCode.status).toBe(200);
    expect(byCode.body.user).toMatchObject({ email: codeTo, email_verified: true });
    const byLink = await app.call("POST", "/v1/auth/magic-link/verify", { token });
    expect(byLink.status).toBe(200);
    expect(byLink.body.user).toMatchObject({ email: linkTo, email_verified: true });
  });
});

describe("without SMS_WEBHOOK_URL", () => {
  it("SendOtp answers 200; the SMS is kept in the outbox, logged with its recipient masked, read back with `outbox list`, and its code signs in", async () => {
    const db = await createTestDatabase();
    cleanup.push(() => db.drop());
    // The project and its API key through the service's own flows, then the service as its
    // own process, so the test reads the log it really writes.
    const seeding = await startTestServer({}, db);
    const { key } = await authFixture(seeding);
    await seeding.close();
    const env = { DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl, PORT: "0", HOST: "127.0.0.1" };
    const phone = "+15550100009";

    const service = await spawnService(env);
    const sent = await http(`http://127.0.0.1:${service.port}/v1/auth/otp/send`, {
      headers: { "x-service-key": key },
      body: { phone },
    });
    expect(answer(sent)).toEqual({ status: 200, body: OTP_SENT });
    service.child.kill("SIGTERM");
    expect(await service.exited).toBe(0);

    const cli = await runCommand(["outbox", "list"], env);
    expect(cli.stderr).toBe("");
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(
      new RegExp(`^1 pending message\\n\\n--- msg_[0-9a-z]{26} sms to \\${phone}, queued .+, attempts 0\\n`),
    );
    const code = /(\d{6}) is your Auth test sign-in code\. It expires in 10 minutes\./.exec(cli.stdout)?.[1];
    expect(code).toMatch(/^\d{6}$/);

    const lines = service
      .stdout()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const kept = lines.filter((line) => line.message_id);
    expect(kept).toHaveLength(1);
    // The number masked: the log names no full recipient.
    expect(kept[0]).toMatchObject({ to: "+1555***09" });
    expect(service.stdout()).not.toContain(phone);
    expect(kept[0].msg).toContain("SMS_WEBHOOK_URL is not set");
    expect(Object.keys(kept[0])).not.toContain("body");
    expect(service.stdout() + service.stderr()).not.toMatch(new RegExp(`\\b${code}\\b`));

    const server = await startTestServer({}, db);
    cleanup.push(() => server.close());
    expect(await outboxTo(server, phone)).toMatchObject([{ channel: "sms", attempts: 0, sent_at: null }]);
    const verified = await injectHttp(server.handle, "/v1/auth/otp/verify", {
      headers: { "x-service-key": key },
      body: { phone, otp: code },
    });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ phone, phone_verified: true });
  });
});
