import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { ClientRequest } from "node:http";
import type { ClientHttp2Stream, ClientSessionRequestOptions, OutgoingHttpHeaders } from "node:http2";
import { gzipSync } from "node:zlib";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { base64Encode } from "@bufbuild/protobuf/wire";
import { ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountService } from "../../gen/gatehouse/account/v1/account_pb.js";
import { AuthService } from "../../gen/gatehouse/auth/v1/auth_pb.js";
import { GetUserRequestSchema, GetUserResponseSchema } from "../../gen/gatehouse/auth/v1/users_pb.js";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { connect, connectReason, connectViolations, http, type HttpAnswer } from "../helpers/clients.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";

// Read RPCs (idempotency_level = NO_SIDE_EFFECTS) answer the Connect protocol's GET form, so a
// browser or a CDN can treat them as the reads they are. Threats: a GET that skips what a POST
// goes through (the API key, the origin check, the hygiene headers, the explained errors), and
// a GET that runs an RPC with side effects, which a link, a prefetch or a crawler could replay.

const APP = "https://app.example.com";
const EVIL = "https://evil.example.net";
const AUTH = "/gatehouse.auth.v1.AuthService";

/** The error a call failed with; a call that succeeds fails the test. */
const failure = (call: Promise<unknown>): Promise<ConnectError> =>
  call.then(
    () => {
      throw new Error("the call succeeded");
    },
    (e: unknown) => ConnectError.from(e),
  );

/** `?connect=v1&encoding=json&message=…`, as connect-es builds it. */
const jsonQuery = (message: unknown) =>
  `connect=v1&encoding=json&message=${encodeURIComponent(JSON.stringify(message))}`;

