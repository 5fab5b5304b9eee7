import { gzipSync } from "node:zlib";
import { connect as h2connect } from "node:http2";
import {
  Client,
  credentials as grpcCredentials,
  Metadata,
  status as grpcStatus,
  type ServiceError,
} from "@grpc/grpc-js";
import { create, toBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignupRequestSchema } from "../gen/gatehouse/auth/v1/sign_in_pb.js";
import { authFixture, type AuthFixture } from "./auth/helpers.js";
import {
  connect,
  connectReason,
  connectViolations,
  grpcCall,
  grpcClient,
  grpcReason,
  grpcViolations,
  http,
} from "./helpers/clients.js";
import { type TestServer } from "./helpers/server.js";
import { sharedTestServer } from "./helpers/shared-server.js";
import { envelope } from "./fuzz/arbitraries.js";
import { RawGrpc, sendHttp1 } from "./fuzz/senders.js";
import { WAIT_GUARD_MS } from "./helpers/patience.js";

// Threats: a malformed request answered 500 (or crashing the call) instead of being refused as
// the client's fault; gRPC framing read loosely (a compressed flag of 0x02 decoded as if it
// were 0); a message over the cap leaving its stream open while the client uploads; JSON nested
// deep enough to overflow the stack. Each on the protocols it concerns, over the wire.

const VERIFY = "/gatehouse.auth.v1.AuthService/VerifyToken";
const SIGNUP = "/gatehouse.auth.v1.AuthService/Signup";
const CAP = 1024 * 1024;

