import { connect as h2connect, type ClientHttp2Session, type IncomingHttpHeaders } from "node:http2";
import { gzipSync } from "node:zlib";
import { create, fromBinary, toBinary, toJson } from "@bufbuild/protobuf";
import { base64Decode } from "@bufbuild/protobuf/wire";
import { findTrailerError } from "@connectrpc/connect/protocol-grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoginRequestSchema, VerifyTokenRequestSchema } from "../../../gen/gatehouse/auth/v1/sign_in_pb.js";
import { ErrorInfoSchema } from "../../../gen/google/rpc/error_details_pb.js";
import { authFixture, type AuthFixture } from "../../auth/helpers.js";
import { envelope } from "../../fuzz/arbitraries.js";
import type { TestServer } from "../../helpers/server.js";
import { sharedTestServer } from "../../helpers/shared-server.js";

// The lean unary path (src/transport/lane) answers a plain call; a compressed one is the general
// path's (connect's handlers). Both must give a client the same answer: status, headers, the
// message or the error with its details, byte for byte (the request id aside, which differs per
// request). Each call is sent both ways, over gRPC and over Connect.

const VERIFY = "/gatehouse.auth.v1.AuthService/VerifyToken";
const LOGIN = "/gatehouse.auth.v1.AuthService/Login";

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: Buffer;
}

describe("the lean unary path answers as the general path does", () => {
  let server: TestServer;
  let app: AuthFixture;
  let session: ClientHttp2Session;
  let token: string;
  let email: string;

  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
    const user = await app.signup();
    token = user.body.access_token as string;
    email = user.email;
    session = h2connect(server.url);
    session.on("error", () => {});
  });
  afterAll(async () => {
    session?.close();
    await server?.stop();
  });

  function h2(path: string, headers: Record<string, string>, body: Buffer): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const stream = session.request({ ":method": "POST", ":path": path, te: "trailers", ...headers });
      let head: IncomingHttpHeaders = {};
      let trailers: IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      stream.on("response", (h) => (head = h));
      stream.on("trailers", (t) => (trailers = t));
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("error", reject);
      stream.on("close", () =>
        resolve({ status: Number(head[":status"]), headers: { ...head, ...trailers }, body: Buffer.concat(chunks) }),
      );
      stream.end(body);
    });
  }

  // What a client reads, without what differs per request: the request id (also inside
  // ErrorInfo's metadata) and the date.
  function readable(answer: Answer, protocol: "grpc" | "connect") {
    const headers = { ...answer.headers };
    // grpc-encoding: the general path's calls here are compressed, and connect then names the
    // request's encoding for the answer too (whose message, under 1 KiB, it leaves uncompressed).
    for (const name of ["date", "x-request-id", ":status", "grpc-encoding"]) delete headers[name];
    let error: unknown;
    if (typeof headers["grpc-status-details-bin"] === "string") {
      const trailer = new Headers();
      for (const [name, value] of Object.entries(headers)) if (typeof value === "string") trailer.set(name, value);
      const found = findTrailerError(trailer);
      error = found && { code: found.code, message: found.rawMessage, details: found.details.map(withoutRequestId) };
      delete headers["grpc-status-details-bin"];
    }
    let body: unknown = answer.body.toString("base64");
    if (protocol === "connect") {
      const json = JSON.parse(answer.body.toString("utf8")) as {
        details?: Array<{ type: string; value: string; debug?: unknown }>;
      };
      for (const detail of json.details ?? []) {
        // The decoded copy connect adds for people reading the JSON, request id included.
        delete detail.debug;
        if (detail.type === ErrorInfoSchema.typeName) {
          const info = fromBinary(ErrorInfoSchema, base64Decode(detail.value));
          delete info.metadata.request_id;
          detail.value = JSON.stringify(toJson(ErrorInfoSchema, info));
        }
      }
      body = json;
      delete headers["content-length"];
    }
    return { status: answer.status, headers, error, body };
  }

  function withoutRequestId(detail: unknown) {
    const { type, value } = detail as { type: string; value: Uint8Array };
    if (type !== ErrorInfoSchema.typeName) return { type, value: Buffer.from(value).toString("base64") };
    const info = fromBinary(ErrorInfoSchema, value);
    delete info.metadata.request_id;
    return toJson(ErrorInfoSchema, info);
  }

  const calls = () => [
    {
      name: "a valid token",
      path: VERIFY,
      key: true,
      message: toBinary(VerifyTokenRequestSchema, create(VerifyTokenRequestSchema, { token })),
    },
    {
      name: "a token that is not one",
      path: VERIFY,
      key: true,
      message: toBinary(VerifyTokenRequestSchema, create(VerifyTokenRequestSchema, { token: "abc" })),
    },
    { name: "no token (a validation error)", path: VERIFY, key: true, message: new Uint8Array() },
    {
      name: "no API key (unauthenticated)",
      path: VERIFY,
      key: false,
      message: toBinary(VerifyTokenRequestSchema, create(VerifyTokenRequestSchema, { token })),
    },
    {
      name: "a wrong password (an error with its reason)",
      path: LOGIN,
      key: true,
      message: toBinary(LoginRequestSchema, create(LoginRequestSchema, { email, password: "not the password at all" })),
    },
  ];

  it("over gRPC: a plain message and the same message compressed get the same answer", async () => {
    for (const call of calls()) {
      const headers: Record<string, string> = { "content-type": "application/grpc" };
      if (call.key) headers["x-service-key"] = app.key;
      const lean = await h2(call.path, headers, Buffer.from(envelope(0, call.message)));
      const general = await h2(
        call.path,
        { ...headers, "grpc-encoding": "gzip" },
        Buffer.from(envelope(1, gzipSync(call.message))),
      );
      expect(lean.status, call.name).toBe(200);
      expect(readable(lean, "grpc"), call.name).toEqual(readable(general, "grpc"));
    }
  });

  it("over Connect: the same, binary and JSON", async () => {
    for (const call of calls()) {
      const headers: Record<string, string> = { "content-type": "application/proto" };
      if (call.key) headers["x-service-key"] = app.key;
      const body = Buffer.from(call.message);
      const lean = await h2(call.path, headers, body);
      const general = await h2(call.path, { ...headers, "content-encoding": "gzip" }, gzipSync(body));
      const bothBinary = lean.headers["content-type"] === "application/proto";
      expect(
        bothBinary ? { ...readable(lean, "grpc"), body: lean.body } : readable(lean, "connect"),
        call.name,
      ).toEqual(bothBinary ? { ...readable(general, "grpc"), body: general.body } : readable(general, "connect"));
    }
    // Content types connect's handler reads its own way: a charset, upper case, a stream type.
    for (const type of [
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "application/json; charset=latin1",
      "application/connect+json",
    ]) {
      const headers = { "content-type": type, "x-service-key": app.key };
      const body = Buffer.from(JSON.stringify({ token }));
      const lean = await h2(VERIFY, headers, body);
      const general = await h2(VERIFY, { ...headers, "content-encoding": "gzip" }, gzipSync(body));
      expect({ status: lean.status, type: lean.headers["content-type"] }, type).toEqual({
        status: general.status,
        type: general.headers["content-type"],
      });
    }
    const json = { "content-type": "application/json", "x-service-key": app.key };
    for (const message of [{ token }, { token: "abc" }, {}]) {
      const body = Buffer.from(JSON.stringify(message));
      const lean = await h2(VERIFY, json, body);
      const general = await h2(VERIFY, { ...json, "content-encoding": "gzip" }, gzipSync(body));
      expect(readable(lean, "connect"), JSON.stringify(message)).toEqual(readable(general, "connect"));
    }
  });
});
