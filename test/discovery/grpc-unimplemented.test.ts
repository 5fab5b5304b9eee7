import { connect as http2Connect, type IncomingHttpHeaders } from "node:http2";
import { Client, credentials, Metadata, status as grpcStatus, type ServiceError } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grpcReason, http } from "../helpers/clients.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";

// A gRPC client reads its status from grpc-status. An unknown method answered HTTP 404 with a
// JSON body reaches grpc-go, grpc-java or grpcio as UNKNOWN or UNAVAILABLE ("unexpected HTTP
// status"), which a client retries, instead of UNIMPLEMENTED, which it must not: and grpcurl
// and client-side health checking read UNIMPLEMENTED as "this server does not offer that".

const EMPTY_MESSAGE = Buffer.from([0, 0, 0, 0, 0]);

describe("unknown gRPC methods and services", () => {
  let server: TestServer;
  let client: Client;
  beforeAll(async () => {
    server = await sharedTestServer();
    client = new Client(`127.0.0.1:${server.port}`, credentials.createInsecure());
  });
  afterAll(async () => {
    client?.close();
    await server?.stop();
  });

  const call = (path: string) =>
    new Promise<ServiceError | null>((resolve) =>
      client.makeUnaryRequest(
        path,
        (b: Buffer) => b,
        (b: Buffer) => b,
        Buffer.alloc(0),
        new Metadata(),
        { deadline: Date.now() + 10_000 },
        (error) => resolve(error),
      ),
    );

  it("@grpc/grpc-js gets UNIMPLEMENTED for an unknown method of a known service and for an unknown service", async () => {
    for (const [path, details] of [
      ["/gatehouse.auth.v1.AuthService/Nope", "unknown method Nope for service gatehouse.auth.v1.AuthService"],
      ["/grpc.health.v1.Health/Nope", "unknown method Nope for service grpc.health.v1.Health"],
      ["/nope.v1.Nothing/Call", "unknown service nope.v1.Nothing"],
      ["/v1/auth/login", "malformed method name (a gRPC path names a service and one of its methods)"],
    ]) {
      const error = await call(path);
      expect({ path, code: error?.code, details: error?.details }).toEqual({
        path,
        code: grpcStatus.UNIMPLEMENTED,
        details,
      });
      expect(grpcReason(error!), path).toBe("NOT_IMPLEMENTED");
    }
  });

  it("over raw HTTP/2: HTTP 200, no message, grpc-status 12 and the reason in the trailers", async () => {
    const session = http2Connect(server.url);
    try {
      const stream = session.request({
        ":method": "POST",
        ":path": "/nope.v1.Nothing/Call",
        "content-type": "application/grpc",
        te: "trailers",
      });
      const answered = new Promise<IncomingHttpHeaders>((resolve) => stream.once("response", resolve));
      const trailed = new Promise<IncomingHttpHeaders>((resolve) => stream.once("trailers", resolve));
      stream.end(EMPTY_MESSAGE);
      const headers = await answered;
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      const trailers = await trailed;
      expect(headers[":status"]).toBe(200);
      expect(headers["content-type"]).toBe("application/grpc+proto");
      expect(trailers["grpc-status"]).toBe("12");
      expect(trailers["grpc-message"]).toBe("unknown%20service%20nope.v1.Nothing");
      expect(trailers["grpc-status-details-bin"]).toBeTruthy();
      expect(Buffer.concat(chunks).length).toBe(0);
    } finally {
      session.close();
    }
  });

  it("gRPC-Web (HTTP/1.1) likewise, and Connect and REST keep their 404", async () => {
    const res = await fetch(`${server.url}/nope.v1.Nothing/Call`, {
      method: "POST",
      headers: { "content-type": "application/grpc-web+proto", "x-grpc-web": "1" },
      body: EMPTY_MESSAGE,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("grpc-status")).toBe("12");
    expect(decodeURIComponent(res.headers.get("grpc-message") ?? "")).toBe("unknown service nope.v1.Nothing");
    expect((await res.arrayBuffer()).byteLength).toBe(0);

    const viaConnect = await http(`${server.url}/nope.v1.Nothing/Call`, { body: {} });
    expect({ status: viaConnect.status, reason: viaConnect.body?.reason }).toEqual({
      status: 404,
      reason: "ROUTE_NOT_FOUND",
    });
  });
});
