import { readdir, readFile, stat } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import { startCommand } from "../bench/start-command.js";
import { afterEach, describe, expect, it } from "vitest";
import { http } from "./helpers/clients.js";
import { eventually } from "./helpers/eventually.js";
import { watchLateness } from "./helpers/lateness.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";
import { h2Session, holdHttp1, holdHttp2, type HeldAnswer, type HeldRequest } from "./helpers/held-requests.js";
import { runNode, spawnService, type ServiceProcess } from "./helpers/process.js";
import { serviceBuild } from "./helpers/service-build.js";
import { startTestServer } from "./helpers/server.js";
import { startTcpProxy } from "./helpers/tcp-proxy.js";
import { longTest, PRODUCT_DATABASE_TIMEOUT_MS } from "./helpers/patience.js";

// The service as an operator runs it: its own process, configured by the environment.

const databases: TestDatabase[] = [];
async function freshDatabase() {
  const db = await createTestDatabase();
  databases.push(db);
  return { db, env: { DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl, PORT: "0", HOST: "127.0.0.1" } };
}
afterEach(async () => {
  await Promise.all(databases.splice(0).map((db) => db.drop()));
});

describe("start-up configuration", () => {
  it.each([
    ["PORT", "eighty", 'PORT must be an integer from 0 to 65535 (got "eighty")'],
    [
      "DATABASE_URL",
      "mysql://localhost/db",
      "DATABASE_URL must be a URL starting with postgres: or postgresql:// (got mysql://…)",
    ],
    ["GATEHOUSE_SECRET", "too-short", "GATEHOUSE_SECRET must be 32 bytes as 64 hex characters or base64"],
    ["LOG_LEVEL", "loud", "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent"],
    [
      "TRUSTED_PROXIES",
      "10.0.0.1,proxy.local",
      'TRUSTED_PROXIES must be a comma-separated list of IP addresses (got "proxy.local")',
    ],
    ["THREADPOOL_NICE", "-5", 'THREADPOOL_NICE must be an integer from 0 to 19 (got "-5")'],
  ])("a bad %s stops the service with one line naming it", async (name, value, message) => {
    const result = await runNode(["src/main.ts"], { [name]: value, DATA_DIR: "/nonexistent" });
    expect(result.code).toBe(78);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`gatehouse: invalid configuration: ${message}`);
  });

  it("production refuses to start without GATEHOUSE_SECRET", async () => {
    const result = await runNode(["src/main.ts"], { NODE_ENV: "production" });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain("GATEHOUSE_SECRET is required when NODE_ENV=production");
  });
});

describe("npm start", () => {
  // The libuv pool is sized for the argon2 gate (ARGON2_MAX_IN_FLIGHT + 4) by a preload, since
  // an ES module entry point is loaded through the pool before its first line runs.
  it(
    "runs the build with the pool sized and lowered before anything used it; without the preload it stays at libuv's 4",
    async () => {
      const build = serviceBuild();
      const start = startCommand(build);
      const { env } = await freshDatabase();
      const settings = { ...env, ...start.env, ARGON2_MAX_IN_FLIGHT: "3" };
      const run = async (args: string[]) => {
        const service = await spawnService(settings, undefined, args, { cwd: build });
        const pid = service.child.pid!;
        // Field 19 of /proc/<pid>/task/<tid>/stat is the thread's nice value.
        const niceOf = async (tid: string) =>
          Number((await readFile(`/proc/${pid}/task/${tid}/stat`, "utf8")).split(") ")[1].split(" ")[16]);
        const nices = await Promise.all((await readdir(`/proc/${pid}/task`)).map(niceOf));
        const eventLoop = await niceOf(String(pid));
        service.child.kill("SIGTERM");
        expect(await service.exited).toBe(0);
        const listening = service
          .stdout()
          .split("\n")
          .find((line) => line.includes('"msg":"gatehouse listening"'))!;
        const { threadpool, threadpool_nice } = JSON.parse(listening) as {
          threadpool: number;
          threadpool_nice: number;
        };
        return { threadpool, threadpool_nice, lowered: nices.filter((n) => n === 4).length, eventLoop };
      };
      expect(await run([...start.nodeArgs, start.script])).toEqual({
        threadpool: 7,
        threadpool_nice: 4,
        lowered: 7,
        eventLoop: 0,
      });
      expect(await run([start.script])).toEqual({ threadpool: 4, threadpool_nice: 0, lowered: 0, eventLoop: 0 });
    },
    longTest(2),
  );
});

