import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { http } from "../helpers/clients.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { openapi, operations, schemaValidator } from "./document.js";

let server: TestServer;
let auth: AuthFixture;

beforeAll(async () => {
  server = await sharedTestServer();
  auth = await authFixture(server);
});
afterAll(async () => server?.stop());

describe("GET /openapi.json", () => {
  it("serves the committed document to anyone, cacheable, readable from any page", async () => {
    const res = await http(`${server.url}/openapi.json`, { headers: { origin: "https://docs.example.org" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    // The committed document, naming this server's PUBLIC_URL where the file has a relative server.
    expect(openapi.servers).toEqual([expect.objectContaining({ url: "/" })]);
    expect(res.body).toEqual({ ...openapi, servers: [expect.objectContaining({ url: server.deps.config.publicUrl })] });
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${server.url}/openapi.json`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  it("is GET only: another method is 405 with Allow", async () => {
    const res = await http(`${server.url}/openapi.json`, { method: "POST", body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
  });
});

describe("every operation of the document", () => {
  it("routes on the running server: no 404 ROUTE_NOT_FOUND, no 405 (which a path or method it lacks does get)", async () => {
    const probe = async (verb: string, path: string) => {
      const res = await http(`${server.url}${path}`, {
        method: verb,
        body: verb === "GET" || verb === "DELETE" ? undefined : {},
      });
      return `${res.status} ${res.body?.reason}`;
    };
    const ops = operations();
    expect(ops.length).toBeGreaterThan(40);
    for (const { template, verb } of ops) {
      const path = template.replace(/\{[a-z_]+\}/g, "probe_1");
      const answer = await probe(verb, path);
      expect(answer, `${verb} ${path}`).not.toMatch(/^(404 ROUTE_NOT_FOUND|405 )/);
    }
    // The check can fail: the same probes off the document are refused as unrouted.
    expect(await probe("PUT", "/v1/auth/users/probe_1")).toBe("405 METHOD_NOT_ALLOWED");
    expect(await probe("POST", "/v1/auth/not-in-the-document")).toBe("404 ROUTE_NOT_FOUND");
  });
});

describe("real answers match their response schemas", () => {
  it("Authentication interface: signup, login, verify, refresh, users, sessions, and errors", async () => {
    const check = schemaValidator();
    const expectValid = (verb: string, path: string, res: { status: number; body: unknown }) => {
      expect(res.status, `${verb} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(check.successErrors(verb, path, res.body), `${verb} ${path}`).toEqual([]);
    };
    const email = `openapi-${Date.now()}@example.com`;
    const signupBody = { email, password: "a sturdy passphrase 1", metadata: { plan: "pro" } };
    expect(check.requestErrors("POST", "/v1/auth/signup", signupBody)).toEqual([]);
    const signup = await auth.call("POST", "/v1/auth/signup", signupBody);
    expectValid("POST", "/v1/auth/signup", signup);
    const login = await auth.call("POST", "/v1/auth/login", { email, password: "a sturdy passphrase 1" });
    expectValid("POST", "/v1/auth/login", login);
    const { access_token: accessToken, refresh_token: refreshToken } = login.body;
    const userId = login.body.user.id;
    expectValid(
      "POST",
      "/v1/auth/token/verify",
      await auth.call("POST", "/v1/auth/token/verify", { token: accessToken }),
    );
    expectValid(
      "POST",
      "/v1/auth/token/verify",
      await auth.call("POST", "/v1/auth/token/verify", { token: "not a token" }),
    );
    expectValid("GET", `/v1/auth/users/${userId}`, await auth.call("GET", `/v1/auth/users/${userId}`));
    expectValid("GET", "/v1/auth/users?limit=5", await auth.call("GET", "/v1/auth/users?limit=5"));
    expectValid(
      "PATCH",
      `/v1/auth/users/${userId}`,
      await auth.call("PATCH", `/v1/auth/users/${userId}`, { metadata: { plan: "team" } }),
    );
    expectValid("GET", "/v1/auth/sessions", await auth.call("GET", "/v1/auth/sessions", undefined, accessToken));
    expectValid(
      "POST",
      "/v1/auth/token/refresh",
      await auth.call("POST", "/v1/auth/token/refresh", { refresh_token: refreshToken }),
    );

    // The check can fail: a real answer with a field of the wrong type, or without one the
    // server always writes, does not pass.
    const user = (await auth.call("GET", `/v1/auth/users/${userId}`)).body;
    expect(check.successErrors("GET", `/v1/auth/users/${userId}`, { ...user, email_verified: "no" })).not.toEqual([]);
    const { new_email: _, ...withoutNewEmail } = user;
    expect(check.successErrors("GET", `/v1/auth/users/${userId}`, withoutNewEmail)).not.toEqual([]);

    const unauthenticated = await http(`${server.url}/v1/auth/users`);
    expect(unauthenticated.status).toBe(401);
    expect(check.errorErrors(unauthenticated.body)).toEqual([]);
    const invalid = await auth.call("POST", "/v1/auth/signup", { email: "not an email", password: "x" });
    expect(invalid.status).toBe(400);
    expect(invalid.body.violations.length).toBeGreaterThan(0);
    expect(check.errorErrors(invalid.body)).toEqual([]);
    // …and the request schema says why, as the server did.
    expect(check.requestErrors("POST", "/v1/auth/signup", { email: "not an email", password: "x" })).not.toEqual([]);
  });

  it("Account interface: projects, API keys, members, usage", async () => {
    const check = schemaValidator();
    const admin = await auth.admin();
    const call = (method: string, path: string, body?: unknown) =>
      http(`${server.url}${path}`, {
        method,
        headers: admin,
        body: method === "GET" || method === "DELETE" ? undefined : (body ?? {}),
      });
    const expectValid = async (verb: string, path: string, body?: unknown) => {
      const res = await call(verb, path, body);
      expect(res.status, `${verb} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(check.successErrors(verb, path, res.body), `${verb} ${path}`).toEqual([]);
      return res.body;
    };
    await expectValid("GET", "/v1/projects");
    const project = await expectValid("POST", "/v1/projects", {
      name: "OpenAPI",
      allowed_origins: ["https://a.example.com"],
      redirect_url: "https://a.example.com/cb",
    });
    await expectValid("GET", `/v1/projects/${project.id}`);
    await expectValid("PATCH", `/v1/projects/${project.id}`, {
      description: "described",
      rate_limits: { window_seconds: 600 },
    });
    const key = await expectValid("POST", "/v1/api-keys", { project_id: project.id, label: "openapi" });
    await expectValid("GET", `/v1/api-keys?project_id=${project.id}`);
    await expectValid("DELETE", `/v1/api-keys/${key.id}`);
    await expectValid("GET", "/v1/members");
    await expectValid("GET", `/v1/usage?project_id=${auth.projectId}`);
    await expectValid("GET", `/v1/projects/${project.id}/sso-connections`);
    await expectValid("DELETE", `/v1/projects/${project.id}`);
  });
});
