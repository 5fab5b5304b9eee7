import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Project } from "../../src/domain/account.js";
import { connect, connectReason, http } from "../helpers/clients.js";
import { createProject } from "../../src/flows/projects/create-project.js";
import { seedApiKey, seedOrganization } from "../helpers/seed.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp.js";

// The hosted pages as the server hands them out, without a browser: what each page answers,
// the headers that make it safe to open, and the page credential's limits. The pages' behaviour
// in a browser is test/pages/*.browser.test.ts.

const PUBLIC = "http://gatehouse.test";
const PAGE = (project: Project) => ({ "x-gatehouse-page": project.loginId, origin: PUBLIC });

describe("hosted pages: the server side", () => {
  let server: TestServer;
  let smtp: SmtpSink;
  let project: Project;
  let other: Project;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    server = await startTestServer({ PUBLIC_URL: PUBLIC, SMTP_URL: smtp.url });
    const { organization } = await seedOrganization(server.deps);
    const settings = {
      description: "",
      mfaRequired: false,
      sendVerification: false,
      allowedOrigins: ["https://app.example.com"],
      redirectUrl: "https://app.example.com/callback",
    };
    project = await createProject(server.deps, organization.id, {
      ...settings,
      name: "Shop",
      displayName: `Shop</script><script>alert(1)</script>`,
      accentColor: "#0a7e3b",
      logoUrl: "https://cdn.example.com/logo.png",
      // Its page signups sign in at once and mail the verification link the tests follow
      // (test/auth/signup-confirmation.test.ts covers the default, confirmation by email).
      revealEmailExists: true,
    });
    other = await createProject(server.deps, organization.id, { ...settings, name: "Other" });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
  });

  const page = (path: string) => http(`${server.url}${path}`);
  const configOf = (html: string) =>
    JSON.parse(/<script type="application\/json" id="gatehouse-page">(.*?)<\/script>/s.exec(html)![1]);

  it("serves the sign-in page as HTML with a strict CSP, no framing and no Referer", async () => {
    const res = await page(`/v1/auth/${project.loginId}/login`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("img-src 'self' data: https://cdn.example.com");
    expect(csp).not.toContain("unsafe-inline");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("cache-control")).toBe("no-store");
    // No inline script: every <script> is an external module or a JSON data block.
    const scripts = [...(res.body as string).matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    expect(scripts).toEqual([' type="module" src="/assets/auth.js"', ' type="application/json" id="gatehouse-page"']);
    expect(configOf(res.body)).toMatchObject({
      page: "login",
      login_id: project.loginId,
      accent_color: "#0a7e3b",
      redirect_url: project.redirectUrl,
      redirect_override: "",
    });
  });

  it("sends the pages' folder to its entry, the sign-in page, keeping the query", async () => {
    for (const path of [`/v1/auth/${project.loginId}`, `/v1/auth/${project.loginId}/`]) {
      const res = await fetch(`${server.url}${path}?redirect_url=x`, { redirect: "manual" });
      expect({ path, status: res.status, location: res.headers.get("location") }).toEqual({
        path,
        status: 302,
        location: `/v1/auth/${project.loginId}/login?redirect_url=x`,
      });
    }
  });

  it("escapes what the project chose: a display name cannot end the data block or inject markup", async () => {
    const res = await page(`/v1/auth/${project.loginId}/signup`);
    expect(res.body).not.toContain("<script>alert(1)");
    expect(res.body).toContain("Shop&#60;/script&#62;&#60;script&#62;alert(1)&#60;/script&#62;");
    expect(configOf(res.body).display_name).toBe("Shop</script><script>alert(1)</script>");
  });

  it("answers in words, as HTML, for an unknown project, an unknown page and a destination the project does not allow", async () => {
    const cases = [
      [`/v1/auth/lp_${"0".repeat(26)}/login`, 404, "There is no sign-in page at this address"],
      [`/v1/auth/${project.loginId}/settings`, 404, "There is no such page"],
      [
        `/v1/auth/${project.loginId}/login?redirect_url=${encodeURIComponent("https://evil.example.net/steal")}`,
        400,
        "does not allow",
      ],
      // Another project's hosted page is not this project's destination either.
      [
        `/v1/auth/${project.loginId}/login?redirect_url=${encodeURIComponent(`${PUBLIC}/v1/auth/${other.loginId}/login`)}`,
        400,
        "does not allow",
      ],
    ] as const;
    for (const [path, status, words] of cases) {
      const res = await page(path);
      expect({ path, status: res.status, type: res.headers.get("content-type") }).toEqual({
        path,
        status,
        type: "text/html; charset=utf-8",
      });
      expect(res.body).toContain(words);
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    }
    const allowed = await page(
      `/v1/auth/${project.loginId}/login?redirect_url=${encodeURIComponent("https://app.example.com/elsewhere")}`,
    );
    expect(configOf(allowed.body)).toMatchObject({
      redirect_url: "https://app.example.com/elsewhere",
      redirect_override: "https://app.example.com/elsewhere",
    });
  });

  it("serves the account page at / (the invitation link's target) and the bundles with an ETag", async () => {
    const root = await page("/?token=abc&type=invitation");
    expect(root.status).toBe(200);
    expect(root.body).toContain('<script type="module" src="/assets/account.js"></script>');
    expect(root.body).toContain("<title>Accept your invitation · Gatehouse</title>");
    for (const [name, type] of [
      ["auth.js", "text/javascript"],
      ["account.js", "text/javascript"],
      ["pages.css", "text/css"],
    ]) {
      const res = await page(`/assets/${name}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain(type);
      const etag = res.headers.get("etag")!;
      const again = await fetch(`${server.url}/assets/${name}`, { headers: { "if-none-match": etag } });
      expect(again.status).toBe(304);
    }
    expect((await page("/assets/nothing.js")).status).toBe(404);
  });

  describe("the page credential (X-Gatehouse-Page)", () => {
    const login = (headers: Record<string, string>) =>
      connect(server.url, "auth", "Login", { email: "nobody@example.com", password: "wrong password" }, headers);

    it("reaches sign-in from Gatehouse's own origin", async () => {
      const res = await login(PAGE(project));
      expect({ status: res.status, reason: connectReason(res.body) }).toEqual({
        status: 401,
        reason: "INVALID_CREDENTIALS",
      });
    });

    it("is refused from any other origin, or with none", async () => {
      for (const origin of ["https://app.example.com", "http://evil.example.net", undefined]) {
        const headers: Record<string, string> = { "x-gatehouse-page": project.loginId };
        if (origin) headers.origin = origin;
        const res = await login(headers);
        expect({ origin, status: res.status, reason: connectReason(res.body) }).toEqual({
          origin,
          status: 403,
          reason: "ORIGIN_NOT_ALLOWED",
        });
      }
    });

    it("reaches nothing but sign-in: no admin RPC, no read scope, no user token", async () => {
      const cases: Array<[string, unknown, Record<string, string>, number, string]> = [
        ["ListUsers", {}, {}, 403, "SCOPE_REQUIRED"],
        ["VerifyToken", { token: "x" }, {}, 403, "SCOPE_REQUIRED"],
        [
          "ChangePassword",
          { current_password: "a long password", new_password: "another long password" },
          {},
          403,
          "SCOPE_REQUIRED",
        ],
        [
          "Login",
          { email: "a@example.com", password: "whatever it is" },
          { authorization: "Bearer x" },
          403,
          "SCOPE_REQUIRED",
        ],
      ];
      for (const [method, body, extra, status, reason] of cases) {
        const res = await connect(server.url, "auth", method, body, { ...PAGE(project), ...extra });
        expect({ method, status: res.status, reason: connectReason(res.body) }).toEqual({ method, status, reason });
      }
      const unknown = await login({ "x-gatehouse-page": `lp_${"0".repeat(26)}`, origin: PUBLIC });
      expect({ status: unknown.status, reason: connectReason(unknown.body) }).toEqual({
        status: 401,
        reason: "INVALID_API_KEY",
      });
    });

    it("acts as a signed-in user only for that user's passkeys (the security page), with a valid access token", async () => {
      const signup = await connect(
        server.url,
        "auth",
        "Signup",
        { email: `pages-as-user-${Date.now()}@example.com`, password: "a sturdy passphrase 1" },
        PAGE(project),
      );
      expect(signup.status, JSON.stringify(signup.body)).toBe(200);
      const bearer = { authorization: `Bearer ${signup.body.access_token}` };
      const list = await connect(server.url, "auth", "ListPasskeys", {}, { ...PAGE(project), ...bearer });
      expect({ status: list.status, body: list.body }).toEqual({ status: 200, body: { data: [] } });
      const cases: Array<[string, unknown, Record<string, string>, number, string]> = [
        ["ListPasskeys", {}, {}, 401, "MISSING_ACCESS_TOKEN"],
        ["ListPasskeys", {}, { authorization: "Bearer x" }, 401, "INVALID_ACCESS_TOKEN"],
        ["GetUser", { id: signup.body.user.id }, bearer, 403, "SCOPE_REQUIRED"],
        ["ListSessions", {}, bearer, 403, "SCOPE_REQUIRED"],
        ["RevokeAllSessions", {}, bearer, 403, "SCOPE_REQUIRED"],
      ];
      for (const [method, body, extra, status, reason] of cases) {
        const res = await connect(server.url, "auth", method, body, { ...PAGE(project), ...extra });
        expect({ method, status: res.status, reason: connectReason(res.body) }).toEqual({ method, status, reason });
      }
    });

    it("an API key beside it wins: the key's rules apply, not the page's", async () => {
      const { key } = await seedApiKey(server.deps, project);
      const res = await connect(server.url, "auth", "ListUsers", {}, { ...PAGE(project), "x-service-key": key });
      // The key's project does not allow Gatehouse's origin; the page header changes nothing.
      expect(connectReason(res.body)).toBe("ORIGIN_NOT_ALLOWED");
    });
  });

  describe("email links that open hosted pages", () => {
    it("Signup's verification link and a reset link point where redirect_url says, if it is this project's page", async () => {
      const email = `pages-${Date.now()}@example.com`;
      const verifyPage = `${PUBLIC}/v1/auth/${project.loginId}/verify-email`;
      const signup = await connect(
        server.url,
        "auth",
        "Signup",
        { email, password: "a sturdy passphrase 1", send_verification: true, redirect_url: verifyPage },
        PAGE(project),
      );
      expect(signup.status).toBe(200);
      const verification = await smtp.waitFor(email);
      expect(verification.text).toContain(`${verifyPage}?token=gev_`);

      const resetPage = `${PUBLIC}/v1/auth/${project.loginId}/reset-password?redirect_url=${encodeURIComponent("https://app.example.com/after")}`;
      const reset = await connect(
        server.url,
        "auth",
        "RequestPasswordReset",
        { email, redirect_url: resetPage },
        PAGE(project),
      );
      expect(reset.status).toBe(200);
      const mail = await smtp.waitFor(email, { nth: 2 });
      const link = new URL(/(http:\/\/gatehouse\.test\/\S+)/.exec(mail.text)![1]);
      expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC}/v1/auth/${project.loginId}/reset-password`);
      expect(link.searchParams.get("redirect_url")).toBe("https://app.example.com/after");
      expect(link.searchParams.get("type")).toBe("password_reset");
      expect(link.searchParams.get("token")).toMatch(/^gpr_/);
    });

    it("refuses another project's page or a foreign site, for any address (the refusal tells nothing about the email)", async () => {
      for (const redirect_url of [
        `${PUBLIC}/v1/auth/${other.loginId}/reset-password`,
        "https://evil.example.net/reset",
      ]) {
        const res = await connect(
          server.url,
          "auth",
          "RequestPasswordReset",
          { email: "nobody@example.com", redirect_url },
          PAGE(project),
        );
        expect({ redirect_url, status: res.status, reason: connectReason(res.body) }).toEqual({
          redirect_url,
          status: 400,
          reason: "REDIRECT_NOT_ALLOWED",
        });
        const signup = await connect(
          server.url,
          "auth",
          "Signup",
          { email: `x-${Date.now()}@example.com`, password: "a sturdy passphrase 1", redirect_url },
          PAGE(project),
        );
        expect(connectReason(signup.body)).toBe("REDIRECT_NOT_ALLOWED");
      }
    });
  });
});
