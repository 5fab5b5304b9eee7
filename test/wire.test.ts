import { connect as netConnect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { create, toJson } from "@bufbuild/protobuf";
import { AccountService } from "../gen/gatehouse/account/v1/account_pb.js";
import { CreateApiKeyResponseSchema } from "../gen/gatehouse/account/v1/api_keys_pb.js";
import { ListProjectsResponseSchema } from "../gen/gatehouse/account/v1/projects_pb.js";
import { ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { ErrorInfoSchema } from "../gen/google/rpc/error_details_pb.js";
import { JSON_OPTIONS } from "../src/api-router.js";
import { connect, connectReason, grpcCall, grpcClient, http } from "./helpers/clients.js";
import { seedApiKey, seedOrganization, seedProject } from "./helpers/seed.js";
import { type TestServer } from "./helpers/server.js";
import { sharedTestServer } from "./helpers/shared-server.js";

describe("wire conventions", () => {
  let server: TestServer;
  let email: string;
  let password: string;
  let key: string;
  /** What a web page holds: secret keys are refused with an Origin. */
  let pageKey: string;

  beforeAll(async () => {
    server = await sharedTestServer();
    const seeded = await seedOrganization(server.deps);
    email = seeded.email;
    password = seeded.password;
    const project = await seedProject(server.deps, seeded.organization, ["https://app.example.com"]);
    key = (await seedApiKey(server.deps, project)).key;
    pageKey = (await seedApiKey(server.deps, project, { kind: "publishable", scopes: ["auth:read", "auth:write"] }))
      .key;
  });
  afterAll(() => server?.stop());

  it("the same call is answered identically over REST and Connect", async () => {
    const body = { email, password };
    const rest = await http(`${server.url}/v1/account/login`, { body });
    const viaConnect = await connect(server.url, "account", "Login", body);
    expect(rest.status).toBe(200);
    expect(viaConnect.status).toBe(200);
    expect(Object.keys(rest.body).sort()).toEqual([
      "expires_at",
      "management_token",
      "mfa_methods",
      "organization_id",
      "organizations",
    ]);
    expect(Object.keys(viaConnect.body).sort()).toEqual(Object.keys(rest.body).sort());
    for (const answer of [rest.body, viaConnect.body]) {
      expect(answer.management_token).toMatch(/^gmt_[A-Za-z0-9_-]{43}$/);
      const lifetime = Date.parse(answer.expires_at) - Date.now();
      expect(lifetime).toBeGreaterThan(12 * 3600_000 - 60_000);
      expect(lifetime).toBeLessThanOrEqual(12 * 3600_000);
      expect(answer.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    }
    expect(rest.body.management_token).not.toBe(viaConnect.body.management_token);

    const wrong = { email, password: "not the password" };
    const restError = await http(`${server.url}/v1/account/login`, { body: wrong });
    const connectError = await connect(server.url, "account", "Login", wrong);
    expect(restError.status).toBe(connectError.status);
    expect(restError.body.code).toBe(connectError.body.code);
    expect(restError.body.message).toBe(connectError.body.message);
    expect(restError.body.reason).toBe(connectReason(connectError.body));
  });

  it("gRPC answers the same call with the same fields", async () => {
    const answer = await grpcCall(grpcClient(server.port, "account"), "Login", { email, password });
    expect(answer.error).toBeUndefined();
    expect(answer.response.management_token).toMatch(/^gmt_/);
    expect(Number(answer.response.expires_at.seconds)).toBeGreaterThan(Date.now() / 1000 + 11 * 3600);
  });

  it("connect-es clients (Connect JSON and binary, HTTP/1.1 and HTTP/2) get answers and errors with reasons", async () => {
    for (const options of [
      { httpVersion: "1.1" as const, useBinaryFormat: false },
      { httpVersion: "1.1" as const, useBinaryFormat: true },
      { httpVersion: "2" as const, useBinaryFormat: false },
    ]) {
      const client = createClient(AccountService, createConnectTransport({ baseUrl: server.url, ...options }));
      const token = await client.login({ email, password });
      expect(token.managementToken, JSON.stringify(options)).toMatch(/^gmt_/);
      const failure = await client
        .login({ email, password: "wrong password" })
        .catch((e: unknown) => ConnectError.from(e));
      expect((failure as ConnectError).findDetails(ErrorInfoSchema)[0]?.reason, JSON.stringify(options)).toBe(
        "INVALID_CREDENTIALS",
      );
    }
  });

  it("gRPC-Web serves the same RPCs", async () => {
    const client = createClient(AccountService, createGrpcWebTransport({ baseUrl: server.url, httpVersion: "1.1" }));
    const token = await client.login({ email, password });
    expect(token.managementToken).toMatch(/^gmt_/);
    const failure = await client
      .login({ email, password: "wrong password" })
      .catch((e: unknown) => ConnectError.from(e));
    expect(failure).toBeInstanceOf(ConnectError);
    expect((failure as ConnectError).findDetails(ErrorInfoSchema)[0]?.reason).toBe("INVALID_CREDENTIALS");
  });

  it("an unknown email and a wrong password get the same answer", async () => {
    const unknown = await http(`${server.url}/v1/account/login`, { body: { email: "nobody@example.com", password } });
    const wrong = await http(`${server.url}/v1/account/login`, { body: { email, password: "wrong password" } });
    expect(unknown.status).toBe(401);
    const strip = (b: any) => ({ ...b, request_id: undefined });
    expect(strip(unknown.body)).toEqual(strip(wrong.body));
    expect(unknown.body.reason).toBe("INVALID_CREDENTIALS");
  });

  it("unknown JSON fields are ignored", async () => {
    const res = await http(`${server.url}/v1/account/login`, {
      body: { email, password, remember_me: true, extra: { a: 1 } },
    });
    expect(res.status).toBe(200);
    const viaConnect = await connect(server.url, "account", "Login", { email, password, remember_me: true });
    expect(viaConnect.status).toBe(200);
  });

  it("JSON uses proto field names, writes defaults and writes a null expires_at", () => {
    expect(toJson(ListProjectsResponseSchema, create(ListProjectsResponseSchema), JSON_OPTIONS)).toEqual({
      data: [],
      next_cursor: "",
      has_more: false,
    });
    const key = toJson(
      CreateApiKeyResponseSchema,
      create(CreateApiKeyResponseSchema, { expiresAt: { kind: { case: "nullValue", value: 0 } } }),
      JSON_OPTIONS,
    ) as Record<string, unknown>;
    expect(key.expires_at).toBeNull();
    expect(key).toHaveProperty("project_id", "");
    expect(key).toHaveProperty("scopes", []);
  });

  it("validation failures name every field on REST, Connect and gRPC", async () => {
    const body = { email: "not-an-email", password: "short" };
    const rest = await http(`${server.url}/v1/auth/signup`, { body, headers: { "x-service-key": key } });
    expect(rest.status).toBe(400);
    expect(rest.body.code).toBe("invalid_argument");
    expect(rest.body.reason).toBe("VALIDATION_FAILED");
    expect(rest.body.violations).toEqual([
      { field: "email", description: "must be an email address" },
      { field: "password", description: "must be at least 8 characters" },
    ]);
    const viaConnect = await connect(server.url, "auth", "Signup", body, { "x-service-key": key });
    expect(viaConnect.status).toBe(400);
    expect(connectReason(viaConnect.body)).toBe("VALIDATION_FAILED");
    expect(viaConnect.body.message).toContain("email: must be an email address");
    const viaGrpc = await grpcCall(grpcClient(server.port, "auth"), "Signup", body, { "x-service-key": key });
    expect(viaGrpc.error?.code).toBe(3);
    expect(viaGrpc.reason).toBe("VALIDATION_FAILED");
  });

  it("query parameters are typed and validated on REST", async () => {
    const tooMany = await http(`${server.url}/v1/auth/users?limit=500&search=a`, { headers: { "x-service-key": key } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.violations).toEqual([{ field: "limit", description: "must be at most 100" }]);
    const notANumber = await http(`${server.url}/v1/auth/users?limit=many`, { headers: { "x-service-key": key } });
    expect(notANumber.status).toBe(400);
    expect(notANumber.body.reason).toBe("VALIDATION_FAILED");
    const fine = await http(`${server.url}/v1/auth/users?limit=5`, { headers: { "x-service-key": key } });
    expect(fine.status).toBe(200);
  });

  it("malformed JSON is a 400 with a clear reason", async () => {
    const rest = await http(`${server.url}/v1/account/login`, { body: '{"email": "a@b.c", ' });
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({
      code: "invalid_argument",
      reason: "VALIDATION_FAILED",
      message: "request body is not valid JSON",
    });
    const notAnObject = await http(`${server.url}/v1/account/login`, { body: "[1,2]" });
    expect(notAnObject.status).toBe(400);
    const viaConnect = await connect(server.url, "account", "Login", '{"email": ');
    expect(viaConnect.status).toBe(400);
    expect(viaConnect.body.code).toBe("invalid_argument");
  });

  describe("a 2 MiB body is refused", () => {
    const big = JSON.stringify({ email: "a@example.com", password: "x".repeat(2 * 1024 * 1024) });

    it("on REST, with Content-Length", async () => {
      const res = await http(`${server.url}/v1/account/login`, { body: big });
      expect(res.status).toBe(413);
      expect(res.body.reason).toBe("REQUEST_TOO_LARGE");
    });

    it("on REST, chunked without Content-Length", async () => {
      // 64 MiB offered in 64 KiB chunks: the server must answer long before it is all sent.
      const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 1024) return controller.close();
          sent++;
          controller.enqueue(chunk);
        },
      });
      const res = await fetch(`${server.url}/v1/account/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: stream,
        duplex: "half",
      });
      expect(res.status).toBe(413);
      expect(((await res.json()) as { reason: string }).reason).toBe("REQUEST_TOO_LARGE");
      expect(sent).toBeLessThan(1024);
    });

    it("on Connect", async () => {
      const res = await connect(server.url, "account", "Login", big);
      expect(res.status).toBe(413);
      expect(res.body.code).toBe("resource_exhausted");
    });

    it("on gRPC", async () => {
      const answer = await grpcCall(grpcClient(server.port, "account"), "Login", {
        email: "a@example.com",
        password: "x".repeat(2 * 1024 * 1024),
      });
      expect(answer.error?.code).toBe(8);
    });
  });

  it("every response carries x-request-id, errors repeat it in the body", async () => {
    const ok = await http(`${server.url}/healthz`);
    const missing = await http(`${server.url}/v1/nothing-here`);
    expect(ok.headers.get("x-request-id")).toMatch(/^req_/);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: "not_found", reason: "ROUTE_NOT_FOUND" });
    expect(missing.body.request_id).toBe(missing.headers.get("x-request-id"));
    expect(ok.headers.get("x-request-id")).not.toBe(missing.headers.get("x-request-id"));
  });

  it("path variables are read from the REST path", async () => {
    const token = (await http(`${server.url}/v1/account/login`, { body: { email, password } })).body.management_token;
    const headers = { authorization: `Bearer ${token}` };
    const created = await http(`${server.url}/v1/projects`, {
      headers,
      body: { name: "Path test", allowed_origins: ["https://a.example.com"], redirect_url: "https://a.example.com/cb" },
    });
    expect(created.status).toBe(200);
    const res = await http(`${server.url}/v1/projects/${created.body.id}`, { headers });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(created.body.id);
    expect(res.body.name).toBe("Path test");
    const missing = await http(`${server.url}/v1/projects/proj_123`, { headers });
    expect(missing.status).toBe(404);
    expect(missing.body.reason).toBe("PROJECT_NOT_FOUND");
  });

  describe("CORS", () => {
    it("a preflight is answered for any origin", async () => {
      const res = await fetch(`${server.url}/v1/auth/login`, {
        method: "OPTIONS",
        headers: {
          origin: "https://anywhere.example.org",
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type, x-service-key, authorization",
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("https://anywhere.example.org");
      expect(res.headers.get("access-control-allow-headers")).toContain("x-service-key");
      expect(res.headers.get("access-control-allow-methods")).toContain("PATCH");
    });

    it("the real answer allows only the project's origins", async () => {
      const call = (origin: string) =>
        http(`${server.url}/v1/auth/login`, {
          body: { email: "u@example.com", password: "whatever-password" },
          headers: { origin, "x-service-key": pageKey },
        });
      const allowed = await call("https://app.example.com");
      expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
      expect(allowed.headers.get("access-control-expose-headers")).toContain("x-request-id");
      // The request runs for the project's pages only: another origin is refused before any work.
      const other = await call("https://evil.example.net");
      expect(other.status).toBe(403);
      expect(other.body.reason).toBe("ORIGIN_NOT_ALLOWED");
      expect(other.headers.get("access-control-allow-origin")).toBeNull();
    });
  });

  it("HTTP/1.1 and h2c share the port", async () => {
    const first = await new Promise<string>((resolve, reject) => {
      const socket = netConnect(server.port, "127.0.0.1", () =>
        socket.write("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
      );
      let data = "";
      socket.on("data", (d: Buffer) => (data += d.toString()));
      socket.on("end", () => resolve(data));
      socket.on("error", reject);
    });
    expect(first).toMatch(/^HTTP\/1\.1 200 OK/);
    const { connect: h2connect } = await import("node:http2");
    const session = h2connect(server.url);
    const body = await new Promise<string>((resolve, reject) => {
      const req = session.request({ ":path": "/healthz" });
      let data = "";
      req.on("data", (d) => (data += d));
      req.on("end", () => resolve(data));
      req.on("error", reject);
    });
    session.close();
    expect(JSON.parse(body)).toEqual({ status: "ok" });
  });
});
