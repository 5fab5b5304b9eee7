import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { connect, grpcCall, grpcClient, http } from "../helpers/clients.js";
import { createTestClock } from "../helpers/clock.js";
import { eventually } from "../helpers/eventually.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { scrape } from "./scrape.js";

// GET /metrics of one process, scraped over the wire and read as Prometheus reads it.

const VERIFY = "gatehouse.auth.v1.AuthService/VerifyToken";
const SIGNUP = "gatehouse.auth.v1.AuthService/Signup";

const clock = createTestClock();
let server: TestServer;
let auth: AuthFixture;

beforeAll(async () => {
  server = await startTestServer({}, undefined, { clock });
  auth = await authFixture(server);
});
afterAll(async () => server?.stop());

describe("GET /metrics", () => {
  it("answers the text format to anyone when METRICS_TOKEN is not set, never cached", async () => {
    const res = await scrape(server.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.text).toContain("# TYPE gatehouse_requests_total counter");
    expect(res.value("gatehouse_processes")).toBe(1);
    // Node's process metrics (collectDefaultMetrics).
    expect(res.value("process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(res.value("process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(res.samples.some((s) => s.name === "nodejs_eventloop_lag_seconds")).toBe(true);
  });

  it("counts requests by RPC, protocol and code, with their latency", async () => {
    const before = await scrape(server.url);
    for (let i = 0; i < 3; i++)
      expect((await http(`${server.url}/v1/auth/token/verify`, { body: { token: "x" } })).status).toBe(401);
    expect(
      (await connect(server.url, "auth", "VerifyToken", { token: "x" }, { "x-service-key": auth.key })).status,
    ).toBe(200);
    const grpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "VerifyToken",
      { token: "x" },
      { "x-service-key": auth.key },
    );
    expect(grpc.response).toMatchObject({ valid: false });
    expect((await http(`${server.url}/healthz`)).status).toBe(200);
    expect((await http(`${server.url}/v1/auth/users/usr_someone/nowhere`)).status).toBe(404);
    const after = await scrape(server.url);

    const delta = (name: string, labels: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);
    expect(delta("gatehouse_requests_total", { rpc: VERIFY, protocol: "rest", code: "unauthenticated" })).toBe(3);
    expect(delta("gatehouse_requests_total", { rpc: VERIFY, protocol: "connect", code: "ok" })).toBe(1);
    expect(delta("gatehouse_requests_total", { rpc: VERIFY, protocol: "grpc", code: "ok" })).toBe(1);
    expect(delta("gatehouse_requests_total", { rpc: "none", protocol: "http", code: "ok" })).toBeGreaterThanOrEqual(2); // /healthz and the first scrape
    expect(delta("gatehouse_requests_total", { rpc: "none", protocol: "http", code: "http_404" })).toBe(1);
    expect(delta("gatehouse_request_duration_seconds_count", { rpc: VERIFY, protocol: "rest" })).toBe(3);
    expect(delta("gatehouse_request_duration_seconds_bucket", { rpc: VERIFY, protocol: "rest", le: "+Inf" })).toBe(3);
    expect(after.value("gatehouse_request_duration_seconds_sum", { rpc: VERIFY, protocol: "rest" })).toBeGreaterThan(0);
    // Nothing a client sends becomes a label: not the path, not its ids.
    expect(after.text).not.toContain("usr_someone");
    expect(after.text).not.toContain("/v1/auth");
  });

  it("counts sign-ins by method and outcome", async () => {
    const before = await scrape(server.url);
    const { email, password } = await auth.signup();
    expect((await auth.call("POST", "/v1/auth/login", { email, password })).status).toBe(200);
    expect((await auth.call("POST", "/v1/auth/login", { email, password: "not the password" })).status).toBe(401);
    expect((await auth.call("POST", "/v1/auth/login", { email, password: "not the password" })).status).toBe(401);
    expect((await auth.call("POST", "/v1/auth/otp/verify", { email, otp: "123456" })).status).toBe(401);
    const after = await scrape(server.url);
    const delta = (method: string, outcome: string) =>
      after.value("gatehouse_sign_ins_total", { method, outcome }) -
      before.value("gatehouse_sign_ins_total", { method, outcome });
    expect(delta("password", "signed_up")).toBe(1);
    expect(delta("password", "succeeded")).toBe(1);
    expect(delta("password", "invalid_credentials")).toBe(2);
    expect(delta("otp", "invalid_code")).toBe(1);
  });

  it("counts rate-limit refusals by RPC", async () => {
    const limited = await authFixture(server, { rateLimits: { signupsPerIp: 1 } });
    const before = await scrape(server.url);
    expect(
      (
        await limited.call("POST", "/v1/auth/signup", {
          email: `rl-${Date.now()}@example.com`,
          password: "a sturdy passphrase 1",
        })
      ).status,
    ).toBe(200);
    const refused = await limited.call("POST", "/v1/auth/signup", {
      email: `rl2-${Date.now()}@example.com`,
      password: "a sturdy passphrase 1",
    });
    expect(refused.status).toBe(429);
    expect(refused.body.reason).toBe("RATE_LIMITED");
    const after = await scrape(server.url);
    expect(
      after.value("gatehouse_rate_limited_total", { rpc: SIGNUP }) -
        before.value("gatehouse_rate_limited_total", { rpc: SIGNUP }),
    ).toBe(1);
    expect(
      after.value("gatehouse_requests_total", { rpc: SIGNUP, protocol: "rest", code: "resource_exhausted" }),
    ).toBeGreaterThanOrEqual(1);
  });

  it("reports the outbox backlog and the age of its oldest message, on the service's clock", async () => {
    const { email } = await auth.signup();
    const before = await scrape(server.url);
    expect((await auth.call("POST", "/v1/auth/password/reset-request", { email })).status).toBe(200);
    // Without SMTP_URL the mail stays in the outbox for an operator.
    const queued = await eventually("the reset mail in the backlog", async () => {
      const now = await scrape(server.url);
      return (
        now.value("gatehouse_outbox_backlog", { channel: "email" }) >
          before.value("gatehouse_outbox_backlog", { channel: "email" }) && now
      );
    });
    expect(queued.value("gatehouse_outbox_backlog", { channel: "sms" })).toBe(0);
    clock.advance(600_000);
    const later = await scrape(server.url);
    expect(later.value("gatehouse_outbox_oldest_age_seconds", { channel: "email" })).toBeGreaterThanOrEqual(600);
    expect(later.value("gatehouse_outbox_oldest_age_seconds", { channel: "sms" })).toBe(0);
  });

  it("reports the database pool and the verification cache's hits and misses", async () => {
    const { body } = await auth.signup();
    const verify = () => auth.call("POST", "/v1/auth/token/verify", { token: body.access_token });
    expect((await verify()).body.valid).toBe(true);
    const before = await scrape(server.url);
    for (let i = 0; i < 3; i++) expect((await verify()).body.valid).toBe(true);
    const after = await scrape(server.url);
    const delta = (cache: string, result: string) =>
      after.value("gatehouse_verification_cache_lookups_total", { cache, result }) -
      before.value("gatehouse_verification_cache_lookups_total", { cache, result });
    // The key and the verified token were read once before; three more uses come from memory.
    expect(delta("api_keys", "hit")).toBe(3);
    expect(delta("api_keys", "miss")).toBe(0);
    expect(delta("signed_tokens", "hit")).toBe(3);
    expect(
      after.samples.filter((s) => s.name === "gatehouse_verification_cache_lookups_total").map((s) => s.labels.cache),
    ).toEqual(
      expect.arrayContaining([
        "api_keys",
        "signing_keys",
        "active_signing_keys",
        "signed_tokens",
        "revoked",
        "sessions",
      ]),
    );

    const open =
      after.value("gatehouse_db_pool_connections", { state: "in_use" }) +
      after.value("gatehouse_db_pool_connections", { state: "idle" });
    expect(open).toBeGreaterThanOrEqual(1);
    expect(open).toBeLessThanOrEqual(after.value("gatehouse_db_pool_max"));
    // The scrape's own outbox query may be what waits (PGlite's pool is one connection).
    const waiting = after.samples.find((s) => s.name === "gatehouse_db_pool_waiting");
    expect(Number.isInteger(waiting?.value) && waiting!.value >= 0).toBe(true);
  });
});
