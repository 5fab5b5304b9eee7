import { connect as h2connect } from "node:http2";
import { connect as netConnect } from "node:net";
import { Writable } from "node:stream";
import { Client, credentials as grpcCredentials, Metadata, type ServiceError } from "@grpc/grpc-js";
import { fromBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { startGatehouse, type Gatehouse } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/log.js";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { connect, http, type HttpAnswer } from "../helpers/clients.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { TEST_ARGON2_ENV, TEST_SECRET_ENV, type TestServer } from "../helpers/server.js";
import { WAIT_GUARD_MS } from "../helpers/patience.js";

// Threats: a token answer kept by a browser or proxy cache; a JSON answer sniffed or framed
// into something a browser runs; an error that shows a stack trace or SQL; an error or log
// line that cannot be tied to its request; headers without bound tying up memory. Checked on
// the wire, each as a client or operator would see it.

const CSP = "default-src 'none'; frame-ancestors 'none'";

describe("HTTP hygiene", () => {
  let server: TestServer;
  let app: AuthFixture;
  let port: number;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    // The server of startTestServer, with its log lines captured.
    const database: TestDatabase = await createTestDatabase();
    const config = loadConfig({
      ...TEST_ARGON2_ENV,
      ...TEST_SECRET_ENV,
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: database.dataDir,
      DATABASE_URL: database.databaseUrl,
      LOG_LEVEL: "debug",
    });
    const capture = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString("utf8").split("\n"))
          if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const gatehouse: Gatehouse = await startGatehouse(config, { logger: createLogger("debug", capture) });
    server = {
      ...gatehouse,
      database,
      async stop() {
        await gatehouse.close();
        await database.drop();
      },
    };
    port = Number(new URL(server.url).port);
    app = await authFixture(server);
  });
  afterAll(() => server?.stop());

  function expectDefaults(answer: HttpAnswer | Response, what: string): void {
    expect(answer.headers.get("x-content-type-options"), what).toBe("nosniff");
    expect(answer.headers.get("content-security-policy"), what).toBe(CSP);
  }

  it("token and key answers are never cached, and every answer forbids sniffing and framing", async () => {
    const email = `hygiene-${Date.now()}@example.com`;
    const password = "a sturdy passphrase 1";
    const signup = await app.call("POST", "/v1/auth/signup", { email, password });
    const login = await app.call("POST", "/v1/auth/login", { email, password });
    const refresh = await app.call("POST", "/v1/auth/token/refresh", { refresh_token: login.body.refresh_token });
    const connectLogin = await connect(server.url, "auth", "Login", { email, password }, { "x-service-key": app.key });
    const management = await app.admin();
    const accountLogin = await http(`${server.url}/v1/account/login`, {
      body: { email: "nobody@example.com", password },
    });
    const projects = await http(`${server.url}/v1/projects`, { headers: management });
    const apiKey = await http(`${server.url}/v1/api-keys`, {
      headers: management,
      body: { project_id: projects.body.data[0]?.id ?? "", label: "hygiene" },
    });
    const tokens: Array<[string, HttpAnswer]> = [
      ["REST signup", signup],
      ["REST login", login],
      ["REST refresh", refresh],
      ["Connect login", connectLogin],
      ["account login refused", accountLogin],
      ["CreateApiKey", apiKey],
    ];
    for (const [what, answer] of tokens) {
      expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBeLessThan(500);
      expect(answer.headers.get("cache-control"), what).toBe("no-store");
      expectDefaults(answer, what);
    }
    expect(signup.status).toBe(200);
    expect(apiKey.status, JSON.stringify(apiKey.body)).toBe(200);
    expect(apiKey.body.key).toMatch(/^gk_/);

    // Errors, plain routes and preflights too; JWKS keeps its own public caching.
    const others: Array<[string, HttpAnswer | Response]> = [
      ["404", await http(`${server.url}/v1/nowhere`)],
      ["401", await app.call("GET", "/v1/auth/users", undefined, undefined, { "x-service-key": "gk_wrong" })],
      ["healthz", await http(`${server.url}/healthz`)],
      [
        "preflight",
        await fetch(`${server.url}/v1/auth/login`, {
          method: "OPTIONS",
          headers: { origin: "https://app.example.com", "access-control-request-method": "POST" },
        }),
      ],
    ];
    for (const [what, answer] of others) expectDefaults(answer, what);
    const jwks = await http(`${server.url}/v1/auth/${app.loginId}/.well-known/jwks.json`);
    expect(jwks.status).toBe(200);
    expect(jwks.headers.get("cache-control")).toBe("public, max-age=300");
    expectDefaults(jwks, "jwks");
  });

  it("an unexpected failure answers INTERNAL_ERROR with no SQL or stack, and its log lines carry the request id", async () => {
    // A query that fails the way a broken database would: the users table is gone for a moment.
    await server.deps.db.dataSource.query(`ALTER TABLE users RENAME TO users_hidden`);
    let rest: HttpAnswer;
    let viaConnect: HttpAnswer;
    try {
      rest = await app.call("GET", "/v1/auth/users");
      viaConnect = await connect(server.url, "auth", "ListUsers", {}, { "x-service-key": app.key });
    } finally {
      await server.deps.db.dataSource.query(`ALTER TABLE users_hidden RENAME TO users`);
    }
    expect({ status: rest.status, reason: rest.body.reason, message: rest.body.message }).toEqual({
      status: 500,
      reason: "INTERNAL_ERROR",
      message: "internal error",
    });
    expect(JSON.stringify(rest.body)).not.toMatch(/users|SELECT|relation|at .*\.ts|QueryFailed/);
    expect(JSON.stringify(viaConnect.body)).not.toMatch(/users|SELECT|relation|at .*\.ts|QueryFailed/);
    const requestId = rest.headers.get("x-request-id")!;
    expect(rest.body.request_id).toBe(requestId);

    // Every line written while the request ran names it: the access line, the error and the
    // failed query (logged by TypeORM, which knows nothing of requests).
    await new Promise((r) => setTimeout(r, 100));
    const ofRequest = lines.filter((line) => line.request_id === requestId).map((line) => line.msg);
    expect(ofRequest).toEqual(expect.arrayContaining(["sql failed", "unexpected error", "request"]));
    const duringRequest = lines.filter((line) => line.msg === "sql failed" && String(line.err).includes("users"));
    expect(duringRequest.length).toBeGreaterThan(0);
    for (const line of duringRequest) expect(line.request_id, JSON.stringify(line)).toMatch(/^req_/);
  });

  it("every error names its request: the REST body, Connect's and gRPC's ErrorInfo", async () => {
    const rest = await app.call("GET", "/v1/auth/users/usr_00000000000000000000000000");
    expect(rest.status).toBe(404);
    expect(rest.body.request_id).toBe(rest.headers.get("x-request-id"));

    const viaConnect = await connect(
      server.url,
      "auth",
      "GetUser",
      { id: "usr_00000000000000000000000000" },
      { "x-service-key": app.key },
    );
    const info = (viaConnect.body.details as Array<{ type: string; value: string }>).find(
      (d) => d.type === "google.rpc.ErrorInfo",
    )!;
    expect(fromBinary(ErrorInfoSchema, Buffer.from(info.value, "base64")).metadata.request_id).toBe(
      viaConnect.headers.get("x-request-id"),
    );

    // gRPC, for an error raised in a handler and one raised by the framework (bytes that are not protobuf).
    for (const body of [Buffer.from([0x0a, 0x03, 0x75, 0x73, 0x72]), Buffer.from([0xff, 0xff, 0xff])]) {
      const error = await grpcError(port, "/gatehouse.auth.v1.AuthService/GetUser", body, app.key);
      const status = error.metadata.get("grpc-status-details-bin")[0] as Buffer;
      expect(status, error.details).toBeDefined();
      expect(decodeRequestId(status)).toMatch(/^req_/);
    }
  });

  it("a request Node's HTTP/1.1 parser refuses is answered 400 in the API's error shape, not with a bare status line", async () => {
    for (const garbage of [
      "NOT HTTP AT ALL\r\n\r\n",
      "GET /healthz HTTP/1.1\r\nhost x\r\n\r\n",
      "GET /healthz HTTP/1.1\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\n",
    ]) {
      const answer = await rawHttp1(port, garbage);
      expect(answer, JSON.stringify(garbage)).toMatch(/^HTTP\/1\.1 400 /);
      expectApiError(answer, "VALIDATION_FAILED");
    }
    // On a kept-alive connection that already answered a request, the next one is answered too.
    const second = await rawHttp1(port, [
      "GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n",
      `GET /healthz HTTP/1.1\r\nhost: x\r\nx-big: ${"a".repeat(17 * 1024)}\r\n\r\n`,
    ]);
    expect(second).toMatch(/^HTTP\/1\.1 200 /);
    expect(second).toMatch(/\r\n\r\n\{[^]*HTTP\/1\.1 431 /);
    expectApiError(second.slice(second.lastIndexOf("HTTP/1.1 431")), "HEADERS_TOO_LARGE");
    // The service still answers.
    expect(await rawHttp1(port, "GET /healthz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")).toMatch(
      /^HTTP\/1\.1 200 /,
    );
  });

  it("more than 100 header fields, or a header block over 16 KiB, is 431 on HTTP/1.1 and HTTP/2", async () => {
    const many = Array.from({ length: 101 }, (_, i) => `x-h${i}: v\r\n`).join("");
    const count = await rawHttp1(port, `GET /healthz HTTP/1.1\r\nhost: x\r\n${many}\r\n`);
    expect(count).toMatch(/^HTTP\/1\.1 431 /);
    expect(count).toContain('"reason":"HEADERS_TOO_LARGE"');
    // Refused by Node's parser before any handler, yet answered like every other error.
    const big = await rawHttp1(port, `GET /healthz HTTP/1.1\r\nhost: x\r\nx-big: ${"a".repeat(17 * 1024)}\r\n\r\n`);
    expect(big).toMatch(/^HTTP\/1\.1 431 /);
    expectApiError(big, "HEADERS_TOO_LARGE");
    // 100 fields are fine.
    const hundred = Array.from({ length: 98 }, (_, i) => `x-h${i}: v\r\n`).join("");
    expect(await rawHttp1(port, `GET /healthz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n${hundred}\r\n`)).toMatch(
      /^HTTP\/1\.1 200 /,
    );

    const fields = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`x-h${i}`, "v"]));
    expect(await http2Status(port, fields)).toBe("431");
    expect(await http2Status(port, { "x-big": "a".repeat(17 * 1024) })).toBe("431");
    expect(await http2Status(port, { "x-small": "a" })).toBe("200");
    // Past nghttp2's own limits there is no answer to give: the stream is refused or reset.
    expect(await http2Status(port, { "x-big": "a".repeat(70 * 1024) })).toMatch(/^reset/);
  });
});

