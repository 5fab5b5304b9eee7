// Issue 46: at SIGTERM the listener closed at once, and the kernel reset the connections still in
// its backlog (21–23 of 50 requests on fresh connections). SHUTDOWN_DELAY_MS keeps the port
// accepting and answering, with readiness failing, for that long before the drain. Quiet group
// (vitest.config.ts): it holds a child process's answers to a bound of time.
import { request } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { grpcCall, grpcClient } from "../helpers/clients.js";
import { eventually } from "../helpers/eventually.js";
import { watchLateness } from "../helpers/lateness.js";
import { serviceDatabase, spawnService, type ServiceProcess } from "../helpers/process.js";

const LOAD = 50;
/** Between one request's connection and the next: the 25 after the signal go out within about half a second. */
const SPACING_MS = 20;
/**
 * The delay under test: far longer than the half second the requests after SIGTERM take to go
 * out, so that a busy machine's lateness does not make them miss it.
 */
const DELAY_MS = 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const services: ServiceProcess[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) {
    if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill("SIGKILL");
    await service.exited;
  }
});

async function start(env: Record<string, string> = {}): Promise<ServiceProcess> {
  const { env: database } = await serviceDatabase();
  const service = await spawnService({ ...database, TRUSTED_PROXIES: "127.0.0.1", ...env });
  services.push(service);
  return service;
}

interface Outcome {
  status: number;
  /** How it failed: the socket error's code (ECONNREFUSED, ECONNRESET). */
  failure?: string;
  body?: string;
}

/** One request on a connection of its own (no agent: a new TCP connection each time). */
function fresh(port: number, path: string, body?: unknown, from?: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: text === undefined ? "GET" : "POST",
        agent: false,
        headers: {
          ...(text !== undefined && { "content-type": "application/json", "content-length": Buffer.byteLength(text) }),
          ...(from !== undefined && { "x-forwarded-for": from }),
        },
      },
      (res) => {
        let answer = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (answer += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: answer }));
        res.on("error", (error: NodeJS.ErrnoException) => resolve({ status: 0, failure: error.code ?? error.message }));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ status: 0, failure: error.code ?? error.message }));
    req.end(text);
  });
}

/** A sign-in with a wrong password from its own client address: answered 401 (or 429). */
function login(port: number, i: number): Promise<Outcome> {
  return fresh(
    port,
    "/v1/account/login",
    { email: `delay-${i}@example.com`, password: "some password" },
    `198.51.100.${i + 1}`,
  );
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const probe = connect(port, "127.0.0.1");
    probe.once("connect", () => (probe.destroy(), resolve(false)));
    probe.once("error", () => resolve(true));
  });
}

/** Half of LOAD sign-ins before the signal, half after, each on a fresh connection SPACING_MS apart. */
async function acrossSignal(service: ServiceProcess, signal: () => void) {
  const answers: Array<Promise<Outcome>> = [];
  let signalled = 0;
  let lastSentMs = 0;
  for (let i = 0; i < LOAD; i++) {
    if (i === LOAD / 2) {
      signalled = Date.now();
      signal();
    }
    answers.push(login(service.port, i));
    if (i >= LOAD / 2) lastSentMs = Date.now() - signalled;
    await sleep(SPACING_MS);
  }
  // Their answers are awaited by the caller: the sign-ins may still be hashing.
  return { outcomes: Promise.all(answers), signalled, lastSentMs };
}

describe("SHUTDOWN_DELAY_MS", () => {
  it(`with a delay, ${LOAD} sign-ins on fresh connections across SIGTERM are all answered; readiness fails at once`, async () => {
    const service = await start({ SHUTDOWN_DELAY_MS: String(DELAY_MS) });
    const late = watchLateness();
    const health = grpcClient(service.port, "health");
    try {
      const sent = await acrossSignal(service, () => service.child.kill("SIGTERM"));
      const { signalled, lastSentMs } = sent;
      // Still during the delay: out of rotation, on both probes, while the port answers them.
      const [ready, grpcReady] = await Promise.all([
        fresh(service.port, "/healthz"),
        grpcCall(health, "Check", { service: "" }),
      ]);
      const probedMs = Date.now() - signalled;
      // The property holds only for what was sent within the delay (a test timer far too late could miss it).
      expect(Math.max(lastSentMs, probedMs), `timers ${late.lateMs()} ms late`).toBeLessThan(DELAY_MS);
      const outcomes = await sent.outcomes;
      expect(outcomes.filter((o) => o.status === 0)).toEqual([]);
      for (const o of outcomes) expect([401, 429]).toContain(o.status);
      expect({ status: ready.status, body: JSON.parse(ready.body!) }).toEqual({
        status: 503,
        body: { status: "stopping" },
      });
      expect(grpcReady.response).toEqual({ status: "NOT_SERVING" });

      // Then the drain, as without a delay: new connections refused, exit 0. Not before the delay.
      await eventually("new connections refused", () => refusesConnections(service.port));
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(DELAY_MS);
      expect(await service.exited).toBe(0);
      const log = service.stdout();
      const order = ['"msg":"shutting down"', '"msg":"draining"', '"msg":"stopped"'].map((m) => log.indexOf(m));
      expect(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]))).toBe(true);
      expect(log).toContain(`"signal":"SIGTERM","delay_ms":${DELAY_MS},"msg":"shutting down"`);
      console.log(
        `[shutdown delay] ${outcomes.filter((o) => o.status > 0).length} of ${LOAD} fresh-connection sign-ins answered across SIGTERM (${LOAD / 2} sent after it, the last ${lastSentMs} ms after), readiness 503 at ${probedMs} ms, timers up to ${late.lateMs()} ms late`,
      );
    } finally {
      health.close();
      late.stop();
    }
  });

  it("without it (the default 0), SIGTERM closes the listener at once, as before", async () => {
    const service = await start();
    const before = await Promise.all(Array.from({ length: LOAD / 2 }, (_, i) => login(service.port, i)));
    service.child.kill("SIGTERM");
    await eventually("new connections refused", () => refusesConnections(service.port));
    const after = await Promise.all(Array.from({ length: LOAD / 2 }, (_, i) => login(service.port, LOAD / 2 + i)));
    expect(before.filter((o) => o.status === 0)).toEqual([]);
    expect(after.map((o) => o.failure)).toEqual(Array(LOAD / 2).fill("ECONNREFUSED"));
    expect(await service.exited).toBe(0);
    expect(service.stdout()).not.toContain('"msg":"draining"');
  });
});
