import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grpcCall, grpcClient, http } from "./helpers/clients.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

describe("health", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
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