function grpcError(port: number, path: string, body: Buffer, key: string): Promise<ServiceError> {
  const client = new Client(`127.0.0.1:${port}`, grpcCredentials.createInsecure());
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

/** The request_id in the ErrorInfo of a google.rpc.Status (grpc-status-details-bin). */
function decodeRequestId(status: Buffer): string | undefined {
  // google.rpc.Status{details(3): Any{type_url(1), value(2)}}: read with the generated Any-free path.
  let at = 0;
  while (at < status.length) {
    const tag = status[at++];
    const [length, next] = varint(status, at);
    at = next;
    if (tag === 0x1a) {
      const any = status.subarray(at, at + length);
      const [typeLength, typeAt] = varint(any, 1);
      const typeUrl = any.subarray(typeAt, typeAt + typeLength).toString();
      if (typeUrl.endsWith("google.rpc.ErrorInfo")) {
        const [valueLength, valueAt] = varint(any, typeAt + typeLength + 1);
        return fromBinary(ErrorInfoSchema, any.subarray(valueAt, valueAt + valueLength)).metadata.request_id;
      }
    }
    if ((tag & 7) === 2) at += length;
  }
  return undefined;
}

function varint(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

/** An answer in the API's error shape: its reason, a request id quoted in header and body, the hygiene headers, the connection closed. */
function expectApiError(raw: string, reason: string): void {
  const [head, body] = raw.split("\r\n\r\n");
  const parsed = JSON.parse(body) as { reason: string; request_id: string };
  expect(parsed.reason).toBe(reason);
  expect(parsed.request_id).toMatch(/^req_/);
  expect(head).toContain(`x-request-id: ${parsed.request_id}`);
  expect(head).toContain("x-content-type-options: nosniff");
  expect(head).toContain("cache-control: no-store");
  expect(head).toContain("connection: close");
}

/**
 * Writes each request on one new connection, the next once the answer before it is whole, and
 * reads until every request is answered or the server closes.
 */
function rawHttp1(port: number, requests: string | string[]): Promise<string> {
  const queue = typeof requests === "string" ? [requests] : requests;
  let sent = 1;
  return new Promise((resolve) => {
    const socket = netConnect(port, "127.0.0.1", () => socket.write(queue[0]));
    let data = "";
    socket.on("data", (d: Buffer) => {
      data += d.toString("utf8");
      const answered = complete(data);
      if (answered >= queue.length) socket.end();
      else if (answered === sent) socket.write(queue[sent++]);
    });
    socket.on("close", () => resolve(data));
    socket.on("error", () => resolve(data));
    setTimeout(() => socket.destroy(), WAIT_GUARD_MS);
  });
}

/** How many whole answers (head and content-length body) `data` holds. */
function complete(data: string): number {
  let count = 0;
  for (let at = 0; ; count++) {
    const end = data.indexOf("\r\n\r\n", at);
    if (end < 0) return count;
    const length = Number(/content-length: (\d+)/i.exec(data.slice(at, end))?.[1] ?? 0);
    if (data.length - end - 4 < length) return count;
    at = end + 4 + length;
  }
}

function http2Status(port: number, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    const session = h2connect(`http://127.0.0.1:${port}`);
    session.on("error", () => {});
    const stream = session.request({ ":method": "GET", ":path": "/healthz", ...headers });
    stream.on("response", (h) => resolve(String(h[":status"])));
    stream.on("error", () => {});
    stream.on("close", () => {
      resolve(`reset ${stream.rstCode}`);
      session.close();
    });
    stream.end();
  });
}
