import { connect as h2connect, type ClientHttp2Session, type IncomingHttpHeaders } from "node:http2";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { create, fromBinary, toBinary, toJson } from "@bufbuild/protobuf";
import { base64Decode, base64Encode } from "@bufbuild/protobuf/wire";
import { findTrailerError } from "@connectrpc/connect/protocol-grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoginRequestSchema, VerifyTokenRequestSchema } from "../../../gen/gatehouse/auth/v1/sign_in_pb.js";
import { GetUserRequestSchema } from "../../../gen/gatehouse/auth/v1/users_pb.js";
import { ErrorInfoSchema } from "../../../gen/google/rpc/error_details_pb.js";
import { authFixture, type AuthFixture } from "../../auth/helpers.js";
import { envelope } from "../../fuzz/arbitraries.js";
import type { TestServer } from "../../helpers/server.js";
import { sharedTestServer } from "../../helpers/shared-server.js";

// The lean unary path (src/transport/lane) is the only path of a unary call on Connect and
// REST, and of gRPC's binary calls; it once answered only plain calls and left compressed ones
// to connect's handlers. Both kinds must still give a client the same answer: status, headers,
// the message or the error with its details, byte for byte (the request id aside, which differs
// per request). Each call is sent both ways, over gRPC and over Connect. What the lane took
// from connect's handlers last (a compressed body, a message that does not decode, a timeout
// that does not parse, Connect GET) is held below to the answers that path gave, written down
// from it before the switch.

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
  let userId: string;

  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
    const user = await app.signup();
    token = user.body.access_token as string;
    email = user.email;
    userId = user.body.user.id as string;
    session = h2connect(server.url);
    session.on("error", () => {});
  });
  afterAll(async () => {
    session?.close();
    await server?.stop();
  });

  function h2(path: string, headers: Record<string, string>, body: Buffer, method = "POST"): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const stream = session.request({ ":method": method, ":path": path, te: "trailers", ...headers });
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
      if (method === "GET") stream.end();
      else stream.end(body);
    });
  }

  // What a client reads, without what differs per request: the request id (also inside
  // ErrorInfo's metadata) and the date.
  // grpc-encoding is left out where a plain call is compared with a compressed one: connect
  // names the request's encoding for the answer too (whose message, under 1 KiB, it leaves
  // uncompressed).
  function readable(answer: Answer, protocol: "grpc" | "connect" | "rest", keepEncoding = false) {
    const headers = { ...answer.headers };
    for (const name of ["date", "x-request-id", ":status", ...(keepEncoding ? [] : ["grpc-encoding"])])
      delete headers[name];
    let error: unknown;
    if (typeof headers["grpc-status-details-bin"] === "string") {
      const trailer = new Headers();
      for (const [name, value] of Object.entries(headers)) if (typeof value === "string") trailer.set(name, value);
      const found = findTrailerError(trailer);
      error = found && { code: found.code, message: found.rawMessage, details: found.details.map(withoutRequestId) };
      delete headers["grpc-status-details-bin"];
    }
    let body: unknown = answer.body.toString("base64");
    if (protocol === "rest") {
      const json = JSON.parse(answer.body.toString("utf8")) as Record<string, unknown>;
      delete json.request_id;
      body = json;
      delete headers["content-length"];
    } else if (protocol === "connect") {
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

  // What the lane once left to connect's handler is answered as that handler answered it: the
  // snapshots below were written by it (commit 937880d), before the lane took these calls.
  const json = () => ({ "content-type": "application/json", "x-service-key": app.key });
  const proto = () => ({ "content-type": "application/proto", "x-service-key": app.key });
  const grpc = () => ({ "content-type": "application/grpc", "x-service-key": app.key });
  const verifyJson = () => Buffer.from(JSON.stringify({ token }));
  const verifyProto = () =>
    Buffer.from(toBinary(VerifyTokenRequestSchema, create(VerifyTokenRequestSchema, { token })));
  const truncated = (bytes: Uint8Array) => {
    const whole = gzipSync(bytes);
    return whole.subarray(0, whole.length - 4);
  };
  // 2 MiB of spaces inflate past the 1 MiB cap from a few KiB.
  const bomb = () =>
    gzipSync(Buffer.concat([Buffer.from('{"token":"'), Buffer.alloc(2 << 20, 0x20), Buffer.from('"}')]));

  it("over Connect: bad timeouts, undecodable messages and bodies, odd encodings, as connect answered them", async () => {
    const cases: Array<[string, Record<string, string>, Buffer]> = [
      ["a timeout that is not a number", { ...json(), "connect-timeout-ms": "soon" }, verifyJson()],
      ["a timeout of 11 digits", { ...json(), "connect-timeout-ms": "12345678901" }, verifyJson()],
      ["binary that is not protobuf", proto(), Buffer.from([0xff, 0xff, 0xff])],
      ["JSON of the wrong type", json(), Buffer.from('{"token": 123}')],
      ["text that is not JSON", json(), Buffer.from('{"token": ')],
      ["gzip cut short", { ...json(), "content-encoding": "gzip" }, truncated(verifyJson())],
      ["gzip that is not gzip", { ...json(), "content-encoding": "gzip" }, Buffer.from("not gzip at all")],
      ["gzip of JSON of the wrong type", { ...json(), "content-encoding": "gzip" }, gzipSync('{"token": 123}')],
      [
        "gzip of binary that is not protobuf",
        { ...proto(), "content-encoding": "gzip" },
        gzipSync(Buffer.from([0xff, 0xff])),
      ],
      ["gzip past the cap once inflated", { ...json(), "content-encoding": "gzip" }, bomb()],
      ["an encoding named in capitals", { ...json(), "content-encoding": "GZIP" }, gzipSync(verifyJson())],
      [
        "a timeout that does not parse on a compressed body",
        { ...json(), "content-encoding": "gzip", "connect-timeout-ms": "x" },
        gzipSync(verifyJson()),
      ],
    ];
    const answers: Record<string, unknown> = {};
    for (const [name, headers, body] of cases)
      answers[name] = readable(await h2(VERIFY, headers, body), "connect", true);
    expect(answers).toMatchInlineSnapshot(`
      {
        "JSON of the wrong type": {
          "body": {
            "code": "invalid_argument",
            "details": [
              {
                "type": "google.rpc.ErrorInfo",
                "value": "{"reason":"VALIDATION_FAILED","domain":"gatehouse"}",
              },
              {
                "type": "google.rpc.BadRequest",
                "value": "ChkKBXRva2VuEhBtdXN0IGJlIGEgc3RyaW5n",
              },
            ],
            "message": "token: must be a string",
          },
          "error": undefined,
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 400,
        },
        "a timeout of 11 digits": {
          "body": {
            "code": "invalid_argument",
            "details": [
              {
                "type": "google.rpc.ErrorInfo",
                "value": "{"reason":"VALIDATION_FAILED","domain":"gatehouse"}",
              },
            ],
            "message": "protocol error: invalid connect timeout value: 12345678901",
          },
          "error": undefined,
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 400,
        },
        "a timeout that does not parse on a compressed body": {
          "body": {
            "code": "invalid_argument",
            "details": [
              {
                "type": "google.rpc.ErrorInfo",
                "value": "{"reason":"VALIDATION_FAILED","domain":"gatehouse"}",
              },
            ],
            "message": "protocol error: invalid connect timeout value: x",
          },
          "error": undefined,
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 400,
        },
        "a timeout that is not a number": {
          "body": {
            "code": "invalid_argument",
            "details": [
              {
                "type": "google.rpc.ErrorInfo",
                "value": "{"reason":"VALIDATION_FAILED","domain":"gatehouse"}",
              },
            ],
            "message": "protocol error: invalid connect timeout value: soon",
          },
          "error": undefined,
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 400,
        },
        "an encoding named in capitals": {
          "body": {
            "code": "unimplemented",
            "details": [
              {
                "type": "google.rpc.ErrorInfo",
                "value": "{"reason":"NOT_IMPLEMENTED","domain":"gatehouse"}",
              },
            ],
            "message": "unknown compression "GZIP": supported encodings are gzip,br",
          },
          "error": undefined,
          "headers": {
            "accept-encoding": "gzip,br",
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 501,
        },
        "binary that is not protobuf": {
          "body": {
            "code": "invalid_argument",
            "details": [
              {
                "type": "google.rpc.ErrorInfo",
                "value": "{"reason":"VALIDATION_FAILED","domain":"gatehouse"}",
              },
            ],
            "message": "request message is not valid protobuf",
          },
          "error": undefined,
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 400,
        },
        "gzip cut short": {
          "body": {
            "code": "invalid_argument",
            "details": [
              {
                "type": "google.rpc.ErrorInfo",
                "value": "{"reason":"VALIDATION_FAILED","domain":"gatehouse"}",
              },
            ],
            "message": "request body could not be decompressed",
          },
          "error": undefined,
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 400,
        },
        "gzip of JSON of the wrong type": {
          "body": {
            "code": "invalid_argument",
            "details": [
              {
                "type": "google.rpc.ErrorInfo",
                "value": "{"reason":"VALIDATION_FAILED","domain":"gatehouse"}",
              },
              {
                "type": "google.rpc.BadRequest",
                "value": "ChkKBXRva2VuEhBtdXN0IGJlIGEgc3RyaW5n",
              },
            ],
            "message": "token: must be a string",
          },
          "error": undefined,
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 400,
        },
        "gzip of binary that is not protobuf": {
          "body": {
            "code": "invalid_argument",
            "details": [
              {
                "type": "google.rpc.ErrorInfo",
                "value": "{"reason":"VALIDATION_FAILED","domain":"gatehouse"}",
              },
            ],
            "message": "request message is not valid protobuf",
          },
          "error": undefined,
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 400,
        },
        "gzip past the cap once inflated": {
          "body": {
            "code": "resource_exhausted",
            "details": [
              {
                "type": "google.rpc.ErrorInfo",
                "value": "{"reason":"REQUEST_TOO_LARGE","domain":"gatehouse"}",
              },
            ],
            "message": "message is larger than configured readMaxBytes 1048576 after decompression",
          },
          "error": undefined,
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 429,
        },
        "gzip that is not gzip": {
          "body": {
            "code": "invalid_argument",
            "details": [
              {
                "type": "google.rpc.ErrorInfo",
                "value": "{"reason":"VALIDATION_FAILED","domain":"gatehouse"}",
              },
            ],
            "message": "decompression failed",
          },
          "error": undefined,
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 400,
        },
        "text that is not JSON": {
          "body": {
            "code": "invalid_argument",
            "details": [
              {
                "type": "google.rpc.ErrorInfo",
                "value": "{"reason":"VALIDATION_FAILED","domain":"gatehouse"}",
              },
            ],
            "message": "request body is not valid JSON",
          },
          "error": undefined,
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 400,
        },
      }
    `);
    // Brotli, and a gzip body on a binary call, answer as the plain call does.
    for (const [headers, body, plain] of [
      [{ ...json(), "content-encoding": "br" }, brotliCompressSync(verifyJson()), verifyJson()],
      [{ ...proto(), "content-encoding": "gzip" }, gzipSync(verifyProto()), verifyProto()],
    ] as const) {
      const compressed = await h2(VERIFY, headers, Buffer.from(body));
      const lean = await h2(VERIFY, { ...headers, "content-encoding": "identity" }, plain);
      expect({ status: compressed.status, body: compressed.body.toString("base64") }).toEqual({
        status: lean.status,
        body: lean.body.toString("base64"),
      });
    }
  });

  it("over Connect GET: the answer a POST of the same message gets, and connect's errors", async () => {
    const path = "/gatehouse.auth.v1.AuthService/GetUser";
    const message = { id: userId };
    const asJson = `connect=v1&encoding=json&message=${encodeURIComponent(JSON.stringify(message))}`;
    const binary = base64Encode(toBinary(GetUserRequestSchema, create(GetUserRequestSchema, message)), "url");
    const zipped = base64Encode(gzipSync(Buffer.from(JSON.stringify(message))), "url");
    for (const [query, post] of [
      [asJson, { headers: json(), body: Buffer.from(JSON.stringify(message)) }],
      [
        `connect=v1&encoding=proto&base64=1&message=${binary}`,
        { headers: proto(), body: Buffer.from(base64Decode(binary)) },
      ],
      [
        `encoding=json&base64=1&compression=gzip&message=${zipped}`,
        { headers: json(), body: Buffer.from(JSON.stringify(message)) },
      ],
    ] as const) {
      const viaGet = await h2(`${path}?${query}`, { "x-service-key": app.key }, Buffer.alloc(0), "GET");
      const viaPost = await h2(path, post.headers, post.body);
      expect(viaGet.status, query).toBe(200);
      expect({ ...readable(viaGet, "grpc"), headers: undefined }, query).toEqual({
        ...readable(viaPost, "grpc"),
        headers: undefined,
      });
      expect(viaGet.headers["content-type"], query).toBe(viaPost.headers["content-type"]);
    }
    const errors: Record<string, unknown> = {};
    for (const query of [
      `connect=v1&encoding=json&message=${encodeURIComponent('{"id": ')}`,
      `connect=v1&encoding=json&message=${encodeURIComponent('{"id": 5}')}`,
      `connect=v1&encoding=json&message=${encodeURIComponent('{"id": "usr_00000000000000000000000000"}')}`,
      "connect=v1&encoding=proto&base64=1&message=__8",
      `connect=v1&encoding=json&base64=1&compression=gzip&message=${base64Encode(truncated(Buffer.from("{}")), "url")}`,
    ]) {
      const answer = await h2(`${path}?${query}`, { "x-service-key": app.key }, Buffer.alloc(0), "GET");
      errors[query] = readable(answer, "connect", true);
    }
    const timedOut = await h2(
      `${path}?${asJson}`,
      { "x-service-key": app.key, "connect-timeout-ms": "x" },
      Buffer.alloc(0),
      "GET",
    );
    errors["a timeout that does not parse"] = readable(timedOut, "connect", true);
    expect(errors).toMatchInlineSnapshot(`
      {
        "a timeout that does not parse": {
          "body": {
            "code": "invalid_argument",
            "details": [
              {
                "type": "google.rpc.ErrorInfo",
                "value": "{"reason":"VALIDATION_FAILED","domain":"gatehouse"}",
              },
            ],
            "message": "protocol error: invalid connect timeout value: x",
          },
          "error": undefined,
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 400,
        },
        "connect=v1&encoding=json&base64=1&compression=gzip&message=H4sIAAAAAAAAA6uuBQBDv6aj": {
          "body": {
            "code": "invalid_argument",
            "details": [
              {
                "type": "google.rpc.ErrorInfo",
                "value": "{"reason":"VALIDATION_FAILED","domain":"gatehouse"}",
              },
            ],
            "message": "request body could not be decompressed",
          },
          "error": undefined,
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 400,
        },
        "connect=v1&encoding=json&message=%7B%22id%22%3A%20": {
          "body": {
            "code": "invalid_argument",
            "details": [
              {
                "type": "google.rpc.ErrorInfo",
                "value": "{"reason":"VALIDATION_FAILED","domain":"gatehouse"}",
              },
            ],
            "message": "request body is not valid JSON",
          },
          "error": undefined,
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 400,
        },
        "connect=v1&encoding=json&message=%7B%22id%22%3A%20%22usr_00000000000000000000000000%22%7D": {
          "body": {
            "code": "not_found",
            "details": [
              {
                "type": "google.rpc.ErrorInfo",
                "value": "{"reason":"USER_NOT_FOUND","domain":"gatehouse"}",
              },
            ],
            "message": "no such user in this project",
          },
          "error": undefined,
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 404,
        },
        "connect=v1&encoding=json&message=%7B%22id%22%3A%205%7D": {
          "body": {
            "code": "invalid_argument",
            "details": [
              {
                "type": "google.rpc.ErrorInfo",
                "value": "{"reason":"VALIDATION_FAILED","domain":"gatehouse"}",
              },
              {
                "type": "google.rpc.BadRequest",
                "value": "ChYKAmlkEhBtdXN0IGJlIGEgc3RyaW5n",
              },
            ],
            "message": "id: must be a string",
          },
          "error": undefined,
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 400,
        },
        "connect=v1&encoding=proto&base64=1&message=__8": {
          "body": {
            "code": "invalid_argument",
            "details": [
              {
                "type": "google.rpc.ErrorInfo",
                "value": "{"reason":"VALIDATION_FAILED","domain":"gatehouse"}",
              },
            ],
            "message": "request message is not valid protobuf",
          },
          "error": undefined,
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 400,
        },
      }
    `);
  });

  it("over gRPC: bad timeouts, undecodable messages, compressed envelopes, as connect answered them", async () => {
    const message = Buffer.from(toBinary(VerifyTokenRequestSchema, create(VerifyTokenRequestSchema, { token })));
    const cases: Array<[string, Record<string, string>, Uint8Array]> = [
      ["a timeout that does not parse", { ...grpc(), "grpc-timeout": "soon" }, envelope(0, message)],
      ["protobuf that does not parse", grpc(), envelope(0, Buffer.from([0xff, 0xff, 0xff]))],
      ["gzip cut short", { ...grpc(), "grpc-encoding": "gzip" }, envelope(1, truncated(message))],
      ["gzip that is not gzip", { ...grpc(), "grpc-encoding": "gzip" }, envelope(1, Buffer.from("not gzip at all"))],
      [
        "gzip of protobuf that does not parse",
        { ...grpc(), "grpc-encoding": "gzip" },
        envelope(1, gzipSync(Buffer.from([0xff, 0xff]))),
      ],
      ["gzip past the cap once inflated", { ...grpc(), "grpc-encoding": "gzip" }, envelope(1, bomb())],
      ["an encoding the server does not speak", { ...grpc(), "grpc-encoding": "zstd" }, envelope(1, message)],
      [
        "a timeout that does not parse on a compressed message",
        { ...grpc(), "grpc-encoding": "gzip", "grpc-timeout": "1X" },
        envelope(1, gzipSync(message)),
      ],
    ];
    const answers: Record<string, unknown> = {};
    for (const [name, headers, body] of cases)
      answers[name] = readable(await h2(VERIFY, headers, Buffer.from(body)), "grpc", true);
    expect(answers).toMatchInlineSnapshot(`
      {
        "a timeout that does not parse": {
          "body": "",
          "error": {
            "code": 3,
            "details": [
              {
                "domain": "gatehouse",
                "reason": "VALIDATION_FAILED",
              },
            ],
            "message": "protocol error: invalid grpc timeout value: soon",
          },
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/grpc+proto",
            "grpc-message": "protocol%20error%3A%20invalid%20grpc%20timeout%20value%3A%20soon",
            "grpc-status": "3",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 200,
        },
        "a timeout that does not parse on a compressed message": {
          "body": "",
          "error": {
            "code": 3,
            "details": [
              {
                "domain": "gatehouse",
                "reason": "VALIDATION_FAILED",
              },
            ],
            "message": "protocol error: invalid grpc timeout value: 1X",
          },
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/grpc+proto",
            "grpc-encoding": "gzip",
            "grpc-message": "protocol%20error%3A%20invalid%20grpc%20timeout%20value%3A%201X",
            "grpc-status": "3",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 200,
        },
        "an encoding the server does not speak": {
          "body": "",
          "error": {
            "code": 12,
            "details": [
              {
                "domain": "gatehouse",
                "reason": "NOT_IMPLEMENTED",
              },
            ],
            "message": "unknown compression "zstd": supported encodings are gzip,br",
          },
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/grpc+proto",
            "grpc-accept-encoding": "gzip,br, gzip,br",
            "grpc-message": "unknown%20compression%20%22zstd%22%3A%20supported%20encodings%20are%20gzip%2Cbr",
            "grpc-status": "12",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 200,
        },
        "gzip cut short": {
          "body": "",
          "error": {
            "code": 3,
            "details": [
              {
                "domain": "gatehouse",
                "reason": "VALIDATION_FAILED",
              },
            ],
            "message": "request body could not be decompressed",
          },
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/grpc+proto",
            "grpc-encoding": "gzip",
            "grpc-message": "request%20body%20could%20not%20be%20decompressed",
            "grpc-status": "3",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 200,
        },
        "gzip of protobuf that does not parse": {
          "body": "",
          "error": {
            "code": 3,
            "details": [
              {
                "domain": "gatehouse",
                "reason": "VALIDATION_FAILED",
              },
            ],
            "message": "request message is not valid protobuf",
          },
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/grpc+proto",
            "grpc-encoding": "gzip",
            "grpc-message": "request%20message%20is%20not%20valid%20protobuf",
            "grpc-status": "3",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 200,
        },
        "gzip past the cap once inflated": {
          "body": "",
          "error": {
            "code": 8,
            "details": [
              {
                "domain": "gatehouse",
                "reason": "REQUEST_TOO_LARGE",
              },
            ],
            "message": "message is larger than configured readMaxBytes 1048576 after decompression",
          },
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/grpc+proto",
            "grpc-encoding": "gzip",
            "grpc-message": "message%20is%20larger%20than%20configured%20readMaxBytes%201048576%20after%20decompression",
            "grpc-status": "8",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 200,
        },
        "gzip that is not gzip": {
          "body": "",
          "error": {
            "code": 3,
            "details": [
              {
                "domain": "gatehouse",
                "reason": "VALIDATION_FAILED",
              },
            ],
            "message": "decompression failed",
          },
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/grpc+proto",
            "grpc-encoding": "gzip",
            "grpc-message": "decompression%20failed",
            "grpc-status": "3",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 200,
        },
        "protobuf that does not parse": {
          "body": "",
          "error": {
            "code": 3,
            "details": [
              {
                "domain": "gatehouse",
                "reason": "VALIDATION_FAILED",
              },
            ],
            "message": "request message is not valid protobuf",
          },
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/grpc+proto",
            "grpc-message": "request%20message%20is%20not%20valid%20protobuf",
            "grpc-status": "3",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 200,
        },
      }
    `);
    // Brotli, an uncompressed message under grpc-encoding, and grpc-accept-encoding answer as the plain call does.
    for (const [headers, body] of [
      [{ ...grpc(), "grpc-encoding": "br" }, envelope(1, brotliCompressSync(message))],
      [{ ...grpc(), "grpc-encoding": "gzip" }, envelope(0, message)],
      [{ ...grpc(), "grpc-encoding": "gzip", "grpc-accept-encoding": "br" }, envelope(1, gzipSync(message))],
    ] as const) {
      const compressed = await h2(VERIFY, headers, Buffer.from(body));
      const lean = await h2(VERIFY, grpc(), Buffer.from(envelope(0, message)));
      expect(readable(compressed, "grpc"), JSON.stringify(headers)).toEqual(readable(lean, "grpc"));
    }
  });

  it("over REST: values of the wrong type, as connect's decoding failure was explained", async () => {
    const answers: Record<string, unknown> = {};
    for (const [name, path, method, body] of [
      ["a number for the token", "/v1/auth/token/verify", "POST", '{"token": 123}'],
      ["a word for the limit", "/v1/auth/users?limit=ten", "GET", ""],
      ["an object for the id", "/v1/auth/token/verify", "POST", '{"token": {"a": 1}}'],
    ] as const) {
      const answer = await h2(path, json(), Buffer.from(body), method);
      answers[name] = readable(answer, "rest", true);
    }
    expect(answers).toMatchInlineSnapshot(`
      {
        "a number for the token": {
          "body": {
            "code": "invalid_argument",
            "message": "token: must be a string",
            "reason": "VALIDATION_FAILED",
            "violations": [
              {
                "description": "must be a string",
                "field": "token",
              },
            ],
          },
          "error": undefined,
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 400,
        },
        "a word for the limit": {
          "body": {
            "code": "invalid_argument",
            "message": "limit: must be a whole number",
            "reason": "VALIDATION_FAILED",
            "violations": [
              {
                "description": "must be a whole number",
                "field": "limit",
              },
            ],
          },
          "error": undefined,
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 400,
        },
        "an object for the id": {
          "body": {
            "code": "invalid_argument",
            "message": "token: must be a string",
            "reason": "VALIDATION_FAILED",
            "violations": [
              {
                "description": "must be a string",
                "field": "token",
              },
            ],
          },
          "error": undefined,
          "headers": {
            "cache-control": "no-store",
            "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
            "content-type": "application/json",
            "vary": "Origin",
            "x-content-type-options": "nosniff",
            Symbol(sensitiveHeaders): [],
          },
          "status": 400,
        },
      }
    `);
  });
});
