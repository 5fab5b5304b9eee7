import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { watchLateness } from "../helpers/lateness.js";
import { h2Session, holdHttp1, holdHttp2, type HeldAnswer, type HeldRequest } from "../helpers/held-requests.js";
import { serviceDatabase, spawnService, type ServiceProcess } from "../helpers/process.js";
import { startTcpProxy } from "../helpers/tcp-proxy.js";
import { PRODUCT_DATABASE_TIMEOUT_MS } from "../helpers/patience.js";

// SIGTERM to the service as its own process: what is in flight is answered, what comes later is
// refused, and the exit comes within its bound. Isolated (vitest.config.ts): these hold a child
// process's answers to a bound of time.

describe("graceful shutdown", () => {
  it("SIGTERM stops accepting, finishes the request in flight and exits 0", async () => {
    const { env } = await serviceDatabase();
    const service = await spawnService(env);
    const body = JSON.stringify({ email: "nobody@example.com", password: "some password" });
    const socket = connect(service.port, "127.0.0.1");
    let answer = "";
    socket.on("data", (d: Buffer) => (answer += d.toString()));
    const closed = new Promise((resolve) => socket.once("close", resolve));
    await new Promise((resolve) => socket.once("connect", resolve));
    // Half a request: headers and part of the body, so the request is in flight at SIGTERM.
    socket.write(
      `POST /v1/account/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body.slice(0, 10));
    await new Promise((r) => setTimeout(r, 200));
    const signalled = Date.now();
    const late = watchLateness();
    service.child.kill("SIGTERM");
    // New connections are refused while the old request is still being served.
    await eventually("new connections refused", () => refusesConnections(service.port));
    socket.write(body.slice(10));
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(answer).toContain('"reason":"INVALID_CREDENTIALS"');
    expect(await service.exited).toBe(0);
    expect(Date.now() - signalled, `timers ${late.lateMs()} ms late`).toBeLessThan(late.allowing(10_000));
    expect(service.stdout()).toContain('"msg":"stopped"');
  });
});

// ~50 logins in flight at SIGTERM over HTTP/1.1 (REST and Connect) and HTTP/2 (Connect); each
// from its own client address (TRUSTED_PROXIES), as a load balancer would hand them over.
const LOAD = 50;
const CLUSTER_STARTED = /"port":(\d+)[^\n]*"msg":"cluster started"/;
const onPostgres = Boolean(process.env.DATABASE_URL);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function holdLoad(port: number, count = LOAD): Promise<HeldRequest[]> {
  const sessions = await Promise.all([h2Session(port), h2Session(port)]);
  const held: HeldRequest[] = [];
  for (let i = 0; i < count; i++) {
    const body = JSON.stringify({ email: `load-${i}@example.com`, password: "some password" });
    const from = { "x-forwarded-for": `198.51.100.${i + 1}` };
    held.push(
      i % 5 === 4
        ? holdHttp2(sessions[i % 2], body, from)
        : await holdHttp1(port, i % 2 ? "rest" : "connect", body, from),
    );
  }
  // Let the server route them all and start reading their bodies.
  await sleep(300);
  return held;
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const probe = connect(port, "127.0.0.1");
    probe.once("connect", () => (probe.destroy(), resolve(false)));
    probe.once("error", () => resolve(true));
  });
}

/** SIGTERM to `signalled` with LOAD requests in flight; their bodies complete afterwards. */
async function drainUnderLoad(service: ServiceProcess, port: number) {
  const held = await holdLoad(port);
  const signalled = Date.now();
  service.child.kill("SIGTERM");
  const refused = await eventually("new connections refused", () => refusesConnections(port));
  // The clients finish sending over the next second, while the service drains.
  const answers = await Promise.all(held.map((h, i) => sleep(i * 20).then(() => h.finish())));
  const code = await service.exited;
  return { answers, refused, code, exitMs: Date.now() - signalled };
}

/** The access log's status for each answer, by request id. */
function loggedStatuses(stdout: string, answers: HeldAnswer[]) {
  const lines = stdout
    .split("\n")
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as { request_id: string; status: number; code: string });
  const byId = new Map(lines.map((l) => [l.request_id, l]));
  return answers.map((a) => byId.get(a.requestId ?? "")?.status);
}

function summary(answers: HeldAnswer[]) {
  const failed = answers.filter((a) => a.status === 0 || a.status >= 500).length;
  return { failed, statuses: [...new Set(answers.map((a) => a.status))].sort() };
}

/** SIGTERM to `service` under load: every request answered as logged, none cut off, exit 0. */
async function expectDrainedUnderLoad(service: ServiceProcess, label: string) {
  const { answers, refused, code, exitMs } = await drainUnderLoad(service, service.port);
  expect(refused).toBe(true);
  // An unknown email: 401 INVALID_CREDENTIALS (429 should a limit speak first); never cut off.
  expect(summary(answers)).toMatchObject({ failed: 0 });
  for (const a of answers) expect([401, 429]).toContain(a.status);
  expect(code).toBe(0);
  expect(loggedStatuses(service.stdout(), answers)).toEqual(answers.map((a) => a.status));
  console.log(
    `[shutdown] ${label}: ${answers.length} in flight at SIGTERM, ${summary(answers).failed} failed, statuses ${summary(answers).statuses.join(",")}, exit ${code} after ${exitMs} ms`,
  );
}

describe("graceful shutdown under load", () => {
  it(`SIGTERM with ${LOAD} requests in flight answers every one, refuses new connections and exits 0; the access log has what each client got`, async () => {
    const { env } = await serviceDatabase();
    await expectDrainedUnderLoad(await spawnService({ ...env, TRUSTED_PROXIES: "127.0.0.1" }), "one process");
  });

  it.runIf(onPostgres)(`the same for a cluster primary with WORKERS=2`, async () => {
    const { env } = await serviceDatabase();
    const settings = { ...env, TRUSTED_PROXIES: "127.0.0.1", WORKERS: "2" };
    await expectDrainedUnderLoad(await spawnService(settings, CLUSTER_STARTED), "cluster of 2");
  });

  it.runIf(onPostgres)(
    "during a database partition: in-flight requests answer 503, and the exit comes within the documented bound",
    async () => {
      const { db, env } = await serviceDatabase();
      const target = new URL(db.databaseUrl!);
      const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      try {
        const grace = 3000;
        const service = await spawnService({
          ...env,
          DATABASE_URL: proxy.urlFor(db.databaseUrl!),
          TRUSTED_PROXIES: "127.0.0.1",
          SHUTDOWN_GRACE_MS: String(grace),
          DATABASE_TIMEOUT_MS: PRODUCT_DATABASE_TIMEOUT_MS,
        });
        const held = await holdLoad(service.port, 20);
        proxy.blackhole();
        const late = watchLateness();
        const signalled = Date.now();
        service.child.kill("SIGTERM");
        const answers = await Promise.all(held.map((h) => h.finish()));
        const code = await service.exited;
        const exitMs = Date.now() - signalled;
        // shutdownBoundMs: grace + 2 s for a delivery in flight + DATABASE_TIMEOUT_MS + 0.5 s.
        const bound = grace + 2000 + 1000 + 500;
        expect(answers.map((a) => a.status)).toEqual(answers.map(() => 503));
        expect(code).toBe(0);
        // The service's timers enforce the bound; they run as late as this process's (lateness.ts).
        const lateMs = late.stop();
        expect(exitMs, `timers ${lateMs} ms late`).toBeLessThan(bound + lateMs);
        expect(loggedStatuses(service.stdout(), answers)).toEqual(answers.map((a) => a.status));
        console.log(
          `[shutdown] partition: ${answers.length} in flight answered ${summary(answers).statuses.join(",")}, exit ${code} after ${exitMs} ms (bound ${bound} ms, timers up to ${late.lateMs()} ms late)`,
        );
      } finally {
        await proxy.close();
      }
    },
  );

  it("a request still unfinished when the grace runs out is cut off, and logged as aborted, not as an answer", async () => {
    const { env } = await serviceDatabase();
    const service = await spawnService({ ...env, SHUTDOWN_GRACE_MS: "500" });
    const [stuck] = await holdLoad(service.port, 1);
    service.child.kill("SIGTERM");
    const got = await stuck.answer;
    expect(got.status).toBe(0);
    expect(await service.exited).toBe(0);
    const lines = service
      .stdout()
      .split("\n")
      .filter((line) => line.includes('"msg":"request"'))
      .map((line) => JSON.parse(line));
    expect(lines.map((l) => [l.method, l.code, l.status])).toEqual([
      ["gatehouse.account.v1.AccountService/Login", "aborted", 0],
    ]);
  });
});
