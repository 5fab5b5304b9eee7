import { performance } from "node:perf_hooks";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { Metadata, status as grpcStatus, type ClientReadableStream, type ServiceError } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Health, HealthCheckResponse_ServingStatus as Status } from "../../gen/grpc/health/v1/health_pb.js";
import { onPostgres, startProxiedService } from "../faults/helpers.js";
import { grpcCall, grpcClient, http } from "../helpers/clients.js";
import { eventually } from "../helpers/eventually.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { startTcpProxy } from "../helpers/tcp-proxy.js";

// grpc.health.v1 as load balancers, Kubernetes' gRPC probes and grpc's client-side health
// checking use it: Check answers NOT_FOUND for a service the server does not have (a typo must
// not read as healthy), Watch streams the status and its changes, and a server shutting down
// says NOT_SERVING and ends its watches, so that a balancer stops sending before the port
// closes and a watch does not hold the shutdown for its whole grace.

const API = ["gatehouse.account.v1.AccountService", "gatehouse.auth.v1.AuthService"];

interface Watch {
  statuses: string[];
  /** Resolves with the gRPC status code when the stream ends. */
  ended: Promise<number>;
  cancel(): void;
}

function watch(port: number, service: string): Watch {
  const call: ClientReadableStream<{ status: string }> = grpcClient(port, "health").Watch({ service }, new Metadata());
  const statuses: string[] = [];
  call.on("data", (answer: { status: string }) => statuses.push(answer.status));
  const ended = new Promise<number>((resolve) => {
    call.on("status", (s: { code: number }) => resolve(s.code));
    call.on("error", (e: ServiceError) => resolve(e.code));
  });
  return { statuses, ended, cancel: () => call.cancel() };
}

describe("grpc.health.v1.Health", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await sharedTestServer();
  });
  afterAll(() => server?.stop());

  it("Check: the server and each API service by name are SERVING; an unknown name is NOT_FOUND on gRPC and Connect", async () => {
    for (const service of ["", ...API]) {
      const answer = await grpcCall(grpcClient(server.port, "health"), "Check", { service });
      expect({ service, status: answer.response?.status }).toEqual({ service, status: "SERVING" });
    }
    const unknown = await grpcCall(grpcClient(server.port, "health"), "Check", {
      service: "gatehouse.auth.v1.AuthServic",
    });
    expect(unknown.error?.code).toBe(grpcStatus.NOT_FOUND);
    const viaConnect = await http(`${server.url}/grpc.health.v1.Health/Check`, { body: { service: "nope" } });
    expect({ status: viaConnect.status, code: viaConnect.body?.code }).toEqual({ status: 404, code: "not_found" });
  });

  it("List: every known service with its status", async () => {
    const answer = await grpcCall(grpcClient(server.port, "health"), "List", {});
    expect(answer.error).toBeUndefined();
    expect(
      Object.fromEntries(
        Object.entries(answer.response.statuses as Record<string, { status: string }>).map(([k, v]) => [k, v.status]),
      ),
    ).toEqual({
      "": "SERVING",
      [API[0]]: "SERVING",
      [API[1]]: "SERVING",
    });
  });

  it("Watch sends the status at once and stays open; an unknown service is SERVICE_UNKNOWN and stays open too", async () => {
    const known = watch(server.port, API[1]);
    const unknown = watch(server.port, "nope.v1.Nothing");
    await eventually("first statuses", () => known.statuses.length > 0 && unknown.statuses.length > 0);
    expect(known.statuses).toEqual(["SERVING"]);
    expect(unknown.statuses).toEqual(["SERVICE_UNKNOWN"]);
    // Nothing changed, so nothing more comes, and neither stream ends (two ticks of the watch).
    const early = await Promise.race([
      known.ended,
      unknown.ended,
      new Promise((r) => setTimeout(() => r("open"), 4500)),
    ]);
    expect(early).toBe("open");
    expect(known.statuses).toEqual(["SERVING"]);
    known.cancel();
    unknown.cancel();
    expect(await known.ended).toBe(grpcStatus.CANCELLED);
  });

  it("Watch over the Connect protocol on HTTP/1.1 (a connect-es client)", async () => {
    const client = createClient(Health, createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }));
    const stop = new AbortController();
    const first = await client.watch({ service: "" }, { signal: stop.signal })[Symbol.asyncIterator]().next();
    expect(first.value?.status).toBe(Status.SERVING);
    stop.abort();
  });
});

describe("shutdown", () => {
  it("a watch hears NOT_SERVING, then its stream ends OK, and the server does not wait its grace for it", async () => {
    // The longest grace there is: the stop must come well before it, however busy the machine.
    const grace = 60_000;
    const server = await startTestServer({ SHUTDOWN_GRACE_MS: String(grace) });
    const watches = [watch(server.port, ""), watch(server.port, API[0]), watch(server.port, "nope.v1.Nothing")];
    await eventually("first statuses", () => watches.every((w) => w.statuses.length > 0));
    const started = performance.now();
    await server.stop();
    expect(performance.now() - started).toBeLessThan(grace / 2);
    expect(await Promise.all(watches.map((w) => w.ended))).toEqual([grpcStatus.OK, grpcStatus.OK, grpcStatus.OK]);
    expect(watches.map((w) => w.statuses)).toEqual([
      ["SERVING", "NOT_SERVING"],
      ["SERVING", "NOT_SERVING"],
      ["SERVICE_UNKNOWN"],
    ]);
  });
});

describe.skipIf(!onPostgres)(
  "PostgreSQL unreachable (needs DATABASE_URL: embedded PGlite has no network to cut)",
  () => {
    it("a watch hears NOT_SERVING when the database stops answering and SERVING when it is back", async () => {
      const service = await startProxiedService();
      try {
        const w = watch(service.server.port, "");
        await eventually("SERVING", () => w.statuses[0] === "SERVING");
        service.proxy.refuse();
        await eventually("NOT_SERVING", () => w.statuses.includes("NOT_SERVING"));
        service.proxy.restore();
        await eventually("SERVING again", () => w.statuses.length === 3);
        expect(w.statuses).toEqual(["SERVING", "NOT_SERVING", "SERVING"]);
        w.cancel();
      } finally {
        await service.stop();
      }
    });
  },
);

describe("Redis unreachable (REDIS_URL: the rate limits' store)", () => {
  it("a watch hears NOT_SERVING when Redis stops answering and SERVING when it is back", async () => {
    const proxy = await startTcpProxy({ host: "127.0.0.1", port: 6379 });
    const server = await startTestServer({ REDIS_URL: proxy.urlFor("redis://127.0.0.1:6379") });
    try {
      const w = watch(server.port, "");
      await eventually("SERVING", () => w.statuses[0] === "SERVING");
      proxy.refuse();
      await eventually("NOT_SERVING", () => w.statuses.includes("NOT_SERVING"));
      expect((await http(`${server.url}/healthz`)).body).toEqual({ status: "unavailable", down: ["redis"] });
      proxy.restore();
      await eventually("SERVING again", () => w.statuses.length === 3);
      expect(w.statuses).toEqual(["SERVING", "NOT_SERVING", "SERVING"]);
      w.cancel();
    } finally {
      await server.stop();
      await proxy.close();
    }
  });
});