describe("gRPC framing and malformed messages", () => {
  let server: TestServer;
  let app: AuthFixture;
  let port: number;
  let raw: RawGrpc;

  beforeAll(async () => {
    server = await sharedTestServer();
    port = Number(new URL(server.url).port);
    app = await authFixture(server);
    raw = new RawGrpc(port);
  });
  afterAll(async () => {
    raw?.close();
    await server?.stop();
  });

  const key = () => ({ "x-service-key": app.key });
  const token = Buffer.from([0x0a, 0x03, 0x61, 0x62, 0x63]); // VerifyTokenRequest{token: "abc"}

  it("a compressed flag other than 0 and 1, or 1 without grpc-encoding, is INTERNAL on gRPC and gRPC-Web", async () => {
    for (const flag of [2, 0x80, 0xff]) {
      const grpc = await raw.send(
        { path: VERIFY, headers: { "content-type": "application/grpc", ...key() }, body: envelope(flag, token) },
        WAIT_GUARD_MS,
      );
      expect({ flag, status: grpc.grpcStatus }).toEqual({ flag, status: grpcStatus.INTERNAL });
      const web = await sendHttp1(
        port,
        {
          method: "POST",
          path: VERIFY,
          headers: { "content-type": "application/grpc-web+proto", ...key() },
          body: envelope(flag, token),
        },
        WAIT_GUARD_MS,
      );
      expect({ flag, status: web.status, grpc: web.grpcStatus }).toEqual({
        flag,
        status: 200,
        grpc: grpcStatus.INTERNAL,
      });
    }
    const noEncoding = await raw.send(
      { path: VERIFY, headers: { "content-type": "application/grpc", ...key() }, body: envelope(1, gzipSync(token)) },
      WAIT_GUARD_MS,
    );
    expect(noEncoding.grpcStatus).toBe(grpcStatus.INTERNAL);
    // The same bytes, well flagged, are a normal call.
    const fine = await raw.send(
      { path: VERIFY, headers: { "content-type": "application/grpc", ...key() }, body: envelope(0, token) },
      WAIT_GUARD_MS,
    );
    expect(fine.grpcStatus).toBe(grpcStatus.OK);
    const gzipped = await raw.send(
      {
        path: VERIFY,
        headers: { "content-type": "application/grpc", "grpc-encoding": "gzip", ...key() },
        body: envelope(1, gzipSync(token)),
      },
      WAIT_GUARD_MS,
    );
    expect(gzipped.grpcStatus).toBe(grpcStatus.OK);
  });

  it("a message over 1 MiB is RESOURCE_EXHAUSTED REQUEST_TOO_LARGE, and the server closes the stream the client is still writing", async () => {
    const big = create(SignupRequestSchema, { email: "big@example.com", password: "x".repeat(CAP) });
    const error = await grpcJsError(port, SIGNUP, Buffer.from(toBinary(SignupRequestSchema, big)), app.key);
    expect(error.code).toBe(grpcStatus.RESOURCE_EXHAUSTED);
    expect(grpcReason(error)).toBe("REQUEST_TOO_LARGE");

    // A raw client that keeps uploading: the answer comes, then RST_STREAM NO_ERROR ends the stream.
    const session = h2connect(`http://127.0.0.1:${port}`);
    const stream = session.request({
      ":method": "POST",
      ":path": SIGNUP,
      "content-type": "application/grpc",
      te: "trailers",
      ...key(),
    });
    let trailers: Record<string, unknown> = {};
    stream.on("trailers", (t) => (trailers = t));
    stream.on("error", () => {});
    stream.write(envelope(0, Buffer.alloc(4 * CAP, 0x61)).subarray(0, 4 * CAP));
    const deadline = Date.now() + WAIT_GUARD_MS;
    while (!stream.closed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(trailers["grpc-status"]).toBe(String(grpcStatus.RESOURCE_EXHAUSTED));
    expect(stream.closed, "the server closed the stream").toBe(true);
    expect(stream.rstCode).toBe(0); // NO_ERROR
    session.destroy();
  });

  it("protobuf that does not parse is INVALID_ARGUMENT VALIDATION_FAILED on Connect, gRPC and gRPC-Web", async () => {
    const garbage = Buffer.from([0xff, 0xff, 0xff]);
    const viaConnect = await fetch(`${server.url}${VERIFY}`, {
      method: "POST",
      headers: { "content-type": "application/proto", ...key() },
      body: garbage,
    });
    const body = (await viaConnect.json()) as { code: string; message: string };
    expect({ status: viaConnect.status, code: body.code, reason: connectReason(body) }).toEqual({
      status: 400,
      code: "invalid_argument",
      reason: "VALIDATION_FAILED",
    });
    expect(body.message).toBe("request message is not valid protobuf");

    const error = await grpcJsError(port, VERIFY, garbage, app.key);
    expect({ code: error.code, reason: grpcReason(error) }).toEqual({
      code: grpcStatus.INVALID_ARGUMENT,
      reason: "VALIDATION_FAILED",
    });

    const web = await sendHttp1(
      port,
      {
        method: "POST",
        path: VERIFY,
        headers: { "content-type": "application/grpc-web+proto", ...key() },
        body: envelope(0, garbage),
      },
      WAIT_GUARD_MS,
    );
    expect(web.grpcStatus).toBe(grpcStatus.INVALID_ARGUMENT);

    // Invalid UTF-8 in a string field, and a body that says gzip but is not.
    const badUtf8 = await fetch(`${server.url}${VERIFY}`, {
      method: "POST",
      headers: { "content-type": "application/proto", ...key() },
      body: Buffer.from([0x0a, 0x02, 0xc3, 0x28]),
    });
    expect(badUtf8.status).toBe(400);
    const notGzip = await fetch(`${server.url}${VERIFY}`, {
      method: "POST",
      headers: { "content-type": "application/proto", "content-encoding": "gzip", ...key() },
      body: token,
    });
    expect(notGzip.status).toBe(400);
    const unknownEncoding = await fetch(`${server.url}${VERIFY}`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "zstd", ...key() },
      body: "{}",
    });
    expect({ status: unknownEncoding.status, reason: connectReason(await unknownEncoding.json()) }).toEqual({
      status: 415,
      reason: "UNSUPPORTED_MEDIA_TYPE",
    });
  });

  it("a request with thousands of violations is answered with the first 20, readable by a gRPC client", async () => {
    const admin = await app.admin();
    const scopes = Array.from({ length: 2000 }, (_, i) => `scope-${i}`);
    const answer = await grpcCall(
      grpcClient(port, "account"),
      "CreateApiKey",
      { project_id: app.projectId, label: "many", scopes },
      admin,
    );
    expect({ code: answer.error?.code, reason: answer.reason }).toEqual({
      code: grpcStatus.INVALID_ARGUMENT,
      reason: "VALIDATION_FAILED",
    });
    const violations = grpcViolations(answer);
    expect(violations).toHaveLength(20);
    expect(violations[0]).toEqual({ field: "scopes", description: "must have at most 4 items" });
    expect(decodeURIComponent(answer.error?.details ?? "")).toMatch(/; and 1981 more$/);
  });

  it("JSON nested past 64 levels is 400 VALIDATION_FAILED before it is parsed, and metadata past 32 levels names the field", async () => {
    const nest = (levels: number) => '{"a":'.repeat(levels) + "1" + "}".repeat(levels);
    for (const levels of [65, 50_000]) {
      const body = `{"email":"deep@example.com","password":"a sturdy passphrase 1","metadata":${nest(levels)}}`;
      const rest = await http(`${server.url}/v1/auth/signup`, { headers: key(), body });
      expect({ levels, status: rest.status, reason: rest.body.reason, message: rest.body.message }).toEqual({
        levels,
        status: 400,
        reason: "VALIDATION_FAILED",
        message: "request body nests deeper than 64 levels",
      });
      const viaConnect = await connect(server.url, "auth", "Signup", body, key());
      expect({ levels, status: viaConnect.status, reason: connectReason(viaConnect.body) }).toEqual({
        levels,
        status: 400,
        reason: "VALIDATION_FAILED",
      });
    }
    const array = await http(`${server.url}/v1/auth/signup`, {
      headers: key(),
      body: `{"metadata":{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}}`,
    });
    expect(array.status).toBe(400);

    const body = { email: "deep@example.com", password: "a sturdy passphrase 1", metadata: JSON.parse(nest(33)) };
    const rest = await http(`${server.url}/v1/auth/signup`, { headers: key(), body });
    expect({ status: rest.status, violations: rest.body.violations }).toEqual({
      status: 400,
      violations: [{ field: "metadata", description: "must nest at most 32 levels deep" }],
    });
    const viaConnect = await connect(server.url, "auth", "Signup", body, key());
    expect(connectViolations(viaConnect.body)).toEqual([
      { field: "metadata", description: "must nest at most 32 levels deep" },
    ]);
    const shallow = await http(`${server.url}/v1/auth/signup`, {
      headers: key(),
      body: { ...body, metadata: JSON.parse(nest(31)) },
    });
    expect(shallow.status, JSON.stringify(shallow.body)).toBe(200);
  });

  it("a NUL in a REST path or query parameter, or in binary protobuf, is 400 VALIDATION_FAILED, never a database error", async () => {
    const path = await http(`${server.url}/v1/auth/users/usr_%00x`, { headers: key() });
    expect({ status: path.status, violations: path.body.violations }).toEqual({
      status: 400,
      violations: [{ field: "id", description: "must not contain the NUL character (U+0000)" }],
    });
    const query = await http(`${server.url}/v1/auth/users?cursor=a%00b`, { headers: key() });
    expect({ status: query.status, reason: query.body.reason }).toEqual({ status: 400, reason: "VALIDATION_FAILED" });
    const binary = await fetch(`${server.url}/gatehouse.auth.v1.AuthService/Login`, {
      method: "POST",
      headers: { "content-type": "application/proto", ...key() },
      body: toBinary(SignupRequestSchema, create(SignupRequestSchema, { email: "a\u0000@example.com", password: "x" })),
    });
    const answer = await binary.json();
    expect({ status: binary.status, reason: connectReason(answer) }).toEqual({
      status: 400,
      reason: "VALIDATION_FAILED",
    });
    expect(connectViolations(answer)).toContainEqual({
      field: "email",
      description: "must not contain the NUL character (U+0000)",
    });
  });
});

function grpcJsError(port: number, path: string, body: Buffer, key: string): Promise<ServiceError> {
  const client = new Client(`127.0.0.1:${port}`, grpcCredentials.createInsecure(), {
    "grpc.max_send_message_length": 8 * CAP,
  });
  const metadata = new Metadata();
  metadata.set("x-service-key", key);
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      path,
      (b: Buffer) => b,
      (b: Buffer) => b,
      body,
      metadata,
      { deadline: Date.now() + 10_000 },
      (error: ServiceError | null) => {
        client.close();
        if (error) resolve(error);
        else reject(new Error("expected an error"));
      },
    );
  });
}
