import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, connectReason, connectViolations, http, type HttpAnswer } from "../helpers/clients.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { authFixture, type AuthFixture } from "../auth/helpers.js";

// Threats: a client that sends a value of the wrong JSON type being told about protobuf's
// internals (`cannot decode field gatehouse.auth.v1.SignupRequest.password …`) instead of which
// field is wrong, with no reason to branch on on Connect; and a wrong HTTP method on a known
// path answered as if the path did not exist, sending the developer looking for a typo.

/** Words from protobuf's own messages that must never reach a client. */
const INTERNALS = /cannot decode|gatehouse\.[a-z]+\.v1|google\.protobuf|Array\(|expected number \(int32\)/;

describe("JSON values of the wrong type are 400 VALIDATION_FAILED naming the field", () => {
  let server: TestServer;
  let app: AuthFixture;
  let management: Record<string, string>;
  let userId: string;

  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
    management = await app.admin();
    userId = (await app.signup()).body.user.id;
  });
  afterAll(() => server?.stop());

  const key = () => ({ "x-service-key": app.key });
  const email = "wrong-types@example.com";
  const password = "a sturdy passphrase 1";

  /** [what, REST call, Connect call, expected violations] */
  const cases = (): Array<
    [
      string,
      { method: string; path: string; body?: string; headers: Record<string, string> },
      { service: "auth" | "account"; rpc: string; body: string; headers: Record<string, string> },
      Array<{ field: string; description: string }>,
    ]
  > => [
    [
      "a number for a string",
      { method: "POST", path: "/v1/auth/signup", body: JSON.stringify({ email, password: 123 }), headers: key() },
      { service: "auth", rpc: "Signup", body: JSON.stringify({ email, password: 123 }), headers: key() },
      [{ field: "password", description: "must be a string" }],
    ],
    [
      "a word for an integer",
      { method: "GET", path: "/v1/auth/users?limit=ten", headers: key() },
      { service: "auth", rpc: "ListUsers", body: JSON.stringify({ limit: "ten" }), headers: key() },
      [{ field: "limit", description: "must be a whole number" }],
    ],
    [
      "an array for the metadata object",
      {
        method: "POST",
        path: "/v1/auth/signup",
        body: JSON.stringify({ email, password, metadata: [1] }),
        headers: key(),
      },
      { service: "auth", rpc: "Signup", body: JSON.stringify({ email, password, metadata: [1] }), headers: key() },
      [{ field: "metadata", description: "must be a JSON object" }],
    ],
    [
      "a string for a boolean, and an object for a string, in one body",
      {
        method: "PATCH",
        path: `/v1/auth/users/${userId}`,
        body: JSON.stringify({ disabled: "yes", email: { a: 1 } }),
        headers: key(),
      },
      {
        service: "auth",
        rpc: "UpdateUser",
        body: JSON.stringify({ id: userId, disabled: "yes", email: { a: 1 } }),
        headers: key(),
      },
      [
        { field: "disabled", description: "must be true or false" },
        { field: "email", description: "must be a string" },
      ],
    ],
    [
      "a number inside a list of strings",
      {
        method: "POST",
        path: "/v1/projects",
        body: JSON.stringify({
          name: "p",
          allowed_origins: ["https://a.example.com", 5],
          redirect_url: "https://a.example.com/cb",
        }),
        headers: management,
      },
      {
        service: "account",
        rpc: "CreateProject",
        body: JSON.stringify({ name: "p", allowed_origins: ["https://a.example.com", 5] }),
        headers: management,
      },
      [{ field: "allowed_origins[1]", description: "must be a string" }],
    ],
    [
      "a string for a list",
      {
        method: "POST",
        path: "/v1/projects",
        body: JSON.stringify({ name: "p", allowed_origins: "https://a.example.com" }),
        headers: management,
      },
      {
        service: "account",
        rpc: "CreateProject",
        body: JSON.stringify({ name: "p", allowed_origins: "https://a.example.com" }),
        headers: management,
      },
      [{ field: "allowed_origins", description: "must be an array whose items are each a string" }],
    ],
    [
      "a fraction for an integer (camelCase JSON name, named by its proto name)",
      {
        method: "POST",
        path: "/v1/projects",
        body: JSON.stringify({ name: "p", tokenExpiry: 1.5 }),
        headers: management,
      },
      {
        service: "account",
        rpc: "CreateProject",
        body: JSON.stringify({ name: "p", tokenExpiry: 1.5 }),
        headers: management,
      },
      [{ field: "token_expiry", description: "must be a whole number" }],
    ],
  ];

  it("on REST and Connect alike, with a plain message and no protobuf internals", async () => {
    for (const [what, rest, viaConnect, violations] of cases()) {
      const r = await http(`${server.url}${rest.path}`, {
        method: rest.method,
        headers: rest.headers,
        body: rest.body,
      });
      expect({
        what,
        status: r.status,
        code: r.body?.code,
        reason: r.body?.reason,
        violations: r.body?.violations,
      }).toEqual({
        what,
        status: 400,
        code: "invalid_argument",
        reason: "VALIDATION_FAILED",
        violations,
      });
      expect(r.body.message, what).toBe(violations.map((v) => `${v.field}: ${v.description}`).join("; "));
      expect(r.body.request_id, what).toBe(r.headers.get("x-request-id"));

      const c = await connect(server.url, viaConnect.service, viaConnect.rpc, viaConnect.body, viaConnect.headers);
      expect({
        what,
        status: c.status,
        code: c.body?.code,
        reason: connectReason(c.body),
        violations: connectViolations(c.body),
      }).toEqual({
        what,
        status: 400,
        code: "invalid_argument",
        reason: "VALIDATION_FAILED",
        violations,
      });
      expect(c.body.message, what).toBe(r.body.message);
      for (const answer of [r, c]) expect(JSON.stringify(answer.body), what).not.toMatch(INTERNALS);
    }
  });

  it("nothing ran: the signups with a wrong type wrote no user", async () => {
    const rows = await server.deps.db.dataSource.query<Array<{ n: number }>>(
      "SELECT count(*)::int AS n FROM users WHERE email = $1",
      [email],
    );
    expect(rows[0].n).toBe(0);
  });

  it.each([
    ["gzip", gzipSync],
    ["br", brotliCompressSync],
  ] as const)("a %s-compressed Connect body is explained the same way", async (encoding, compress) => {
    const res = await fetch(`${server.url}/gatehouse.auth.v1.AuthService/Signup`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-encoding": encoding,
        "connect-protocol-version": "1",
        ...key(),
      },
      body: compress(Buffer.from(JSON.stringify({ email, password: 123 }))),
    });
    const body = await res.json();
    expect({ status: res.status, reason: connectReason(body), violations: connectViolations(body) }).toEqual({
      status: 400,
      reason: "VALIDATION_FAILED",
      violations: [{ field: "password", description: "must be a string" }],
    });
  });

  it("malformed JSON stays VALIDATION_FAILED, now with its reason on Connect too", async () => {
    for (const [body, message] of [
      ['{"email": "a@b.co", ', "request body is not valid JSON"],
      ["[1,2]", "request body must be a JSON object"],
      ['"text"', "request body must be a JSON object"],
    ]) {
      const rest = await http(`${server.url}/v1/auth/signup`, { body, headers: key() });
      expect({ body, status: rest.status, reason: rest.body.reason, message: rest.body.message }).toEqual({
        body,
        status: 400,
        reason: "VALIDATION_FAILED",
        message,
      });
      const c = await connect(server.url, "auth", "Signup", body, key());
      expect({
        body,
        status: c.status,
        code: c.body.code,
        reason: connectReason(c.body),
        message: c.body.message,
      }).toEqual({
        body,
        status: 400,
        code: "invalid_argument",
        reason: "VALIDATION_FAILED",
        message,
      });
    }
  });

  it("a key given twice on Connect names the field", async () => {
    const c = await connect(
      server.url,
      "auth",
      "Signup",
      `{"email":"a@b.co","email":"c@d.co","password":"${password}"}`,
      key(),
    );
    expect({ status: c.status, reason: connectReason(c.body), violations: connectViolations(c.body) }).toEqual({
      status: 400,
      reason: "VALIDATION_FAILED",
      violations: [{ field: "email", description: "appears more than once" }],
    });
  });

  it("a body is decoded before the credentials are checked, so a wrong type answers first (and tells nothing about the project)", async () => {
    const res = await http(`${server.url}/v1/auth/signup`, { body: JSON.stringify({ password: 123 }) });
    expect(res.status).toBe(400);
    expect(res.body.violations).toEqual([{ field: "password", description: "must be a string" }]);
  });

  it("values protobuf JSON accepts are still accepted: numbers as strings, null for a default, unknown fields", async () => {
    const list = await http(`${server.url}/v1/auth/users?limit=5`, { headers: key() });
    expect(list.status).toBe(200);
    const c = await connect(server.url, "auth", "ListUsers", { limit: "5", search: null, unknown: [1] }, key());
    expect(c.status).toBe(200);
  });
});

