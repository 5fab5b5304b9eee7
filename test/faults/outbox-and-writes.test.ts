import pg from "pg";
import { SMTPServer } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { authFixture } from "../auth/helpers.js";
import { http } from "../helpers/clients.js";
import { createTestClock } from "../helpers/clock.js";
import { onPostgres, startProxiedService, type ProxiedService } from "./helpers.js";
import { msUntil } from "../helpers/eventually.js";

// The database dies in the middle of things: no flow leaves half its rows behind, and no mail
// in the outbox is lost (it may go twice: delivery is at least once).

/** notify/worker.ts: how long a claimed message is left to the instance sending it. */
const LEASE_MS = 2 * 60_000;

let service: ProxiedService | undefined;
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await service?.stop();
  service = undefined;
  for (const step of cleanup.splice(0)) await step();
});

async function sql<T = any>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** An SMTP server that holds each message's final answer until the test lets it go. */
async function heldSmtp() {
  const received: string[] = [];
  let release: () => void = () => {};
  let gate = new Promise<void>((resolve) => (release = resolve));
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      stream.resume();
      stream.on("end", () => {
        received.push(session.envelope.rcptTo.map((r) => r.address).join(","));
        void gate.then(() => callback());
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server as unknown as { server: { address(): { port: number } } }).server.address().port;
  cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    open() {
      release();
    },
    close() {
      gate = new Promise<void>((resolve) => (release = resolve));
    },
  };
}

describe.skipIf(!onPostgres)(
  "the database dies mid-flow (needs DATABASE_URL: embedded PGlite has no network to cut)",
  () => {
    it("an email sent just before the database went away is sent again after it returns, and marked sent", async () => {
      const smtp = await heldSmtp();
      const clock = createTestClock();
      service = await startProxiedService({ SMTP_URL: smtp.url, MAIL_RETRY_MS: "100" }, clock);
      const { server, proxy, database } = service;
      const fixture = await authFixture(server, { sendVerification: true });
      const email = `outbox-${Date.now()}@example.com`;
      await fixture.signup(email);
      // The SMTP server has the message; its "250 OK" waits until the database is gone, so the
      // worker learns of the delivery when it can no longer record it.
      await msUntil("the first delivery", async () => smtp.received.length === 1);
      proxy.refuse();
      smtp.open();
      await new Promise((r) => setTimeout(r, 500));
      const pending = await sql(database.databaseUrl!, "SELECT sent_at FROM outbox WHERE recipient = $1", [email]);
      expect(pending).toEqual([{ sent_at: null }]);

      proxy.restore();
      // Nobody will tell the worker whether the first attempt went out: once its lease runs out the
      // message is due again, and delivered again.
      clock.advance(LEASE_MS + 1000);
      const redelivered = await msUntil("the second delivery", async () => smtp.received.length >= 2);
      await msUntil(
        "sent_at",
        async () =>
          (await sql(database.databaseUrl!, "SELECT sent_at FROM outbox WHERE recipient = $1", [email]))[0]?.sent_at !==
          null,
      );
      expect(smtp.received).toEqual([email, email]);
      console.log(
        `[faults] outbox: delivery unrecorded during the outage, delivered again ${redelivered} ms after the lease ran out`,
      );
    });

    it("signups cut off mid-transaction leave each user with its session or no trace at all", async () => {
      service = await startProxiedService();
      const { server, proxy, database } = service;
      // 40 signups from one loopback address: over the default 30 per IP, which is not what this test is about.
      const fixture = await authFixture(server, { rateLimits: { signupsPerIp: 1000 } });
      const emails = Array.from({ length: 40 }, (_, i) => `partial-${i}-${Date.now()}@example.com`);
      const answers = emails.map((email, i) =>
        new Promise((r) => setTimeout(r, i * 10)).then(() =>
          http(`${server.url}/v1/auth/signup`, {
            headers: { "x-service-key": fixture.key },
            body: { email, password: "a sturdy passphrase 1" },
          }),
        ),
      );
      // Reset every connection while the signups are under way: some commit, some die mid-way.
      await Promise.race(answers);
      proxy.refuse();
      const statuses = (await Promise.all(answers)).map((a) => a.status);
      expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
      proxy.restore();

      const rows = await sql<{ email: string; sessions: number }>(
        database.databaseUrl!,
        `SELECT u.email, (SELECT count(*)::int FROM sessions s WHERE s.user_id = u.id) AS sessions
         FROM users u WHERE u.email = ANY($1)`,
        [emails],
      );
      for (const row of rows) expect(row.sessions, row.email).toBe(1);
      // Every answered signup is there; a 503 is the only answer that may or may not have committed.
      const stored = new Set(rows.map((r) => r.email));
      emails.forEach((email, i) => {
        if (statuses[i] === 200) expect(stored.has(email), email).toBe(true);
      });
      console.log(
        `[faults] ${statuses.filter((s) => s === 200).length} signups committed, ${statuses.filter((s) => s === 503).length} answered 503, ${rows.length} users stored, none without its session`,
      );
    });
  },
);
