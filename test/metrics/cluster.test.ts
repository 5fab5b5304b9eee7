import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { eventually } from "../helpers/eventually.js";
import { spawnService, type ServiceProcess } from "../helpers/process.js";
import { WAIT_GUARD_MS } from "../helpers/patience.js";
import { checkMetrics, promtoolSkipReason } from "./promtool.js";
import { scrape } from "./scrape.js";

// The service as its own process (src/main.ts): one process, and a cluster whose scrape, on
// whichever worker it lands, adds up every worker's numbers (src/metrics/cluster.ts).

const CLUSTER_STARTED = /"port":(\d+)[^\n]*"msg":"cluster started"/;
const VERIFY = "gatehouse.auth.v1.AuthService/VerifyToken";
const onPostgres = Boolean(process.env.DATABASE_URL);
/** Why promtool is not here (outside CI only); the lint of each scrape below is then left out. */
const noPromtool = promtoolSkipReason();

/** What Prometheus's linter says of a scrape: nothing (promtool.test.ts checks it can say something). */
async function expectLintClean(text: string) {
  if (noPromtool) return;
  const check = await checkMetrics(text, WAIT_GUARD_MS);
  expect(check.output).toBe("");
  expect(check.code).toBe(0);
}

const databases: TestDatabase[] = [];
const services: ServiceProcess[] = [];

afterEach(async () => {
  for (const service of services.splice(0)) {
    if (service.child.exitCode === null && service.child.signalCode === null) {
      service.child.kill("SIGTERM");
      const stopped = await Promise.race([
        service.exited,
        new Promise((r) => setTimeout(() => r("timeout"), 15_000).unref()),
      ]);
      if (stopped === "timeout") service.child.kill("SIGKILL");
    }
  }
  await Promise.all(databases.splice(0).map((db) => db.drop()));
});

async function start(env: Record<string, string>, ready?: RegExp) {
  const db = await createTestDatabase();
  databases.push(db);
  const service = await spawnService(
    { DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl, PORT: "0", HOST: "127.0.0.1", ...env },
    ready,
  );
  services.push(service);
  return { service, url: `http://127.0.0.1:${service.port}` };
}

/** Requests on fresh connections, so a cluster spreads them over its workers. */
async function unauthenticatedVerifies(url: string, count: number) {
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${url}/v1/auth/token/verify`, {
      method: "POST",
      headers: { "content-type": "application/json", connection: "close" },
      body: "{}",
    });
    expect(res.status).toBe(401);
    await res.arrayBuffer();
  }
}

describe("GET /metrics of the service process", () => {
  it("one process answers its own numbers", async () => {
    const { url } = await start({});
    await unauthenticatedVerifies(url, 4);
    const res = await scrape(url);
    expect(res.status).toBe(200);
    expect(res.value("gatehouse_processes")).toBe(1);
    expect(res.value("gatehouse_requests_total", { rpc: VERIFY, protocol: "rest", code: "unauthenticated" })).toBe(4);
    await expectLintClean(res.text);
  });

  it.runIf(onPostgres)("WORKERS=2: every scrape, on either worker, adds up both workers' requests", async () => {
    const { service, url } = await start({ WORKERS: "2", METRICS_TOKEN: "cluster-token" }, CLUSTER_STARTED);
    const pids = () =>
      new Set([...service.stdout().matchAll(/"pid":(\d+)[^\n]*"msg":"gatehouse listening"/g)].map((m) => m[1]));
    await eventually("both workers listening", () => pids().size === 2);
    await unauthenticatedVerifies(url, 20);
    // The workers take connections in turn, so the scrapes land on both.
    for (let i = 0; i < 4; i++) {
      const res = await scrape(url, { authorization: "Bearer cluster-token" });
      expect(res.status).toBe(200);
      expect(res.value("gatehouse_processes")).toBe(2);
      expect(res.value("gatehouse_requests_total", { rpc: VERIFY, protocol: "rest", code: "unauthenticated" })).toBe(
        20,
      );
      expect(res.value("gatehouse_request_duration_seconds_count", { rpc: VERIFY, protocol: "rest" })).toBe(20);
      // prom-client's aggregate of the workers' registries is as clean as one registry.
      await expectLintClean(res.text);
    }
    // The guard holds on every worker.
    for (let i = 0; i < 2; i++) expect((await scrape(url)).status).toBe(401);
  });
});
