import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/crypto/ids.js";
import { accountFixture, expectError, type AccountFixture } from "../helpers/account.js";
import { connectReason, grpcCall, grpcClient } from "../helpers/clients.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import {
  authLogin,
  createApiKey,
  createProject,
  fails,
  projectBody,
  RFC3339_UTC,
  sleep,
  violates,
  type Case,
} from "./project-helpers.js";
import { injectConnect } from "../helpers/inject.js";

// Threats: one organization reading, changing or deleting another's project; a deleted
// project's API keys still working. Signing keys and login ids: project-keys.test.ts.

describe("projects", () => {
  let server: TestServer;
  let f: AccountFixture;
  let ours: any;
  let theirs: any;
  const query = (sql: string, params: unknown[] = []) => server.deps.db.dataSource.query(sql, params);

  beforeAll(async () => {
    server = await sharedTestServer();
    f = await accountFixture(server);
    ours = await createProject(f, { name: "Ours" });
    theirs = await createProject(f, { name: "Theirs" }, f.outsider.headers);
  });
  afterAll(() => server?.stop());

  describe("CreateProject", () => {
    const post = (headers: Record<string, string>, body: Record<string, unknown>) => () =>
      f.rest("POST", "/v1/projects", headers, body);
    const admin = () => f.admin.headers;
    const cases: Case[] = [
      { name: "no credential", run: () => post({}, projectBody())(), check: fails(401, "MISSING_MANAGEMENT_TOKEN") },
      {
        name: "expired token",
        run: () => post(f.expiredHeaders, projectBody())(),
        check: fails(401, "INVALID_MANAGEMENT_TOKEN"),
      },
      {
        name: "required fields missing",
        run: () => post(admin(), {})(),
        check: violates("name", "allowed_origins", "redirect_url"),
      },
      { name: "blank name", run: () => post(admin(), projectBody({ name: "  " }))(), check: violates("name") },
      {
        name: "an origin with a path, and one with another scheme",
        run: () =>
          post(
            admin(),
            projectBody({
              allowed_origins: ["https://ok.example.com", "https://app.example.com/login", "ftp://files.example.com"],
            }),
          )(),
        check: violates("allowed_origins[1]", "allowed_origins[2]"),
      },
      {
        name: "relative redirect_url",
        run: () => post(admin(), projectBody({ redirect_url: "/callback" }))(),
        check: violates("redirect_url"),
      },
      {
        name: "non-http redirect_url",
        run: () => post(admin(), projectBody({ redirect_url: "javascript:alert(1)" }))(),
        check: violates("redirect_url"),
      },
      {
        name: "token_expiry under 60 s",
        run: () => post(admin(), projectBody({ token_expiry: 59 }))(),
        check: violates("token_expiry"),
      },
      {
        name: "token_expiry over a day",
        run: () => post(admin(), projectBody({ token_expiry: 86401 }))(),
        check: violates("token_expiry"),
      },
      {
        name: "refresh_token_expiry under an hour",
        run: () => post(admin(), projectBody({ refresh_token_expiry: 3599 }))(),
        check: violates("refresh_token_expiry"),
      },
      {
        name: "refresh_token_expiry over a year",
        run: () => post(admin(), projectBody({ refresh_token_expiry: 31536001 }))(),
        check: violates("refresh_token_expiry"),
      },
      {
        name: "success as a developer, with the defaults",
        run: () => post(f.developer.headers, projectBody())(),
        check: (res) => {
          expect(res.status).toBe(200);
          expect(res.body).toEqual({
            id: expect.stringMatching(/^proj_[0-9a-z]{26}$/),
            login_id: expect.stringMatching(/^lp_[0-9a-z]{26}$/),
            name: "Shop",
            description: "",
            token_expiry: 3600,
            refresh_token_expiry: 2592000,
            session_idle_timeout: 0,
            rate_limits: {
              sign_in_failures_per_account: 10,
              sign_in_wait_seconds: 60,
              sign_in_max_wait_seconds: 900,
              failures_per_ip: 30,
              verify_attempts_per_challenge: 10,
              refreshes_per_session: 30,
              signups_per_ip: 30,
              sends_per_ip: 30,
              sends_per_destination: 10,
              sends_per_project: 1000,
              window_seconds: 300,
              send_window_seconds: 3600,
              mfa_failures_per_account: 10,
              first_contact_sends_per_project: 200,
              first_contact_sms_per_country: 20,
              sms_per_destination_per_day: 10,
            },
            mfa_required: false,
            send_verification: false,
            allowed_origins: ["https://shop.example.com"],
            redirect_url: "https://shop.example.com/auth/callback",
            display_name: "",
            logo_url: "",
            accent_color: "",
            sms_country_codes: [],
            bot_protection: false,
            max_sessions_per_user: 50,
            reveal_email_exists: false,
            signups: "open",
            signup_email_domains: [],
            signup_methods: ["password", "otp", "magic_link", "sso"],
            passkey_rp_id: "",
            passkey_user_verification: "preferred",
            passkey_attestation: "none",
            default_locale: "en",
            created_at: expect.stringMatching(RFC3339_UTC),
            updated_at: res.body.created_at,
          });
        },
      },
      {
        name: "success with every setting; origins kept once, in lower case",
        run: () =>
          post(admin(), {
            name: "Full",
            description: "All settings",
            allowed_origins: ["https://App.Example.com", "https://app.example.com", "http://localhost:3000"],
            redirect_url: "http://localhost:3000/cb",
            token_expiry: 60,
            refresh_token_expiry: 31536000,
            mfa_required: true,
            send_verification: true,
          })(),
        check: (res) => {
          expect(res.status).toBe(200);
          expect(res.body).toMatchObject({
            name: "Full",
            description: "All settings",
            allowed_origins: ["https://app.example.com", "http://localhost:3000"],
            redirect_url: "http://localhost:3000/cb",
            token_expiry: 60,
            refresh_token_expiry: 31536000,
            mfa_required: true,
            send_verification: true,
          });
        },
      },
    ];
    for (const c of cases) it(c.name, async () => c.check(await c.run()));

    it("over gRPC", async () => {
      const res = await grpcCall(
        grpcClient(server.port, "account"),
        "CreateProject",
        projectBody({ token_expiry: 120 }),
        f.admin.headers,
      );
      expect(res.error).toBeUndefined();
      expect(res.response).toMatchObject({
        id: expect.stringMatching(/^proj_/),
        login_id: expect.stringMatching(/^lp_/),
        token_expiry: 120,
      });
      expect(res.response.refresh_token_expiry).toBe(2592000);
    });

    it("over Connect", async () => {
      const res = await injectConnect(
        server.handle,
        "account",
        "CreateProject",
        projectBody({ redirect_url: "nope" }),
        f.admin.headers,
      );
      expect({ status: res.status, reason: connectReason(res.body) }).toEqual({
        status: 400,
        reason: "VALIDATION_FAILED",
      });
      const ok = await injectConnect(server.handle, "account", "CreateProject", projectBody(), f.admin.headers);
      expect(ok.status).toBe(200);
      expect(ok.body.allowed_origins).toEqual(["https://shop.example.com"]);
    });
  });

  describe("GetProject", () => {
    const get = (id: string, headers: Record<string, string>) => () => f.rest("GET", `/v1/projects/${id}`, headers);
    const cases: Case[] = [
      { name: "no credential", run: () => get(ours.id, {})(), check: fails(401, "MISSING_MANAGEMENT_TOKEN") },
      {
        name: "expired token",
        run: () => get(ours.id, f.expiredHeaders)(),
        check: fails(401, "INVALID_MANAGEMENT_TOKEN"),
      },
      {
        name: "other organization",
        run: () => get(theirs.id, f.admin.headers)(),
        check: fails(404, "PROJECT_NOT_FOUND"),
      },
      {
        name: "other organization, seen from there",
        run: () => get(ours.id, f.outsider.headers)(),
        check: fails(404, "PROJECT_NOT_FOUND"),
      },
      { name: "unknown id", run: () => get(newId("proj"), f.admin.headers)(), check: fails(404, "PROJECT_NOT_FOUND") },
      {
        name: "id of the wrong shape",
        run: () => get("abc", f.admin.headers)(),
        check: fails(404, "PROJECT_NOT_FOUND"),
      },
      {
        name: "id with quotes and a semicolon",
        run: () => get("proj_%27%3B", f.admin.headers)(),
        check: fails(404, "PROJECT_NOT_FOUND"),
      },
      {
        name: "id of another resource",
        run: () => get(newId("key"), f.admin.headers)(),
        check: fails(404, "PROJECT_NOT_FOUND"),
      },
      {
        name: "success as a developer",
        run: () => get(ours.id, f.developer.headers)(),
        check: (res) => {
          expect(res.status).toBe(200);
          expect(res.body).toEqual(ours);
        },
      },
    ];
    for (const c of cases) it(c.name, async () => c.check(await c.run()));

    it("over gRPC and Connect", async () => {
      const viaGrpc = await grpcCall(
        grpcClient(server.port, "account"),
        "GetProject",
        { id: theirs.id },
        f.admin.headers,
      );
      expect({ code: viaGrpc.error?.code, reason: viaGrpc.reason }).toEqual({ code: 5, reason: "PROJECT_NOT_FOUND" });
      const ok = await grpcCall(grpcClient(server.port, "account"), "GetProject", { id: ours.id }, f.admin.headers);
      expect(ok.response).toMatchObject({
        id: ours.id,
        login_id: ours.login_id,
        allowed_origins: ours.allowed_origins,
        redirect_url: ours.redirect_url,
      });
      const viaConnect = await injectConnect(
        server.handle,
        "account",
        "GetProject",
        { id: ours.id },
        f.developer.headers,
      );
      expect(viaConnect.body).toEqual(ours);
    });
  });

  describe("ListProjects", () => {
    const list =
      (headers: Record<string, string>, query = "") =>
      () =>
        f.rest("GET", `/v1/projects${query}`, headers);
    const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((p) => p.id);
    const cases: Case[] = [
      { name: "no credential", run: () => list({})(), check: fails(401, "MISSING_MANAGEMENT_TOKEN") },
      { name: "expired token", run: () => list(f.expiredHeaders)(), check: fails(401, "INVALID_MANAGEMENT_TOKEN") },
      { name: "limit over 100", run: () => list(f.admin.headers, "?limit=101")(), check: violates("limit") },
      {
        name: "a cursor not issued by Gatehouse",
        run: () => list(f.admin.headers, "?cursor=cur_abc.def")(),
        check: fails(400, "INVALID_CURSOR"),
      },
      {
        name: "other organization sees only its own",
        run: () => list(f.outsider.headers)(),
        check: (res) => {
          expect(res.status).toBe(200);
          expect(ids(res)).toEqual([theirs.id]);
        },
      },
      {
        name: "success as a developer: full projects, newest first",
        run: () => list(f.developer.headers, "?limit=100")(),
        check: (res) => {
          expect(res.status).toBe(200);
          expect(res.body.has_more).toBe(false);
          expect(res.body.next_cursor).toBe("");
          expect(res.body.data).toContainEqual(ours);
          expect(ids(res)).not.toContain(theirs.id);
          const times = res.body.data.map((p: { created_at: string }) => Date.parse(p.created_at));
          expect(times).toEqual([...times].sort((a, b) => b - a));
        },
      },
    ];
    for (const c of cases) it(c.name, async () => c.check(await c.run()));

    it("over gRPC and Connect", async () => {
      const viaGrpc = await grpcCall(
        grpcClient(server.port, "account"),
        "ListProjects",
        { limit: 1 },
        f.outsider.headers,
      );
      expect(viaGrpc.response).toMatchObject({ data: [{ id: theirs.id }], has_more: false, next_cursor: "" });
      const viaConnect = await injectConnect(server.handle, "account", "ListProjects", { limit: 1 }, f.admin.headers);
      expect(viaConnect.body).toMatchObject({
        data: [expect.objectContaining({ id: expect.any(String) })],
        has_more: true,
      });
      expect(viaConnect.body.next_cursor).toMatch(/^cur_/);
    });
  });

  describe("UpdateProject", () => {
    const patch = (id: string, headers: Record<string, string>, body: Record<string, unknown>) => () =>
      f.rest("PATCH", `/v1/projects/${id}`, headers, body);
    const cases: Case[] = [
      {
        name: "no credential",
        run: () => patch(ours.id, {}, { name: "x" })(),
        check: fails(401, "MISSING_MANAGEMENT_TOKEN"),
      },
      {
        name: "expired token",
        run: () => patch(ours.id, f.expiredHeaders, { name: "x" })(),
        check: fails(401, "INVALID_MANAGEMENT_TOKEN"),
      },
      {
        name: "other organization",
        run: () => patch(ours.id, f.outsider.headers, { name: "Hijacked" })(),
        check: fails(404, "PROJECT_NOT_FOUND"),
      },
      {
        name: "id of the wrong shape",
        run: () => patch("abc", f.admin.headers, { name: "x" })(),
        check: fails(404, "PROJECT_NOT_FOUND"),
      },
      {
        name: "unknown id",
        run: () => patch(newId("proj"), f.admin.headers, { name: "x" })(),
        check: fails(404, "PROJECT_NOT_FOUND"),
      },
      {
        name: "bad values, each named",
        run: () =>
          patch(ours.id, f.admin.headers, {
            name: "",
            allowed_origins: ["https://ok.example.com", "not an origin"],
            redirect_url: "nope",
            token_expiry: 59,
            refresh_token_expiry: 31536001,
          })(),
        check: violates("name", "allowed_origins[1]", "redirect_url", "token_expiry", "refresh_token_expiry"),
      },
    ];
    for (const c of cases) it(c.name, async () => c.check(await c.run()));

    it("changes only the supplied fields, and updated_at moves", async () => {
      const before = await createProject(f, { description: "keep me", mfa_required: true, token_expiry: 900 });
      await sleep(5);
      const res = await f.rest("PATCH", `/v1/projects/${before.id}`, f.developer.headers, {
        name: "Renamed",
        mfa_required: false,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...before, name: "Renamed", mfa_required: false, updated_at: res.body.updated_at });
      expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
      expect((await f.rest("GET", `/v1/projects/${before.id}`, f.admin.headers)).body).toEqual(res.body);
    });

    it("an empty allowed_origins leaves them; an empty description clears it; a new list replaces the old", async () => {
      const before = await createProject(f, {
        description: "text",
        allowed_origins: ["https://a.example.com", "https://b.example.com"],
      });
      const kept = await f.rest("PATCH", `/v1/projects/${before.id}`, f.admin.headers, {
        allowed_origins: [],
        description: "",
      });
      expect(kept.body).toMatchObject({
        allowed_origins: ["https://a.example.com", "https://b.example.com"],
        description: "",
      });
      const replaced = await f.rest("PATCH", `/v1/projects/${before.id}`, f.admin.headers, {
        allowed_origins: ["https://C.example.com"],
        redirect_url: "https://c.example.com/cb",
        refresh_token_expiry: 3600,
        send_verification: true,
      });
      expect(replaced.body).toMatchObject({
        allowed_origins: ["https://c.example.com"],
        redirect_url: "https://c.example.com/cb",
        refresh_token_expiry: 3600,
        send_verification: true,
        token_expiry: 3600,
        name: "Shop",
      });
    });

    it("sets the hosted pages' branding, refuses a bad colour or a plain-http logo, and clears with empty strings", async () => {
      const before = await createProject(f, { display_name: "Shop & Co", accent_color: "#0A7E3B" });
      expect(before).toMatchObject({ display_name: "Shop & Co", logo_url: "", accent_color: "#0A7E3B" });
      const bad = await f.rest("PATCH", `/v1/projects/${before.id}`, f.admin.headers, {
        accent_color: "green",
        logo_url: "http://cdn.example.com/logo.png",
        display_name: "x".repeat(101),
      });
      violates("display_name", "logo_url", "accent_color")(bad);
      const set = await f.rest("PATCH", `/v1/projects/${before.id}`, f.admin.headers, {
        logo_url: "https://cdn.example.com/logo.png",
      });
      expect(set.body).toMatchObject({
        display_name: "Shop & Co",
        logo_url: "https://cdn.example.com/logo.png",
        accent_color: "#0A7E3B",
      });
      // A loopback http logo is allowed, for development.
      const local = await f.rest("PATCH", `/v1/projects/${before.id}`, f.admin.headers, {
        logo_url: "http://127.0.0.1:3000/logo.svg",
      });
      expect(local.body.logo_url).toBe("http://127.0.0.1:3000/logo.svg");
      const cleared = await f.rest("PATCH", `/v1/projects/${before.id}`, f.admin.headers, {
        display_name: "",
        logo_url: "",
        accent_color: "",
      });
      expect(cleared.body).toMatchObject({ display_name: "", logo_url: "", accent_color: "" });
    });

    it("refuses a logo whose host is not a plain DNS name or IP literal: nothing in logo_url widens or breaks the pages' CSP", async () => {
      // Threat: an admin's (or a stolen token's) logo_url `https://*.example.com/…` became
      // `img-src … https://*.example.com` on every hosted page; `;` or `,` in a host would end
      // the directive or start a second policy.
      const project = await createProject(f);
      const hosts = [
        "*.example.com",
        "*",
        "cdn.example.com;script-src",
        "a,b.example.com",
        "it's.example.com",
        "under_score.example.com",
        "example.com.",
      ];
      for (const host of hosts) {
        const res = await f.rest("PATCH", `/v1/projects/${project.id}`, f.admin.headers, {
          logo_url: `https://${host}/l.png`,
        });
        violates("logo_url")(res);
      }
      violates("logo_url")(
        await f.rest("POST", "/v1/projects", f.admin.headers, projectBody({ logo_url: "https://*.example.com/l.png" })),
      );
      for (const url of [
        "https://cdn.example.com:8443/l.png",
        "https://bücher.example/l.png",
        "https://192.0.2.10/l.png",
        "https://[2001:db8::1]/l.png",
      ]) {
        expect(
          (await f.rest("PATCH", `/v1/projects/${project.id}`, f.admin.headers, { logo_url: url })).status,
          url,
        ).toBe(200);
      }
      // A URL stored before the rule is checked again where the policy is written: it is left out.
      await query(`UPDATE projects SET logo_url = $1 WHERE id = $2`, ["https://*.example.com/l.png", project.id]);
      const page = await fetch(`${server.url}/v1/auth/${project.login_id}/login`);
      const csp = page.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("img-src 'self' data:; ");
      expect(csp).not.toContain("*");
    });

    it("sets the send and session settings; an empty country list leaves it, clear_sms_country_codes empties it", async () => {
      const before = await createProject(f, {
        sms_country_codes: ["44", "1", "44"],
        bot_protection: true,
        max_sessions_per_user: 3,
      });
      expect(before).toMatchObject({
        sms_country_codes: ["44", "1"],
        bot_protection: true,
        max_sessions_per_user: 3,
        reveal_email_exists: false,
      });
      const bad = await f.rest("PATCH", `/v1/projects/${before.id}`, f.admin.headers, {
        sms_country_codes: ["+44", "0", "1234"],
        max_sessions_per_user: 0,
      });
      violates("sms_country_codes[0]", "sms_country_codes[1]", "sms_country_codes[2]", "max_sessions_per_user")(bad);
      const both = await f.rest("PATCH", `/v1/projects/${before.id}`, f.admin.headers, {
        sms_country_codes: ["33"],
        clear_sms_country_codes: true,
      });
      violates("clear_sms_country_codes")(both);
      const kept = await f.rest("PATCH", `/v1/projects/${before.id}`, f.admin.headers, {
        sms_country_codes: [],
        reveal_email_exists: true,
      });
      expect(kept.body).toMatchObject({ sms_country_codes: ["44", "1"], reveal_email_exists: true });
      const replaced = await f.rest("PATCH", `/v1/projects/${before.id}`, f.admin.headers, {
        sms_country_codes: ["353"],
        bot_protection: false,
      });
      expect(replaced.body).toMatchObject({
        sms_country_codes: ["353"],
        bot_protection: false,
        max_sessions_per_user: 3,
      });
      const cleared = await f.rest("PATCH", `/v1/projects/${before.id}`, f.admin.headers, {
        clear_sms_country_codes: true,
      });
      expect(cleared.body.sms_country_codes).toEqual([]);
    });

    it('sets the passkey settings; a relying-party id must cover one of the project\'s origins, and "" clears it', async () => {
      const project = await createProject(f, {
        allowed_origins: ["https://shop.example.com", "https://www.example.com"],
        passkey_rp_id: "example.com",
        passkey_user_verification: "required",
        passkey_attestation: "direct",
      });
      expect(project).toMatchObject({
        passkey_rp_id: "example.com",
        passkey_user_verification: "required",
        passkey_attestation: "direct",
      });
      const path = `/v1/projects/${project.id}`;
      violates("passkey_rp_id")(await f.rest("PATCH", path, f.admin.headers, { passkey_rp_id: "example.org" }));
      violates("passkey_rp_id")(await f.rest("PATCH", path, f.admin.headers, { passkey_rp_id: "127.0.0.1" }));
      violates(
        "passkey_user_verification",
        "passkey_attestation",
      )(
        await f.rest("PATCH", path, f.admin.headers, {
          passkey_user_verification: "always",
          passkey_attestation: "enterprise",
        }),
      );
      // Origins that leave the id with nothing under it are refused the same way.
      violates("passkey_rp_id")(
        await f.rest("PATCH", path, f.admin.headers, { allowed_origins: ["https://shop.example.org"] }),
      );
      const narrowed = await f.rest("PATCH", path, f.admin.headers, { passkey_rp_id: "shop.example.com" });
      expect(narrowed.body.passkey_rp_id).toBe("shop.example.com");
      const cleared = await f.rest("PATCH", path, f.admin.headers, {
        passkey_rp_id: "",
        passkey_user_verification: "preferred",
      });
      expect(cleared.body).toMatchObject({
        passkey_rp_id: "",
        passkey_user_verification: "preferred",
        passkey_attestation: "direct",
      });
    });

    it("a request with no field changes nothing, updated_at included", async () => {
      const before = await createProject(f);
      await sleep(5);
      const res = await f.rest("PATCH", `/v1/projects/${before.id}`, f.admin.headers, {});
      expect(res.body).toEqual(before);
    });

    it("over gRPC: an explicit false is applied (field presence)", async () => {
      const before = await createProject(f, { mfa_required: true, send_verification: true });
      const res = await grpcCall(
        grpcClient(server.port, "account"),
        "UpdateProject",
        { id: before.id, mfa_required: false },
        f.admin.headers,
      );
      expect(res.error).toBeUndefined();
      expect(res.response).toMatchObject({ mfa_required: false, send_verification: true, name: "Shop" });
    });

    it("over Connect", async () => {
      const res = await injectConnect(
        server.handle,
        "account",
        "UpdateProject",
        { id: theirs.id, name: "x" },
        f.admin.headers,
      );
      expect({ status: res.status, reason: connectReason(res.body) }).toEqual({
        status: 404,
        reason: "PROJECT_NOT_FOUND",
      });
      const ok = await injectConnect(
        server.handle,
        "account",
        "UpdateProject",
        { id: theirs.id, token_expiry: 600 },
        f.outsider.headers,
      );
      expect(ok.body).toMatchObject({ id: theirs.id, token_expiry: 600, name: "Theirs" });
    });
  });

  describe("DeleteProject", () => {
    const del = (id: string, headers: Record<string, string>) => () => f.rest("DELETE", `/v1/projects/${id}`, headers);
    const cases: Case[] = [
      { name: "no credential", run: () => del(ours.id, {})(), check: fails(401, "MISSING_MANAGEMENT_TOKEN") },
      {
        name: "expired token",
        run: () => del(ours.id, f.expiredHeaders)(),
        check: fails(401, "INVALID_MANAGEMENT_TOKEN"),
      },
      {
        name: "developer (admin only)",
        run: () => del(ours.id, f.developer.headers)(),
        check: fails(403, "ROLE_REQUIRED"),
      },
      {
        name: "other organization",
        run: () => del(ours.id, f.outsider.headers)(),
        check: fails(404, "PROJECT_NOT_FOUND"),
      },
      {
        name: "id of the wrong shape",
        run: () => del("abc", f.admin.headers)(),
        check: fails(404, "PROJECT_NOT_FOUND"),
      },
      { name: "unknown id", run: () => del(newId("proj"), f.admin.headers)(), check: fails(404, "PROJECT_NOT_FOUND") },
    ];
    for (const c of cases) it(c.name, async () => c.check(await c.run()));

    it("refused attempts left the project in place", async () => {
      expect((await f.rest("GET", `/v1/projects/${ours.id}`, f.admin.headers)).status).toBe(200);
    });

    it("removes the project with its keys and signing keys; its API key fails on the next request", async () => {
      const doomed = await createProject(f);
      const { key } = await createApiKey(f, doomed.id);
      expect((await authLogin(server.url, key)).body.reason).toBe("INVALID_CREDENTIALS");

      const res = await f.rest("DELETE", `/v1/projects/${doomed.id}`, f.admin.headers);
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { deleted: true, id: doomed.id } });

      expectError(await authLogin(server.url, key), 401, "INVALID_API_KEY");
      expectError(await f.rest("GET", `/v1/projects/${doomed.id}`, f.admin.headers), 404, "PROJECT_NOT_FOUND");
      expectError(await f.rest("DELETE", `/v1/projects/${doomed.id}`, f.admin.headers), 404, "PROJECT_NOT_FOUND");
      expect(await query("SELECT id FROM api_keys WHERE project_id = $1", [doomed.id])).toEqual([]);
      expect(await server.deps.db.repos.signingKeys.active(doomed.id)).toBeNull();
    });

    it("over gRPC and Connect", async () => {
      const a = await createProject(f);
      const b = await createProject(f);
      const viaGrpc = await grpcCall(
        grpcClient(server.port, "account"),
        "DeleteProject",
        { id: a.id },
        f.admin.headers,
      );
      expect(viaGrpc.response).toEqual({ deleted: true, id: a.id });
      const denied = await grpcCall(
        grpcClient(server.port, "account"),
        "DeleteProject",
        { id: b.id },
        f.developer.headers,
      );
      expect({ code: denied.error?.code, reason: denied.reason }).toEqual({ code: 7, reason: "ROLE_REQUIRED" });
      const viaConnect = await injectConnect(server.handle, "account", "DeleteProject", { id: b.id }, f.admin.headers);
      expect(viaConnect.body).toEqual({ deleted: true, id: b.id });
      const again = await injectConnect(server.handle, "account", "DeleteProject", { id: b.id }, f.admin.headers);
      expect({ status: again.status, reason: connectReason(again.body) }).toEqual({
        status: 404,
        reason: "PROJECT_NOT_FOUND",
      });
    });
  });
});
