import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createSecretBox } from "../../src/crypto/secret-box.js";
import { systemClock } from "../../src/domain/clock.js";
import { createOutbox } from "../../src/notify/outbox.js";
import { openDatabase, type Database } from "../../src/store/database.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";

// The threat: a mail, an SMS or a cache invalidation announced for a write that rolled back (a
// code that was never stored), or one that a flow forgot to hand on after commit. Work that
// must follow a commit is registered on the transaction, which alone decides when it runs.

const lines: Array<{ level: number; msg: string }> = [];
const logger = pino(
  { level: "info" },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  }),
);

let t: TestDatabase;
let db: Database;
beforeAll(async () => {
  t = await createTestDatabase();
  db = await openDatabase({ ...t, logger });
});
afterAll(async () => {
  await db?.close();
  await t?.drop();
});
beforeEach(() => {
  lines.length = 0;
});

class Refused extends Error {}

describe("work registered with afterCommit", () => {
  it("runs once the transaction has committed, in the order registered, and sees what it wrote", async () => {
    const ran: string[] = [];
    const answer = await db.transaction(async (repos) => {
      const org = await repos.organizations.create({ name: "Committed" });
      repos.afterCommit(async () => {
        // Through db.repos: on PGlite this needs the one connection, so the transaction has let it go.
        ran.push(`first saw ${(await db.repos.organizations.get(org.id))?.name}`);
      });
      repos.afterCommit(() => void ran.push("second"));
      await repos.organizations.get(org.id);
      expect(ran).toEqual([]);
      return "answer";
    });
    expect(answer).toBe("answer");
    expect(ran).toEqual(["first saw Committed", "second"]);
  });

  it("never runs when the transaction rolls back, and its write is gone", async () => {
    let ran = false;
    let orgId = "";
    await expect(
      db.transaction(async (repos) => {
        orgId = (await repos.organizations.create({ name: "Rolled back" })).id;
        repos.afterCommit(() => void (ran = true));
        throw new Refused("the flow refuses after writing");
      }),
    ).rejects.toBeInstanceOf(Refused);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toBe(false);
    expect(await db.repos.organizations.get(orgId)).toBeNull();
  });

  it("a task that fails is logged, and neither the caller nor the tasks after it fail", async () => {
    let later = false;
    const answer = await db.transaction(async (repos) => {
      repos.afterCommit(() => {
        throw new Error("the cache is down");
      });
      repos.afterCommit(async () => {
        throw new Error("the webhook is down");
      });
      repos.afterCommit(() => void (later = true));
      return (await repos.organizations.create({ name: "Kept" })).id;
    });
    expect(later).toBe(true);
    expect((await db.repos.organizations.get(answer))?.name).toBe("Kept");
    expect(lines.filter((l) => l.msg === "work after commit failed").map((l) => l.level)).toEqual([50, 50]);
  });

  it("outside a transaction (db.repos) runs at once: each statement has committed already", async () => {
    let ran = false;
    db.repos.afterCommit(() => void (ran = true));
    expect(ran).toBe(true);
  });
});

describe("the outbox hands a message to delivery through afterCommit", () => {
  const outbox = () =>
    createOutbox(loadConfig({}), { db, secrets: createSecretBox(randomBytes(32)), clock: systemClock, logger });
  const kept = (msg: string) => lines.filter((l) => l.msg.startsWith(msg)).length;

  it("a message queued in a transaction that commits is announced after the commit", async () => {
    const { mail, sms } = outbox();
    await db.transaction(async (repos) => {
      await mail.queue(repos, { to: "kept@example.com", subject: "Hello", text: "hello", html: "" });
      await sms.queue(repos, { to: "+14155550100", body: "123456" });
      expect(kept("SMTP_URL is not set") + kept("SMS_WEBHOOK_URL is not set")).toBe(0);
    });
    expect(kept("SMTP_URL is not set")).toBe(1);
    expect(kept("SMS_WEBHOOK_URL is not set")).toBe(1);
  });

  it("a message queued in a transaction that rolls back is neither stored nor announced", async () => {
    const { mail, sms } = outbox();
    const before = (await db.repos.outbox.listPending(1000)).length;
    await expect(
      db.transaction(async (repos) => {
        await mail.queue(repos, { to: "lost@example.com", subject: "Hello", text: "hello", html: "" });
        await sms.queue(repos, { to: "+14155550101", body: "654321" });
        throw new Refused("the code was not stored");
      }),
    ).rejects.toBeInstanceOf(Refused);
    expect((await db.repos.outbox.listPending(1000)).length).toBe(before);
    expect(kept("SMTP_URL is not set") + kept("SMS_WEBHOOK_URL is not set")).toBe(0);
  });
});
