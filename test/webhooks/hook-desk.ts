import { afterAll, beforeAll, expect } from "vitest";
import { createTestClock, type TestClock } from "../helpers/clock.js";
import { eventually } from "../helpers/eventually.js";
import { injectHttp } from "../helpers/inject.js";
import { WAIT_GUARD_MS } from "../helpers/patience.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp.js";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.js";
import type { AuthFixture } from "../auth/helpers.js";

// The set-up of the tests of hooks under load (issue 46): the real server on a test clock, with
// the loopback receiver allowed (OUTBOUND_ALLOW_HOSTS) and the hook deadline raised to a hang
// guard, so that a call the test holds is held until the test releases it rather than until
// 2 s pass (whatever the machine's speed, "answered while the hook holds its answer" then means
// exactly that). One receiver serves every project of the file: a project's calls are answered
// by its `answers` entry, at once, or held while the project is held.

export type HookAnswerFor = (body: any) => unknown;

export interface HookDesk {
  readonly server: TestServer;
  readonly clock: TestClock;
  readonly receiver: Receiver;
  /** Only with `{ smtp: true }`: the loopback SMTP sink the server mails to. */
  readonly smtp: SmtpSink;
  /** How a project's hook answers (default: allow, and no claims). */
  answer(projectId: string, answer: HookAnswerFor): void;
  /** From now on the project's calls wait until released. */
  hold(projectId: string): void;
  /** Answers the project's oldest waiting call (it must have one). */
  releaseOne(projectId: string): void;
  /** Answers every waiting call of the project and stops holding it. */
  release(projectId: string): void;
  /** Calls of the project's hooks that reached the receiver (answered or not). */
  calls(projectId: string): any[];
  /** Waits until `count` calls of the project have reached the receiver. */
  waitForCalls(projectId: string, count: number): Promise<void>;
  /** SetHook over REST as the project's admin; the receiver learns the secret. */
  setHook(app: AuthFixture, kind: string, failurePolicy?: "open" | "closed"): Promise<void>;
  /** A query on the server's database. */
  sql(text: string, params?: unknown[]): Promise<any>;
}

export function useHookDesk(options: { env?: Record<string, string>; smtp?: boolean } = {}): HookDesk {
  const clock = createTestClock();
  let server: TestServer | undefined;
  let receiver: Receiver | undefined;
  let smtp: SmtpSink | undefined;
  const answers = new Map<string, HookAnswerFor>();
  const held = new Set<string>();
  const waiting = new Map<string, (() => void)[]>();
  const queue = (projectId: string) => waiting.get(projectId) ?? waiting.set(projectId, []).get(projectId)!;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("useHookDesk: read it in a hook or test");
    return value;
  };

  beforeAll(async () => {
    if (options.smtp) smtp = await startSmtpSink();
    receiver = await startReceiver("/hook");
    receiver.behaviour = {
      kind: "json",
      answer: async (body) => {
        const projectId = String(body.project_id);
        if (held.has(projectId)) await new Promise<void>((resolve) => queue(projectId).push(resolve));
        const answer = answers.get(projectId);
        if (answer) return answer(body);
        return body.type === "before_user_created" ? { decision: "allow" } : { claims: {} };
      },
    };
    server = await startTestServer(
      {
        OUTBOUND_ALLOW_HOSTS: "127.0.0.1/32",
        HOOK_TIMEOUT_MS: String(WAIT_GUARD_MS),
        ...(smtp && { SMTP_URL: smtp.url, MAIL_RETRY_MS: "200" }),
        ...options.env,
      },
      undefined,
      { clock },
    );
  });
  afterAll(async () => {
    for (const projectId of held) desk.release(projectId);
    await server?.stop();
    await receiver?.close();
    await smtp?.close();
  });

  const desk: HookDesk = {
    clock,
    get server() {
      return started(server);
    },
    get receiver() {
      return started(receiver);
    },
    get smtp() {
      return started(smtp);
    },
    answer: (projectId, answer) => void answers.set(projectId, answer),
    hold: (projectId) => void held.add(projectId),
    releaseOne(projectId) {
      const next = queue(projectId).shift();
      if (!next) throw new Error(`no call of ${projectId} is waiting`);
      next();
    },
    release(projectId) {
      held.delete(projectId);
      for (const next of queue(projectId).splice(0)) next();
    },
    calls: (projectId) => started(receiver).received.filter((r) => r.body.project_id === projectId),
    async waitForCalls(projectId, count) {
      await eventually(
        `${count} hook call(s) of ${projectId} at the receiver`,
        () => desk.calls(projectId).length >= count,
      );
    },
    async setHook(app, kind, failurePolicy) {
      const res = await injectHttp(started(server).handle, `/v1/projects/${app.projectId}/hooks/${kind}`, {
        method: "PUT",
        headers: await app.admin(),
        body: { url: started(receiver).url, ...(failurePolicy && { failure_policy: failurePolicy }) },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      if (res.body.secret) started(receiver).secrets.push(res.body.secret);
    },
    sql: (text, params = []) => started(server).deps.db.dataSource.query(text, params),
  };
  return desk;
}

/**
 * How many transactions of the server are open: the server's database is asked, on one of the
 * server's own connections (on PGlite its only one, which an open transaction would hold: the
 * question then waits, and the wait fails after WAIT_GUARD_MS), how many of its sessions are
 * inside a transaction; a test database has no other client than the server.
 */
export async function openTransactions(desk: HookDesk): Promise<number> {
  let answer: { n: number } | { error: unknown } | undefined;
  desk
    .sql(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'`,
    )
    .then(
      (rows: { n: number }[]) => (answer = { n: rows[0]?.n ?? 0 }),
      (error: unknown) => (answer = { error }),
    );
  const settled = await eventually("the server's database answers", () => answer);
  if ("error" in settled) throw settled.error;
  return settled.n;
}

/**
 * While a hook call is held: no transaction of the server stays open. The outbox and webhook
 * workers open short transactions of their own (claiming rows) at any moment, so one seen open
 * is looked at again; the request's own, had it kept one across the call, would stay open until
 * the test answers the call, and this fails after WAIT_GUARD_MS.
 */
export async function expectNoTransactionHeld(desk: HookDesk, what: string): Promise<void> {
  await eventually(`${what}: no transaction of the server open`, async () => (await openTransactions(desk)) === 0);
}