describe("Connect GET on the read RPCs", () => {
  let server: TestServer;
  let app: AuthFixture;
  let management: Record<string, string>;
  let user: { id: string; email: string; accessToken: string };
  let publishable: string;

  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
    management = await app.admin();
    const signedUp = await app.signup();
    user = { id: signedUp.body.user.id, email: signedUp.email, accessToken: signedUp.body.access_token };
    const created = await http(`${server.url}/v1/api-keys`, {
      headers: management,
      body: { project_id: app.projectId, label: "web", kind: "publishable" },
    });
    expect(created.status).toBe(200);
    publishable = created.body.key;
  });
  afterAll(() => server?.stop());

  const key = () => ({ "x-service-key": app.key });

  it("connect-es with useHttpGet sends GET for GetUser, ListUsers, ListSessions and ListProjects and gets the same answers as POST", async () => {
    // The HTTP method is chosen below the interceptors, so it is read where the request leaves:
    // node:http's diagnostics channel on HTTP/1.1 (counted at the answer: "request.start" fires twice
    // for a GET on a reused socket), the session manager on HTTP/2.
    const methods: string[] = [];
    const onHttp1 = ({ request }: { request: ClientRequest }) => {
      if (request.host === "127.0.0.1")
        methods.push(`${request.path.split("?")[0].split("/").pop()} ${request.method}`);
    };
    class RecordingSessions extends Http2SessionManager {
      override request(
        method: string,
        path: string,
        headers: OutgoingHttpHeaders,
        options: Omit<ClientSessionRequestOptions, "signal">,
      ): Promise<ClientHttp2Stream> {
        methods.push(`${path.split("?")[0].split("/").pop()} ${method}`);
        return super.request(method, path, headers, options);
      }
    }
    subscribe("http.client.response.finish", onHttp1 as (message: unknown) => void);
    try {
      for (const httpVersion of ["1.1", "2"] as const) {
        await callEverything(httpVersion, httpVersion === "2" ? new RecordingSessions(server.url) : undefined);
        expect(methods.splice(0), httpVersion).toEqual([
          "GetUser GET",
          "GetUser POST",
          "ListUsers GET",
          "ListSessions GET",
          "ListProjects GET",
          "VerifyToken POST",
          "GetUser GET",
          "GetUser GET",
        ]);
      }
    } finally {
      unsubscribe("http.client.response.finish", onHttp1 as (message: unknown) => void);
    }
  });

  async function callEverything(
    httpVersion: "1.1" | "2",
    sessionManager: Http2SessionManager | undefined,
  ): Promise<void> {
    const withHeaders =
      (headers: Record<string, string>): Interceptor =>
      (next) =>
      (req) => {
        for (const [name, value] of Object.entries(headers)) req.header.set(name, value);
        return next(req);
      };
    const transport = (headers: Record<string, string>, useHttpGet: boolean) =>
      createConnectTransport(
        httpVersion === "2"
          ? { baseUrl: server.url, httpVersion, useHttpGet, sessionManager, interceptors: [withHeaders(headers)] }
          : { baseUrl: server.url, httpVersion, useHttpGet, interceptors: [withHeaders(headers)] },
      );
    const get = (headers: Record<string, string>) => transport(headers, true);
    const post = (headers: Record<string, string>) => transport(headers, false);

    const auth = createClient(AuthService, get(key()));
    const got = await auth.getUser({ id: user.id });
    expect(got.email).toBe(user.email);
    expect(got).toEqual(await createClient(AuthService, post(key())).getUser({ id: user.id }));
    const list = await auth.listUsers({ limit: 5 });
    expect(list.data.map((u) => u.id)).toContain(user.id);
    const sessions = await createClient(
      AuthService,
      get({ ...key(), authorization: `Bearer ${user.accessToken}` }),
    ).listSessions({});
    expect(sessions.data).toHaveLength(1);
    const projects = await createClient(AccountService, get(management)).listProjects({});
    expect(projects.data.map((p) => p.id)).toContain(app.projectId);
    // A write on the same transport still goes as POST.
    const verified = await auth.verifyToken({ token: user.accessToken });
    expect(verified.valid).toBe(true);

    // Errors reach the client with their reason, as over POST.
    const missing = await failure(auth.getUser({ id: "usr_00000000000000000000000000" }));
    expect(missing.findDetails(ErrorInfoSchema)[0]?.reason, httpVersion).toBe("USER_NOT_FOUND");
    const noKey = await failure(createClient(AuthService, get({})).getUser({ id: user.id }));
    expect(noKey.findDetails(ErrorInfoSchema)[0]?.reason, httpVersion).toBe("MISSING_API_KEY");
  }

  it("raw GET with JSON: the answer, the hygiene headers, and no caching of a personal answer", async () => {
    const res = await http(`${server.url}${AUTH}/GetUser?${jsonQuery({ id: user.id })}`, { headers: key() });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toMatchObject({ id: user.id, email: user.email, email_verified: false });
    expect(res.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("vary")).toContain("Origin");
  });

  it("raw GET with binary protobuf in base64url, and with a gzip-compressed message", async () => {
    const message = base64Encode(toBinary(GetUserRequestSchema, create(GetUserRequestSchema, { id: user.id })), "url");
    const res = await fetch(`${server.url}${AUTH}/GetUser?connect=v1&encoding=proto&base64=1&message=${message}`, {
      headers: key(),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/proto");
    expect(fromBinary(GetUserResponseSchema, new Uint8Array(await res.arrayBuffer())).email).toBe(user.email);

    const zipped = base64Encode(gzipSync(Buffer.from(JSON.stringify({ id: user.id }))), "url");
    const gz = await http(
      `${server.url}${AUTH}/GetUser?connect=v1&encoding=json&base64=1&compression=gzip&message=${zipped}`,
      { headers: key() },
    );
    expect({ status: gz.status, email: gz.body?.email }).toEqual({ status: 200, email: user.email });
  });

  /** status, code, reason and violations of a Connect error body, the parts GET and POST must share. */
  const shape = (a: HttpAnswer) => ({
    status: a.status,
    code: a.body?.code,
    reason: connectReason(a.body),
    violations: connectViolations(a.body),
    message: a.body?.message,
  });

  it("errors are the POST's: credentials, scopes, missing resources, values of the wrong type", async () => {
    const created = await http(`${server.url}/v1/api-keys`, {
      headers: management,
      body: { project_id: app.projectId, label: "read", scopes: ["auth:read"] },
    });
    const readOnly = created.body.key as string;
    const cases: Array<[string, string, unknown, Record<string, string>, number, string]> = [
      ["no API key", "GetUser", { id: user.id }, {}, 401, "MISSING_API_KEY"],
      ["a wrong API key", "GetUser", { id: user.id }, { "x-service-key": "gk_wrong" }, 401, "INVALID_API_KEY"],
      ["a key without users:read", "GetUser", { id: user.id }, { "x-service-key": readOnly }, 403, "SCOPE_REQUIRED"],
      ["an unknown user", "GetUser", { id: "usr_00000000000000000000000000" }, key(), 404, "USER_NOT_FOUND"],
      ["no access token", "ListSessions", {}, key(), 401, "MISSING_ACCESS_TOKEN"],
      ["a word for an integer", "ListUsers", { limit: "ten" }, key(), 400, "VALIDATION_FAILED"],
      ["a limit out of range", "ListUsers", { limit: 1000 }, key(), 400, "VALIDATION_FAILED"],
    ];
    for (const [what, rpc, message, headers, status, reason] of cases) {
      const viaGet = await http(`${server.url}${AUTH}/${rpc}?${jsonQuery(message)}`, { headers });
      const viaPost = await connect(server.url, "auth", rpc, message, headers);
      expect({ what, ...shape(viaGet) }).toEqual({ what, ...shape(viaPost) });
      expect({ what, status: viaGet.status, reason: connectReason(viaGet.body) }).toEqual({ what, status, reason });
    }
    const wrongType = await http(`${server.url}${AUTH}/ListUsers?${jsonQuery({ limit: "ten" })}`, { headers: key() });
    expect(connectViolations(wrongType.body)).toEqual([{ field: "limit", description: "must be a whole number" }]);
  });

  it("malformed GET messages are the API's errors: bad JSON, bad base64, no encoding, a foreign protocol version", async () => {
    const bad = await http(
      `${server.url}${AUTH}/GetUser?connect=v1&encoding=json&message=${encodeURIComponent('{"id": ')}`,
      { headers: key() },
    );
    expect({ status: bad.status, reason: connectReason(bad.body), message: bad.body.message }).toEqual({
      status: 400,
      reason: "VALIDATION_FAILED",
      message: "request body is not valid JSON",
    });
    for (const [query, status, reason] of [
      ["connect=v1&encoding=proto&base64=1&message=%25%25%25", 400, "VALIDATION_FAILED"],
      [`connect=v1&message=${encodeURIComponent("{}")}`, 415, "UNSUPPORTED_MEDIA_TYPE"],
      [`connect=v1&encoding=xml&message=${encodeURIComponent("{}")}`, 415, "UNSUPPORTED_MEDIA_TYPE"],
      [`connect=v2&encoding=json&message=${encodeURIComponent("{}")}`, 400, "VALIDATION_FAILED"],
      ["connect=v1&encoding=json", 400, "VALIDATION_FAILED"],
      [`connect=v1&encoding=json&compression=zstd&base64=1&message=e30`, 415, "UNSUPPORTED_MEDIA_TYPE"],
    ] as const) {
      const res = await http(`${server.url}${AUTH}/GetUser?${query}`, { headers: key() });
      expect({ query, status: res.status, reason: connectReason(res.body) }).toEqual({ query, status, reason });
      expect(res.headers.get("x-request-id"), query).toMatch(/^req_/);
    }
  });

  it("a GET of an RPC with side effects is 405 with Allow: POST, and runs nothing", async () => {
    const email = `get-signup-${Date.now()}@example.com`;
    for (const [service, rpc, message] of [
      ["gatehouse.auth.v1.AuthService", "Signup", { email, password: "a sturdy passphrase 1" }],
      ["gatehouse.auth.v1.AuthService", "Login", { email: user.email, password: "a sturdy passphrase 1" }],
      ["gatehouse.auth.v1.AuthService", "DeleteUser", { id: user.id }],
      ["gatehouse.account.v1.AccountService", "CreateProject", { name: "by GET" }],
      ["grpc.health.v1.Health", "Check", {}],
      ["grpc.health.v1.Health", "Watch", {}],
    ] as const) {
      const res = await http(`${server.url}/${service}/${rpc}?${jsonQuery(message)}`, {
        headers: { ...key(), ...management },
      });
      expect({
        rpc,
        status: res.status,
        allow: res.headers.get("allow"),
        code: res.body?.code,
        reason: connectReason(res.body),
      }).toEqual({
        rpc,
        status: 405,
        allow: "POST",
        code: "unimplemented",
        reason: "METHOD_NOT_ALLOWED",
      });
      expect(res.body.message).toBe(`GET is not allowed on /${service}/${rpc}; allowed: POST`);
    }
    const users = await app.call("GET", `/v1/auth/users?search=${encodeURIComponent(email)}`);
    expect(users.body.data).toEqual([]);
    expect((await app.call("GET", `/v1/auth/users/${user.id}`)).status).toBe(200);
  });

  it("browser origins are judged as on POST: the project's origin is allowed, a foreign one and a secret key are refused", async () => {
    const asUser = { "x-service-key": publishable, authorization: `Bearer ${user.accessToken}` };
    const allowed = await http(`${server.url}${AUTH}/ListSessions?${jsonQuery({})}`, {
      headers: { ...asUser, origin: APP },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(APP);
    expect(allowed.headers.get("access-control-expose-headers")).toContain("x-request-id");

    const foreign = await http(`${server.url}${AUTH}/ListSessions?${jsonQuery({})}`, {
      headers: { ...asUser, origin: EVIL },
    });
    expect({
      status: foreign.status,
      reason: connectReason(foreign.body),
      acao: foreign.headers.get("access-control-allow-origin"),
    }).toEqual({
      status: 403,
      reason: "ORIGIN_NOT_ALLOWED",
      acao: null,
    });
    const secret = await http(`${server.url}${AUTH}/GetUser?${jsonQuery({ id: user.id })}`, {
      headers: { ...key(), origin: APP },
    });
    expect({ status: secret.status, reason: connectReason(secret.body) }).toEqual({
      status: 403,
      reason: "SECRET_KEY_IN_BROWSER",
    });

    // The preflight a browser sends first lets the GET through with the key header.
    const preflight = await fetch(`${server.url}${AUTH}/ListSessions?${jsonQuery({})}`, {
      method: "OPTIONS",
      headers: {
        origin: APP,
        "access-control-request-method": "GET",
        "access-control-request-headers": "x-service-key, authorization",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("GET");
  });
});