describe("graceful shutdown", () => {
  it("SIGTERM stops accepting, finishes the request in flight and exits 0", async () => {
    const { env } = await freshDatabase();
    const service = await spawnService(env);
    const body = JSON.stringify({ email: "nobody@example.com", password: "some password" });
    const socket = connect(service.port, "127.0.0.1");
    let answer = "";
    socket.on("data", (d) => (answer += d));
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

describe("graceful shutdown under load", () => {
  it(`SIGTERM with ${LOAD} requests in flight answers every one, refuses new connections and exits 0; the access log has what each client got`, async () => {
    const { env } = await freshDatabase();
    const service = await spawnService({ ...env, TRUSTED_PROXIES: "127.0.0.1" });
    const { answers, refused, code, exitMs } = await drainUnderLoad(service, service.port);
    expect(refused).toBe(true);
    // An unknown email: 401 INVALID_CREDENTIALS (429 should a limit speak first); never cut off.
    expect(summary(answers)).toMatchObject({ failed: 0 });
    for (const a of answers) expect([401, 429]).toContain(a.status);
    expect(code).toBe(0);
    expect(loggedStatuses(service.stdout(), answers)).toEqual(answers.map((a) => a.status));
    console.log(
      `[shutdown] one process: ${answers.length} in flight at SIGTERM, ${summary(answers).failed} failed, statuses ${summary(answers).statuses}, exit ${code} after ${exitMs} ms`,
    );
  });

  it.runIf(onPostgres)(`the same for a cluster primary with WORKERS=2`, async () => {
    const { env } = await freshDatabase();
    const service = await spawnService({ ...env, TRUSTED_PROXIES: "127.0.0.1", WORKERS: "2" }, CLUSTER_STARTED);
    const { answers, refused, code, exitMs } = await drainUnderLoad(service, service.port);
    expect(refused).toBe(true);
    expect(summary(answers)).toMatchObject({ failed: 0 });
    for (const a of answers) expect([401, 429]).toContain(a.status);
    expect(code).toBe(0);
    expect(loggedStatuses(service.stdout(), answers)).toEqual(answers.map((a) => a.status));
    console.log(
      `[shutdown] cluster of 2: ${answers.length} in flight, ${summary(answers).failed} failed, statuses ${summary(answers).statuses}, exit ${code} after ${exitMs} ms`,
    );
  });

  it.runIf(onPostgres)(
    "during a database partition: in-flight requests answer 503, and the exit comes within the documented bound",
    async () => {
      const { db, env } = await freshDatabase();
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
          `[shutdown] partition: ${answers.length} in flight answered ${summary(answers).statuses}, exit ${code} after ${exitMs} ms (bound ${bound} ms, timers up to ${late.lateMs()} ms late)`,
        );
      } finally {
        await proxy.close();
      }
    },
  );

  it("a request still unfinished when the grace runs out is cut off, and logged as aborted, not as an answer", async () => {
    const { env } = await freshDatabase();
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

describe("logs", () => {
  it("one JSON line per request, never a password or token", async () => {
    const { env } = await freshDatabase();
    const service = await spawnService({
      ...env,
      GATEHOUSE_BOOTSTRAP_EMAIL: "owner@example.com",
      GATEHOUSE_BOOTSTRAP_PASSWORD: "bootstrap-password-42",
    });
    const base = `http://127.0.0.1:${service.port}`;
    const ok = await http(`${base}/v1/account/login`, {
      body: { email: "owner@example.com", password: "bootstrap-password-42" },
    });
    expect(ok.status).toBe(200);
    const token = ok.body.management_token as string;
    await http(`${base}/v1/projects?cursor=secret-cursor`, { headers: { authorization: `Bearer ${token}` } });
    await http(`${base}/v1/auth/login`, {
      body: { email: "x@example.com", password: "hunter2-hunter2" },
      headers: { "x-service-key": "gk_leaky_key" },
    });
    service.child.kill("SIGTERM");
    await service.exited;
    const out = service.stdout();
    for (const secret of ["bootstrap-password-42", token, "hunter2-hunter2", "gk_leaky_key", "secret-cursor"]) {
      expect(out).not.toContain(secret);
    }
    const requests = out
      .split("\n")
      .filter((line) => line.includes('"msg":"request"'))
      .map((line) => JSON.parse(line));
    expect(requests.map((r) => [r.method, r.protocol, r.code])).toEqual([
      ["gatehouse.account.v1.AccountService/Login", "rest", "ok"],
      ["gatehouse.account.v1.AccountService/ListProjects", "rest", "invalid_argument"],
      ["gatehouse.auth.v1.AuthService/Login", "rest", "unauthenticated"],
    ]);
    for (const line of requests) {
      expect(line.request_id).toMatch(/^req_/);
      expect(typeof line.duration_ms).toBe("number");
    }
  });
});

describe("bootstrap, CLI and persistence", () => {
  it("the CLI creates an organization; the data survives a restart", async () => {
    const { db, env } = await freshDatabase();
    const cli = await runNode(
      ["src/cli.ts", "org", "create", "--name", "Acme", "--email", "ops@acme.test", "--password", "cli-password-1"],
      env,
    );
    expect(cli.stderr).toBe("");
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(
      /^created organization org_[0-9a-z]{26} \(Acme\) with admin mem_[0-9a-z]{26} <ops@acme\.test>/,
    );

    const again = await runNode(
      ["src/cli.ts", "org", "create", "--name", "Acme", "--email", "OPS@acme.test", "--password", "cli-password-1"],
      env,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("a member with this email already exists");

    const bad = await runNode(["src/cli.ts", "org", "create", "--name", "Acme", "--email", "nope"], env);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain("--email must be an email address");

    for (let start = 0; start < 2; start++) {
      const server = await startTestServer({}, db);
      const login = await http(`${server.url}/v1/account/login`, {
        body: { email: "ops@acme.test", password: "cli-password-1" },
      });
      await server.close();
      expect(login.status).toBe(200);
    }
  });

  it("bootstrap variables create the first organization once", async () => {
    const { db } = await freshDatabase();
    const bootstrap = {
      GATEHOUSE_BOOTSTRAP_EMAIL: "first@example.com",
      GATEHOUSE_BOOTSTRAP_PASSWORD: "first-password",
      GATEHOUSE_BOOTSTRAP_ORG: "First",
    };
    for (let start = 0; start < 2; start++) {
      const server = await startTestServer(bootstrap, db);
      const count = await server.deps.db.dataSource.query(
        "SELECT count(*)::int AS n FROM organizations WHERE name = 'First'",
      );
      const login = await http(`${server.url}/v1/account/login`, {
        body: { email: "first@example.com", password: "first-password" },
      });
      await server.close();
      expect(count[0].n).toBe(1);
      expect(login.status).toBe(200);
    }
  });

  it("without GATEHOUSE_SECRET a key is generated once and kept in the data folder", async () => {
    const { db } = await freshDatabase();
    const first = await startTestServer({}, db);
    await first.close();
    const path = join(db.dataDir, "secret.key");
    const key = await readFile(path, "utf8");
    expect(key.trim()).toMatch(/^[0-9a-f]{64}$/);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const second = await startTestServer({}, db);
    await second.close();
    expect(await readFile(path, "utf8")).toBe(key);
  });
});
