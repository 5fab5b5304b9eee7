import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authFixture } from "./auth/helpers.js";
import { grpcCall, grpcClient, http } from "./helpers/clients.js";
import { startTestServer, type TestServer } from "./helpers/server.js";
import { sharedTestServer } from "./helpers/shared-server.js";

describe("health", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await sharedTestServer();
  });
  afterAll(() => server?.stop());

  it("GET /healthz answers 200 once the database answers", async () => {
    const res = await http(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
    expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
  });

  it("grpc.health.v1.Health/Check answers SERVING over gRPC", async () => {
    const answer = await grpcCall(grpcClient(server.port, "health"), "Check", { service: "" });
    expect(answer.error).toBeUndefined();
    expect(answer.response.status).toBe("SERVING");
  });

  it("grpc.health.v1.Health/Check answers over Connect JSON too", async () => {
    const res = await http(`${server.url}/grpc.health.v1.Health/Check`, { body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "SERVING" });
  });
});

// Threat: with REDIS_URL set, Redis holds the rate-limit counts and the limits fail closed, so
// while it is unreachable every sign-in, send and signup answers 503; a readiness probe that
// asked the database only kept sending traffic to such an instance.
describe("health with the rate limits in Redis (REDIS_URL)", () => {
  const servers: { up?: TestServer; down?: TestServer } = {};
  beforeAll(async () => {
    servers.up = await startTestServer({ REDIS_URL: "redis://127.0.0.1:6379" });
    // Nothing listens on port 1: every connection is refused.
    servers.down = await startTestServer({ REDIS_URL: "redis://127.0.0.1:1" });
  });
  afterAll(async () => {
    await servers.up?.stop();
    await servers.down?.stop();
  });

  it("Redis unreachable: /healthz is 503 naming it, Check is NOT_SERVING on gRPC and Connect, as a signup is 503", async () => {
    const server = servers.down!;
    const res = await http(`${server.url}/healthz`);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: "unavailable", down: ["redis"] });
    const answer = await grpcCall(grpcClient(server.port, "health"), "Check", { service: "" });
    expect(answer.response?.status).toBe("NOT_SERVING");
    expect((await http(`${server.url}/grpc.health.v1.Health/Check`, { body: {} })).body).toEqual({
      status: "NOT_SERVING",
    });
    const app = await authFixture(server);
    const signup = await app.call("POST", "/v1/auth/signup", {
      email: `nope-${Date.now()}@example.com`,
      password: "a sturdy passphrase 1",
    });
    expect({ status: signup.status, reason: signup.body?.reason }).toEqual({
      status: 503,
      reason: "SERVICE_UNAVAILABLE",
    });
  });

  it("Redis answering: /healthz is 200 ok and Check is SERVING", async () => {
    const server = servers.up!;
    const res = await http(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
    const answer = await grpcCall(grpcClient(server.port, "health"), "Check", { service: "" });
    expect(answer.response?.status).toBe("SERVING");
  });
});
