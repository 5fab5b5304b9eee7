import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { http } from "./helpers/clients.js";
import { eventually } from "./helpers/eventually.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";
import { runNode, spawnService, type ServiceProcess } from "./helpers/process.js";

// WORKERS=N: a primary forks N processes sharing the port (PostgreSQL only).

const CLUSTER_STARTED = /"port":(\d+)[^\n]*"msg":"cluster started"/;
const onPostgres = Boolean(process.env.DATABASE_URL);

const databases: TestDatabase[] = [];
const services: ServiceProcess[] = [];

async function freshDatabase() {
  const db = await createTestDatabase();
  databases.push(db);
  return { db, env: { DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl, PORT: "0", HOST: "127.0.0.1" } };
}

async function spawn(env: Record<string, string | undefined>, ready?: RegExp) {
  const service = await spawnService(env, ready);
  services.push(service);
  return service;
}

afterEach(async () => {
  for (const service of services.splice(0)) {
    const pids = workerPids(service);
    if (service.child.exitCode === null && service.child.signalCode === null) {
      service.child.kill("SIGTERM");
      if ((await within(service.exited, 15_000)) === "timeout") service.child.kill("SIGKILL");
    }
    for (const pid of pids) if (alive(pid)) process.kill(pid, "SIGKILL");
  }
  await Promise.all(databases.splice(0).map((db) => db.drop()));
});

function listeningLines(service: ServiceProcess) {
  return service
    .stdout()
    .split("\n")
    .filter((line) => line.includes('"msg":"gatehouse listening"'))
    .map((line) => JSON.parse(line) as { pid: number; port: number; worker: number; threadpool: number });
}

function workerPids(service: ServiceProcess): number[] {
  return listeningLines(service).map((line) => line.pid);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function within<T>(promise: Promise<T>, ms: number): Promise<T | "timeout"> {
  return Promise.race([promise, new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), ms).unref())]);
}

/** A fresh connection per request, so the requests are spread over the workers. */
async function healthz(port: number) {
  const response = await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { connection: "close" } });
  return { status: response.status, body: await response.json() };
}

describe("WORKERS on PostgreSQL", () => {
  it.runIf(onPostgres)("two workers share the port, bootstrap once and all stop on SIGTERM", async () => {
    const { db, env } = await freshDatabase();
    const service = await spawn(
      {
        ...env,
        WORKERS: "2",
        GATEHOUSE_BOOTSTRAP_EMAIL: "owner@example.com",
        GATEHOUSE_BOOTSTRAP_PASSWORD: "bootstrap-password-42",
      },
      CLUSTER_STARTED,
    );
    const started = service
      .stdout()
      .split("\n")
      .find((line) => line.includes('"msg":"cluster started"'))!;
    expect(JSON.parse(started)).toMatchObject({ workers: 2, port: service.port });
    // The primary learns a worker listens as the worker writes its own line: the two pipes may
    // deliver in either order, so the second worker's line can come just after "cluster started".
    await eventually("both workers' listening lines", () => listeningLines(service).length === 2);
    const listening = listeningLines(service);
    expect(listening).toHaveLength(2);
    expect(new Set(listening.map((line) => line.pid)).size).toBe(2);
    expect(new Set(listening.map((line) => line.worker)).size).toBe(2);
    for (const line of listening) {
      expect(line.port).toBe(service.port);
      expect(line.threadpool).toBeGreaterThanOrEqual(5);
    }

    for (let i = 0; i < 20; i++) expect(await healthz(service.port)).toEqual({ status: 200, body: { status: "ok" } });

    const login = await http(`http://127.0.0.1:${service.port}/v1/account/login`, {
      body: { email: "owner@example.com", password: "bootstrap-password-42" },
    });
    expect(login.status).toBe(200);
    const client = new pg.Client({ connectionString: db.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query("SELECT count(*)::int AS n FROM organizations");
      expect(rows[0].n).toBe(1);
    } finally {
      await client.end();
    }

    service.child.kill("SIGTERM");
    expect(await within(service.exited, 15_000)).toBe(0);
    for (const line of listening) expect(alive(line.pid)).toBe(false);
  });

  it.runIf(onPostgres)("a worker killed with SIGKILL is replaced", async () => {
    const { env } = await freshDatabase();
    const service = await spawn({ ...env, WORKERS: "2" }, CLUSTER_STARTED);
    const [victim, survivor] = workerPids(service);
    process.kill(victim, "SIGKILL");
    await eventually("a replacement worker", () => listeningLines(service).length === 3);
    const replacement = listeningLines(service)[2].pid;
    expect([victim, survivor]).not.toContain(replacement);
    expect(service.stdout()).toMatch(
      new RegExp(`"pid":${victim},"code":null,"signal":"SIGKILL","msg":"worker died; starting a replacement"`),
    );
    for (let i = 0; i < 5; i++) expect((await healthz(service.port)).status).toBe(200);
  });
});

describe("WORKERS on PGlite", () => {
  it.runIf(!onPostgres)("is ignored with a warning: one process serves", async () => {
    const { env } = await freshDatabase();
    const service = await spawn({ ...env, WORKERS: "2" });
    const warning = service
      .stdout()
      .split("\n")
      .find((line) => line.includes("WORKERS ignored"));
    expect(warning).toBeDefined();
    expect(JSON.parse(warning!)).toMatchObject({ level: 40, workers: 2 });
    expect(warning).toContain("PGlite is single-process");
    expect(await healthz(service.port)).toEqual({ status: 200, body: { status: "ok" } });
    service.child.kill("SIGTERM");
    expect(await within(service.exited, 15_000)).toBe(0);
    expect(listeningLines(service)).toHaveLength(1);
    expect(service.stdout()).not.toContain("cluster started");
  });
});

describe("WORKERS configuration", () => {
  it.each([
    ["0", 'WORKERS must be an integer from 1 to 64 or "auto" (got "0")'],
    ["lots", 'WORKERS must be an integer from 1 to 64 or "auto" (got "lots")'],
  ])("WORKERS=%s stops the service with one line naming it", async (value, message) => {
    const result = await runNode(["src/main.ts"], { WORKERS: value, DATA_DIR: "/nonexistent" });
    expect(result.code).toBe(78);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(`gatehouse: invalid configuration: ${message}`);
  });
});
