import { afterEach, describe, expect, it } from "vitest";
import { http } from "../helpers/clients.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { runCommand } from "../cli/helpers.js";
import { spawnService } from "../helpers/process.js";
import { seedOrganization } from "../helpers/seed.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { closedPort } from "../helpers/ports.js";
import { startSmtpSink } from "../helpers/smtp.js";
import { eventually } from "../helpers/eventually.js";
import { injectHttp } from "../helpers/inject.js";

// Threat: an invitation lost to a mail outage, or its secret link leaked to the logs. The
// invitation and its email commit together in the outbox; delivery happens after commit.

const PUBLIC_URL = "https://console.example.test";
const LINK = /https:\/\/console\.example\.test\?token=([A-Za-z0-9_-]+)&type=invitation/;
const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function adminHeaders(server: TestServer) {
  const org = await seedOrganization(server.deps);
  const login = await injectHttp(server.handle, "/v1/account/login", {
    body: { email: org.email, password: org.password },
  });
  return { authorization: `Bearer ${login.body.management_token}` };
}

describe("invitation mail", () => {
  it("SMTP down: InviteMember still answers 200; the message waits with its error, then is delivered once SMTP listens", async () => {
    const port = await closedPort();
    const server = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_RETRY_MS: "100", PUBLIC_URL });
    cleanup.push(() => server.stop());
    const sql = (text: string, params: unknown[]) => server.deps.db.dataSource.query(text, params);
    const email = "patient-invitee@example.com";

    const answer = await injectHttp(server.handle, "/v1/members/invite", {
      headers: await adminHeaders(server),
      body: { email, role: "developer" },
    });
    expect(answer.status).toBe(200);
    const failed = await eventually(
      "a failed attempt recorded",
      async () => (await sql("SELECT * FROM outbox WHERE recipient = $1 AND last_error IS NOT NULL", [email]))[0],
    );
    expect(failed.sent_at).toBeNull();
    expect(failed.attempts).toBeGreaterThanOrEqual(1);
    expect(failed.last_error).toContain("ECONNREFUSED");
    // Pending, the body (and its link) is kept sealed, never in clear.
    expect(failed.body_sealed).toMatch(/^v1\./);
    expect(failed.body_sealed).not.toContain("ginv_");

    const sink = await startSmtpSink(port);
    cleanup.push(() => sink.close());
    const mail = await sink.waitFor(email);
    const token = LINK.exec(mail.text)?.[1];
    expect(token).toMatch(/^ginv_/);
    const sent = await eventually(
      "the message marked sent",
      async () => (await sql("SELECT * FROM outbox WHERE recipient = $1 AND sent_at IS NOT NULL", [email]))[0],
    );
    expect(sent.body_sealed).toBeNull();
    expect(sink.messages.filter((m) => m.to.includes(email))).toHaveLength(1);

    const accepted = await injectHttp(server.handle, "/v1/account/invitations/accept", {
      body: { token, password: "patience pays off" },
    });
    expect(accepted.status).toBe(200);
  });

  // Two instances on one PostgreSQL database (PGlite serves one process): their workers claim
  // rows with SKIP LOCKED, so every message goes out once.
  it.runIf(Boolean(process.env.DATABASE_URL))("two instances deliver every queued message exactly once", async () => {
    const sink = await startSmtpSink();
    cleanup.push(() => sink.close());
    const db = await createTestDatabase();
    cleanup.push(() => db.drop());
    const env = { SMTP_URL: sink.url, MAIL_RETRY_MS: "100", PUBLIC_URL };
    const first = await startTestServer(env, db);
    cleanup.push(() => first.close());
    const second = await startTestServer(env, db);
    cleanup.push(() => second.close());
    const headers = await adminHeaders(first);
    const emails = Array.from({ length: 20 }, (_, i) => `crowd-${i}@example.com`);
    const answers = await Promise.all(
      emails.map((email, i) =>
        http(`${(i % 2 ? first : second).url}/v1/members/invite`, { headers, body: { email, role: "developer" } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(emails.map(() => 200));
    await eventually("every message marked sent", async () => {
      const [{ n }] = await first.deps.db.dataSource.query(
        "SELECT count(*)::int AS n FROM outbox WHERE sent_at IS NULL",
      );
      return n === 0;
    });
    expect(sink.messages.flatMap((m) => m.to).sort()).toEqual([...emails].sort());
  });

  it("without SMTP_URL: kept in the outbox, logged without its link, read back with `outbox list`, and accepted", async () => {
    const db: TestDatabase = await createTestDatabase();
    cleanup.push(() => db.drop());
    const env = {
      DATA_DIR: db.dataDir,
      DATABASE_URL: db.databaseUrl,
      PORT: "0",
      HOST: "127.0.0.1",
      PUBLIC_URL,
      GATEHOUSE_BOOTSTRAP_EMAIL: "owner@example.com",
      GATEHOUSE_BOOTSTRAP_PASSWORD: "bootstrap-password-42",
    };
    const email = "offline-invitee@example.com";

    // The service as its own process, so the test reads the log it really writes.
    const service = await spawnService(env);
    const base = `http://127.0.0.1:${service.port}`;
    const login = await http(`${base}/v1/account/login`, {
      body: { email: "owner@example.com", password: "bootstrap-password-42" },
    });
    const invite = await http(`${base}/v1/members/invite`, {
      headers: { authorization: `Bearer ${login.body.management_token}` },
      body: { email, role: "admin" },
    });
    expect(invite.status).toBe(200);
    service.child.kill("SIGTERM");
    expect(await service.exited).toBe(0);

    const cli = await runCommand(["outbox", "list"], env);
    expect(cli.stderr).toBe("");
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(
      new RegExp(`^1 pending message\\n\\n--- msg_[0-9a-z]{26} email to ${email}, queued .+, attempts 0\\n`),
    );
    expect(cli.stdout).toContain("Subject: You are invited to join Default on Gatehouse");
    const token = LINK.exec(cli.stdout)?.[1];
    expect(token).toMatch(/^ginv_/);

    const lines = service
      .stdout()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const kept = lines.filter((line) => line.mail_id);
    expect(kept).toHaveLength(1);
    // The address masked: the log names no full recipient.
    expect(kept[0]).toMatchObject({ to: "o***@example.com", subject: "You are invited to join Default on Gatehouse" });
    expect(service.stdout()).not.toContain(email);
    expect(kept[0].msg).toContain("SMTP_URL is not set");
    expect(service.stdout() + service.stderr()).not.toContain(token!);

    const server = await startTestServer({}, db);
    cleanup.push(() => server.close());
    const accepted = await injectHttp(server.handle, "/v1/account/invitations/accept", {
      body: { token, password: "read from the outbox" },
    });
    expect(accepted.status).toBe(200);
  });
});
