import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../helpers/account.js";
import { connect, connectReason, grpcCall, grpcClient, http } from "../helpers/clients.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { authFixture, type AuthFixture } from "../auth/helpers.js";

// Threat: a page on a foreign origin calling Gatehouse with a project's publishable key (read
// from the real page) and the visitor's browser. CORS only hides the answer from that page;
// the request itself would still run, so a foreign page could create users or send reset
// emails. The server must refuse it before any work. And a secret key used from any page is
// a leaked admin key: refused whatever the origin.

const APP = "https://app.example.com";
const CONSOLE = "https://console.example.com";
const EVIL = "https://evil.example.net";

describe("browser origins are enforced on the server", () => {
  let server: TestServer;
  let app: AuthFixture;
  let publishable: string;
  let admin: Record<string, string>;

  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL: `${CONSOLE}/` });
    // Publishable signups answer tokens here (test/auth/signup-confirmation.test.ts covers the default).
    app = await authFixture(server, { revealEmailExists: true });
    admin = await app.admin();
    const created = await http(`${server.url}/v1/api-keys`, {
      headers: admin,
      body: { project_id: app.projectId, label: "web", kind: "publishable" },
    });
    expect(created.status).toBe(200);
    publishable = created.body.key;
  });

  afterAll(async () => {
    await server?.stop();
  });

  const signupFrom = (origin: string | undefined, key: string, email: string) =>
    http(`${server.url}/v1/auth/signup`, {
      headers: { "x-service-key": key, ...(origin ? { origin } : {}) },
      body: { email, password: "a sturdy passphrase 1" },
    });

  /** Whether the secret key finds a user with this email (the search matches email prefixes). */
  const exists = async (email: string) => {
    const res = await app.call("GET", `/v1/auth/users?search=${encodeURIComponent(email)}`);
    expect(res.status).toBe(200);
    return res.body.data.some((u: any) => u.email === email);
  };

  it("a signup from a foreign page is refused with ORIGIN_NOT_ALLOWED and creates no user", async () => {
    for (const origin of [EVIL, "null", "http://app.example.com", "https://app.example.com:8443"]) {
      const email = `foreign-${Math.random().toString(36).slice(2)}@example.com`;
      const res = await signupFrom(origin, publishable, email);
      expectError(res, 403, "ORIGIN_NOT_ALLOWED");
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
      expect(res.headers.get("vary")).toContain("Origin");
      expect(await exists(email), origin).toBe(false);
    }
  });

  it("the project's own page signs up, reads the answer and is named back with Vary: Origin", async () => {
    const email = `page-${Date.now()}@example.com`;
    const res = await signupFrom(APP, publishable, email);
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(APP);
    expect(res.headers.get("access-control-expose-headers")).toContain("x-request-id");
    expect(res.headers.get("vary")).toContain("Origin");
    expect(await exists(email)).toBe(true);
    // Origins compare without regard to case, as browsers send them lower-cased anyway.
    const upper = await signupFrom("HTTPS://APP.EXAMPLE.COM", publishable, `upper-${Date.now()}@example.com`);
    expect(upper.status).toBe(200);
  });

  it("a secret key with any Origin is SECRET_KEY_IN_BROWSER, readable by an allowed page; without Origin it works", async () => {
    const email = `secret-${Date.now()}@example.com`;
    const fromPage = await signupFrom(APP, app.key, email);
    expectError(fromPage, 403, "SECRET_KEY_IN_BROWSER");
    expect(fromPage.headers.get("access-control-allow-origin")).toBe(APP);
    expect(await exists(email)).toBe(false);
    // From a foreign page the origin is what fails first; the key is still refused.
    expectError(await signupFrom(EVIL, app.key, email), 403, "ORIGIN_NOT_ALLOWED");
    const fromServer = await signupFrom(undefined, app.key, email);
    expect(fromServer.status).toBe(200);
    expect(fromServer.headers.get("vary")).toContain("Origin");
  });

  it("the same rules hold on Connect, gRPC-Web and gRPC", async () => {
    const email = `wire-${Date.now()}@example.com`;
    const body = { email, password: "a sturdy passphrase 1" };
    const foreign = await connect(server.url, "auth", "Signup", body, { "x-service-key": publishable, origin: EVIL });
    expect({ status: foreign.status, reason: connectReason(foreign.body) }).toEqual({
      status: 403,
      reason: "ORIGIN_NOT_ALLOWED",
    });
    const secret = await connect(server.url, "auth", "Signup", body, { "x-service-key": app.key, origin: APP });
    expect({ status: secret.status, reason: connectReason(secret.body) }).toEqual({
      status: 403,
      reason: "SECRET_KEY_IN_BROWSER",
    });

    // gRPC-Web, as a browser's grpc-web client sends it: an empty SignupRequest fails
    // validation when it gets that far, so the status tells which check answered.
    const grpcWeb = async (origin: string) => {
      const res = await fetch(`${server.url}/gatehouse.auth.v1.AuthService/Signup`, {
        method: "POST",
        headers: {
          "content-type": "application/grpc-web+proto",
          "x-grpc-web": "1",
          "x-service-key": publishable,
          origin,
        },
        body: new Uint8Array([0, 0, 0, 0, 0]),
      });
      const trailer = Buffer.from(await res.arrayBuffer()).toString("latin1");
      return res.headers.get("grpc-status") ?? /grpc-status:\s*(\d+)/.exec(trailer)?.[1];
    };
    expect(await grpcWeb(EVIL)).toBe("7"); // PERMISSION_DENIED
    expect(await grpcWeb(APP)).toBe("3"); // INVALID_ARGUMENT: past the origin check

    const client = grpcClient(server.port, "auth");
    try {
      const refused = await grpcCall(client, "Signup", body, { "x-service-key": publishable, origin: EVIL });
      expect(refused.reason).toBe("ORIGIN_NOT_ALLOWED");
      const secretKey = await grpcCall(client, "Signup", body, { "x-service-key": app.key, origin: APP });
      expect(secretKey.reason).toBe("SECRET_KEY_IN_BROWSER");
    } finally {
      client.close();
    }
    expect(await exists(email)).toBe(false);
  });

  it("the Account interface answers the console's origin only", async () => {
    const account = await app.admin();
    const foreign = await http(`${server.url}/v1/projects`, { headers: { ...account, origin: EVIL } });
    expectError(foreign, 403, "ORIGIN_NOT_ALLOWED");
    expect(foreign.body.message).toContain("PUBLIC_URL");
    const console = await http(`${server.url}/v1/projects`, { headers: { ...account, origin: CONSOLE } });
    expect(console.status).toBe(200);
    expect(console.headers.get("access-control-allow-origin")).toBe(CONSOLE);
    expect(console.headers.get("vary")).toContain("Origin");
    // Even the public RPCs: a foreign page cannot try member passwords.
    const login = await http(`${server.url}/v1/account/login`, {
      headers: { origin: EVIL },
      body: { email: "someone@example.com", password: "whatever it is" },
    });
    expectError(login, 403, "ORIGIN_NOT_ALLOWED");
    // A project's origin is not the console's.
    expectError(
      await http(`${server.url}/v1/projects`, { headers: { ...account, origin: APP } }),
      403,
      "ORIGIN_NOT_ALLOWED",
    );
  });

  it("a preflight allows the headers browsers send and is cached", async () => {
    const wanted = [
      "traceparent",
      "tracestate",
      "baggage",
      "sentry-trace",
      "x-grpc-web",
      "x-user-agent",
      "connect-protocol-version",
      "connect-timeout-ms",
      "grpc-timeout",
      "x-service-key",
      "authorization",
    ];
    const res = await fetch(`${server.url}/gatehouse.auth.v1.AuthService/Signup`, {
      method: "OPTIONS",
      headers: {
        origin: APP,
        "access-control-request-method": "POST",
        "access-control-request-headers": wanted.join(","),
      },
    });
    expect(res.status).toBe(204);
    const allowed = (res.headers.get("access-control-allow-headers") ?? "").split(/,\s*/);
    expect(wanted.filter((h) => !allowed.includes(h))).toEqual([]);
    expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThanOrEqual(600);
    expect(res.headers.get("vary")).toContain("Origin");
  });
});
