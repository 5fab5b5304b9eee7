import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pino } from "pino";
import { Code } from "@connectrpc/connect";
import { ErrorInfoSchema } from "../gen/google/rpc/error_details_pb.js";
import { toConnectError } from "../src/interceptors/errors.js";
import { grpcCall, grpcClient, http } from "./helpers/clients.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

describe("unexpected exceptions", () => {
  it("become INTERNAL with the cause logged and never sent", () => {
    const lines: string[] = [];
    const logger = pino(
      { level: "info" },
      new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) }),
    );
    const error = toConnectError(
      new Error('relation "secrets" does not exist at SELECT * FROM secrets'),
      logger,
      "req_1",
    );
    expect(error.code).toBe(Code.Internal);
    expect(error.rawMessage).toBe("internal error");
    expect(error.findDetails(ErrorInfoSchema)[0]?.reason).toBe("INTERNAL_ERROR");
    expect(lines.join("")).toContain('relation \\"secrets\\" does not exist');
    expect(lines.join("")).toContain('"request_id":"req_1"');
  });
});

describe("database unavailable", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await server.deps.db.dataSource.destroy();
  });
  afterAll(() => server?.stop());

  it("health answers 503 and NOT_SERVING", async () => {
    const res = await http(`${server.url}/healthz`);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: "unavailable", down: ["database"] });
    const answer = await grpcCall(grpcClient(server.port, "health"), "Check", {});
    expect(answer.response.status).toBe("NOT_SERVING");
  });

  it("RPCs answer UNAVAILABLE SERVICE_UNAVAILABLE, without internals", async () => {
    const res = await http(`${server.url}/v1/account/login`, {
      body: { email: "a@example.com", password: "some password" },
    });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: "unavailable",
      reason: "SERVICE_UNAVAILABLE",
      message: "the service is temporarily unavailable; retry later",
    });
    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "Login",
      { email: "a@example.com", password: "x" },
      { "x-service-key": "gk_x" },
    );
    expect(viaGrpc.error?.code).toBe(14);
    expect(viaGrpc.reason).toBe("SERVICE_UNAVAILABLE");
  });
});
