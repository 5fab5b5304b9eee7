import { status as grpcStatus } from "@grpc/grpc-js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { envelope } from "../fuzz/arbitraries.js";
import { RawGrpc, sendHttp1 } from "../fuzz/senders.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { WAIT_GUARD_MS } from "../helpers/patience.js";

// A deadline further away than Node's timers reach (grpc-timeout `99999999H`, 11,000 years;
// connect-timeout-ms of ten digits) was refused INVALID_ARGUMENT, and connect-es armed its
// timer with it all the same, so Node printed a TimeoutOverflowWarning on stderr for every
// such request (the fuzz test's output was full of them). Such a deadline is served as the
// longest one a timer can hold (about 24.8 days), with no warning. The server runs in this
// process, so its warnings are this process's.

const VERIFY = "/gatehouse.auth.v1.AuthService/VerifyToken";
const TOKEN = Buffer.from([0x0a, 0x03, 0x61, 0x62, 0x63]); // VerifyTokenRequest{token: "abc"}

describe("deadlines beyond Node's timers", () => {
  let server: TestServer;
  let app: AuthFixture;
  let port: number;
  let raw: RawGrpc;
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);

  beforeAll(async () => {
    server = await startTestServer();
    port = Number(new URL(server.url).port);
    app = await authFixture(server);
    raw = new RawGrpc(port);
    process.on("warning", onWarning);
  });
  beforeEach(() => {
    warnings.length = 0;
  });
  afterAll(async () => {
    process.off("warning", onWarning);
    raw?.close();
    await server?.stop();
  });

  const overflowWarnings = async () => {
    // Warnings are emitted on the next tick.
    await new Promise((r) => setTimeout(r, 50));
    return warnings.filter((w) => w.name === "TimeoutOverflowWarning").map((w) => w.message);
  };

  it("gRPC: grpc-timeout past 2^31-1 ms serves the call, and no TimeoutOverflowWarning is printed", async () => {
    for (const timeout of ["99999999H", "99999999M", "9999999S", "2147484m"]) {
      const answer = await raw.send(
        {
          path: VERIFY,
          headers: { "content-type": "application/grpc", "grpc-timeout": timeout, "x-service-key": app.key },
          body: envelope(0, TOKEN),
        },
        WAIT_GUARD_MS,
      );
      expect({ timeout, status: answer.grpcStatus, message: answer.grpcMessage }).toEqual({
        timeout,
        status: grpcStatus.OK,
        message: undefined,
      });
    }
    expect(await overflowWarnings()).toEqual([]);
  });

  it("gRPC-Web and Connect: the same for grpc-timeout and connect-timeout-ms", async () => {
    const web = await sendHttp1(
      port,
      {
        method: "POST",
        path: VERIFY,
        headers: {
          "content-type": "application/grpc-web+proto",
          "grpc-timeout": "99999999H",
          "x-service-key": app.key,
        },
        body: envelope(0, TOKEN),
      },
      WAIT_GUARD_MS,
    );
    expect({ status: web.status, grpc: web.grpcStatus }).toEqual({ status: 200, grpc: grpcStatus.OK });
    const viaConnect = await fetch(`${server.url}${VERIFY}`, {
      method: "POST",
      headers: { "content-type": "application/json", "connect-timeout-ms": "9999999999", "x-service-key": app.key },
      body: JSON.stringify({ token: "abc" }),
    });
    expect({ status: viaConnect.status, body: await viaConnect.json() }).toMatchObject({
      status: 200,
      body: { valid: false },
    });
    expect(await overflowWarnings()).toEqual([]);
  });

  it("a grpc-timeout that does not parse (nine digits) is still refused INVALID_ARGUMENT, with no warning", async () => {
    const garbled = await raw.send(
      {
        path: VERIFY,
        headers: { "content-type": "application/grpc", "grpc-timeout": "100000000H", "x-service-key": app.key },
        body: envelope(0, TOKEN),
      },
      WAIT_GUARD_MS,
    );
    expect(garbled.grpcStatus).toBe(grpcStatus.INVALID_ARGUMENT);
    expect(await overflowWarnings()).toEqual([]);
  });
});