describe("a wrong HTTP method on a known path is 405 with Allow", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await sharedTestServer();
  });
  afterAll(() => server?.stop());

  const expect405 = (res: HttpAnswer, call: string, allow: string) => {
    expect({
      call,
      status: res.status,
      allow: res.headers.get("allow"),
      code: res.body?.code,
      reason: res.body?.reason,
    }).toEqual({
      call,
      status: 405,
      allow,
      code: "unimplemented",
      reason: "METHOD_NOT_ALLOWED",
    });
    expect(res.body.request_id, call).toBe(res.headers.get("x-request-id"));
    expect(res.body.message, call).toContain(allow);
  };

  it.each([
    ["PUT", "/v1/auth/signup", "POST"],
    ["GET", "/v1/auth/login", "POST"],
    ["DELETE", "/v1/projects", "GET, POST"],
    ["POST", "/v1/auth/users/usr_00000000000000000000000000", "DELETE, GET, PATCH"],
    ["PUT", "/v1/projects/proj_x", "DELETE, GET, PATCH"],
    ["GET", "/v1/auth/sessions/revoke-all", "DELETE, POST"],
    ["PUT", "/v1/auth/sso/authorize", "GET, POST"],
    ["PUT", "/v1/auth/sso/callback", "GET, POST"],
    ["POST", "/healthz", "GET"],
    ["DELETE", "/v1/auth/lp_00000000000000000000000000/.well-known/jwks.json", "GET"],
  ])("%s %s → Allow: %s", async (method, path, allow) => {
    const res = await http(`${server.url}${path}`, { method, body: method === "GET" ? undefined : {} });
    expect405(res, `${method} ${path}`, allow);
  });

  it("before any credential is asked for, and the right method still works", async () => {
    expect405(
      await http(`${server.url}/v1/api-keys`, { method: "PATCH", body: {} }),
      "PATCH /v1/api-keys",
      "GET, POST",
    );
    const right = await http(`${server.url}/v1/api-keys`, {});
    expect({ status: right.status, reason: right.body.reason }).toEqual({
      status: 401,
      reason: "MISSING_MANAGEMENT_TOKEN",
    });
  });

  it.each([
    ["GET", "/v1/nothing-here"],
    ["POST", "/v1/auth/users/usr_x/extra"],
    ["PUT", "/v1/auth"],
    ["GET", "/nothing-here"],
  ])("unknown paths stay 404 ROUTE_NOT_FOUND: %s %s", async (method, path) => {
    const res = await http(`${server.url}${path}`, { method, body: method === "GET" ? undefined : {} });
    expect({ status: res.status, reason: res.body?.reason, allow: res.headers.get("allow") }).toEqual({
      status: 404,
      reason: "ROUTE_NOT_FOUND",
      allow: null,
    });
  });
});
