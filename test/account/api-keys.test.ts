import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/crypto/ids.js";
import { hashToken } from "../../src/crypto/tokens.js";
import { accountFixture, expectError, type AccountFixture } from "../helpers/account.js";
import { connectReason, grpcCall, grpcClient } from "../helpers/clients.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import {
  authLogin,
  createApiKey,
  createProject,
  fails,
  RFC3339_UTC,
  sleep,
  violates,
  type Case,
} from "./project-helpers.js";
import { injectConnect } from "../helpers/inject.js";

// Threats: a raw API key readable after its creation (in a list, or at rest); a revoked key
// still opening the Authentication interface; one organization listing, using or revoking
// another's keys, or attaching a key to another's project.

const ALL_SCOPES = ["auth:read", "auth:write", "users:read", "users:write"];

describe("API keys", () => {
  let server: TestServer;
  let f: AccountFixture;
  let project: any;
  let otherProject: any;
  let theirProject: any;
  let theirKey: any;

  beforeAll(async () => {
    server = await sharedTestServer();
    f = await accountFixture(server);
    project = await createProject(f, { name: "Main" });
    otherProject = await createProject(f, { name: "Second" });
    theirProject = await createProject(f, {}, f.outsider.headers);
    theirKey = await createApiKey(f, theirProject.id, {}, f.outsider.headers);
  });
  afterAll(() => server?.stop());

  describe("CreateApiKey", () => {
    const post = (headers: Record<string, string>, body: Record<string, unknown>) =>
      f.rest("POST", "/v1/api-keys", headers, body);
    const body = (overrides: Record<string, unknown> = {}) => ({
      project_id: project.id,
      label: "backend",
      ...overrides,
    });
    const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
    const cases: Case[] = [
      { name: "no credential", run: () => post({}, body()), check: fails(401, "MISSING_MANAGEMENT_TOKEN") },
      {
        name: "expired token",
        run: () => post(f.expiredHeaders, body()),
        check: fails(401, "INVALID_MANAGEMENT_TOKEN"),
      },
      { name: "required fields missing", run: () => post(f.admin.headers, {}), check: violates("project_id", "label") },
      {
        name: "unknown scope and label too long",
        run: () => post(f.admin.headers, body({ label: "x".repeat(101), scopes: ["auth:read", "admin"] })),
        check: violates("label", "scopes[1]"),
      },
      {
        name: "expires_at not a date-time",
        run: () => post(f.admin.headers, body({ expires_at: "tomorrow" })),
        check: violates("expires_at"),
      },
      {
        name: "expires_at in the past",
        run: () => post(f.admin.headers, body({ expires_at: "2020-01-01T00:00:00Z" })),
        check: (res) => {
          violates("expires_at")(res);
          expect(res.body.violations[0].description).toBe("must be in the future");
        },
      },
      {
        name: "project of another organization",
        run: () => post(f.admin.headers, body({ project_id: theirProject.id })),
        check: fails(404, "PROJECT_NOT_FOUND"),
      },
      {
        name: "unknown project",
        run: () => post(f.admin.headers, body({ project_id: newId("proj") })),
        check: fails(404, "PROJECT_NOT_FOUND"),
      },
      {
        name: "project id of the wrong shape",
        run: () => post(f.admin.headers, body({ project_id: "abc" })),
        check: fails(404, "PROJECT_NOT_FOUND"),
      },
      {
        name: "success as a developer: the raw key once, all scopes, no expiry (null)",
        run: () => post(f.developer.headers, body()),
        check: (res) => {
          expect(res.status).toBe(200);
          expect(res.body).toEqual({
            id: expect.stringMatching(/^key_[0-9a-z]{26}$/),
            label: "backend",
            project_id: project.id,
            scopes: ALL_SCOPES,
            expires_at: null,
            created_at: expect.stringMatching(RFC3339_UTC),
            key_hint: res.body.key.slice(0, 8),
            kind: "secret",
            key: expect.stringMatching(/^gk_[A-Za-z0-9_-]{43}$/),
          });
        },
      },
      {
        name: "success with expires_at null: never expires",
        run: () => post(f.admin.headers, body({ expires_at: null, scopes: [] })),
        check: (res) => {
          expect(res.status).toBe(200);
          expect({ expires_at: res.body.expires_at, scopes: res.body.scopes }).toEqual({
            expires_at: null,
            scopes: ALL_SCOPES,
          });
        },
      },
      {
        name: "success with scopes (duplicates dropped) and an expiry",
        run: () =>
          post(
            f.admin.headers,
            body({ scopes: ["users:read", "auth:read", "users:read"], expires_at: "2999-12-31T23:00:00+01:00" }),
          ),
        check: (res) => {
          expect(res.status).toBe(200);
          expect(res.body.scopes).toEqual(["users:read", "auth:read"]);
          expect(res.body.expires_at).toBe("2999-12-31T22:00:00.000Z");
        },
      },
    ];
    for (const c of cases) it(c.name, async () => c.check(await c.run()));

    it("the key works on the Authentication interface, with its scopes, and is stored only as a hash", async () => {
      const full = await createApiKey(f, project.id, { expires_at: inAnHour() });
      expect((await authLogin(server.url, full.key)).body.reason).toBe("INVALID_CREDENTIALS");
      const readOnly = await createApiKey(f, project.id, { scopes: ["auth:read"] });
      expectError(await authLogin(server.url, readOnly.key), 403, "SCOPE_REQUIRED");

      const rows = await server.deps.db.dataSource.query("SELECT * FROM api_keys WHERE id = $1", [full.id]);
      expect(rows[0].key_hash).toBe(hashToken(full.key));
      expect(JSON.stringify(rows[0])).not.toContain(full.key);
      expect(JSON.stringify(rows[0])).not.toContain(full.key.slice(8));
    });

    it("over gRPC and Connect", async () => {
      const viaGrpc = await grpcCall(
        grpcClient(server.port, "account"),
        "CreateApiKey",
        { project_id: project.id, label: "grpc" },
        f.admin.headers,
      );
      expect(viaGrpc.error).toBeUndefined();
      expect(viaGrpc.response).toMatchObject({
        label: "grpc",
        project_id: project.id,
        scopes: ALL_SCOPES,
        key: expect.stringMatching(/^gk_/),
      });
      expect(viaGrpc.response.expires_at).toMatchObject({ nullValue: "NULL_VALUE" });
      const denied = await grpcCall(
        grpcClient(server.port, "account"),
        "CreateApiKey",
        { project_id: theirProject.id, label: "x" },
        f.admin.headers,
      );
      expect({ code: denied.error?.code, reason: denied.reason }).toEqual({ code: 5, reason: "PROJECT_NOT_FOUND" });

      const expiresAt = inAnHour();
      const viaConnect = await injectConnect(
        server.handle,
        "account",
        "CreateApiKey",
        { project_id: project.id, label: "c", expires_at: expiresAt },
        f.admin.headers,
      );
      expect(viaConnect.body).toMatchObject({ label: "c", expires_at: expiresAt, key: expect.stringMatching(/^gk_/) });
      const past = await injectConnect(
        server.handle,
        "account",
        "CreateApiKey",
        { project_id: project.id, label: "c", expires_at: "2001-01-01T00:00:00Z" },
        f.admin.headers,
      );
      expect({ status: past.status, reason: connectReason(past.body) }).toEqual({
        status: 400,
        reason: "VALIDATION_FAILED",
      });
    });
  });

  describe("ListApiKeys", () => {
    const list = (headers: Record<string, string>, query = "") => f.rest("GET", `/v1/api-keys${query}`, headers);
    let listed: { live: any; expired: any; revoked: any; second: any };

    beforeAll(async () => {
      const live = await createApiKey(f, project.id, { label: "live" });
      await sleep(3);
      const revoked = await createApiKey(f, project.id, { label: "revoked" });
      expect((await f.rest("DELETE", `/v1/api-keys/${revoked.id}`, f.admin.headers)).status).toBe(200);
      const expired = await createApiKey(f, project.id, {
        label: "expired",
        expires_at: new Date(Date.now() + 300).toISOString(),
      });
      await sleep(3);
      const second = await createApiKey(f, otherProject.id, { label: "second" });
      await sleep(400); // the "expired" key is now past its expiry
      listed = { live, expired, revoked, second };
    });

    const cases: Case[] = [
      { name: "no credential", run: () => list({}), check: fails(401, "MISSING_MANAGEMENT_TOKEN") },
      { name: "expired token", run: () => list(f.expiredHeaders), check: fails(401, "INVALID_MANAGEMENT_TOKEN") },
      {
        name: "filter on another organization's project",
        run: () => list(f.admin.headers, `?project_id=${theirProject.id}`),
        check: fails(404, "PROJECT_NOT_FOUND"),
      },
      {
        name: "filter of the wrong shape",
        run: () => list(f.admin.headers, "?project_id=abc"),
        check: fails(404, "PROJECT_NOT_FOUND"),
      },
      {
        name: "filter on an unknown project",
        run: () => list(f.admin.headers, `?project_id=${newId("proj")}`),
        check: fails(404, "PROJECT_NOT_FOUND"),
      },
      { name: "limit over 100", run: () => list(f.admin.headers, "?limit=101"), check: violates("limit") },
      {
        name: "other organization sees only its own",
        run: () => list(f.outsider.headers),
        check: (res) => {
          expect(res.status).toBe(200);
          expect(res.body.data.map((k: { id: string }) => k.id)).toEqual([theirKey.id]);
        },
      },
      {
        name: "success as a developer: unrevoked keys newest first, expired ones too, never the raw key",
        run: () => list(f.developer.headers, "?limit=100"),
        check: (res) => {
          expect(res.status).toBe(200);
          const ids = res.body.data.map((k: { id: string }) => k.id);
          expect(ids).not.toContain(listed.revoked.id);
          expect(ids).not.toContain(theirKey.id);
          expect(ids.slice(0, 3)).toEqual([listed.second.id, listed.expired.id, listed.live.id]);
          const times = res.body.data.map((k: { created_at: string }) => Date.parse(k.created_at));
          expect(times).toEqual([...times].sort((a, b) => b - a));
          const { key, ...shown } = listed.live;
          expect(res.body.data).toContainEqual(shown);
          expect(res.body.data.find((k: { id: string }) => k.id === listed.expired.id).expires_at).toBe(
            listed.expired.expires_at,
          );
          for (const k of [listed.live, listed.expired, listed.second])
            expect(JSON.stringify(res.body)).not.toContain(k.key);
          expect(res.body.data.every((k: Record<string, unknown>) => !("key" in k))).toBe(true);
        },
      },
      {
        name: "success filtered by project",
        run: () => list(f.admin.headers, `?project_id=${otherProject.id}`),
        check: (res) => {
          expect(res.status).toBe(200);
          expect(res.body).toMatchObject({
            data: [{ id: listed.second.id, project_id: otherProject.id }],
            has_more: false,
            next_cursor: "",
          });
        },
      },
    ];
    for (const c of cases) it(c.name, async () => c.check(await c.run()));

    it("over gRPC and Connect", async () => {
      const viaGrpc = await grpcCall(
        grpcClient(server.port, "account"),
        "ListApiKeys",
        { project_id: otherProject.id },
        f.admin.headers,
      );
      expect(viaGrpc.response.data.map((k: { id: string }) => k.id)).toEqual([listed.second.id]);
      expect(viaGrpc.response.data[0].key_hint).toBe(listed.second.key_hint);
      const viaConnect = await injectConnect(
        server.handle,
        "account",
        "ListApiKeys",
        { project_id: theirProject.id },
        f.admin.headers,
      );
      expect({ status: viaConnect.status, reason: connectReason(viaConnect.body) }).toEqual({
        status: 404,
        reason: "PROJECT_NOT_FOUND",
      });
    });
  });

  describe("RevokeApiKey", () => {
    const del = (id: string, headers: Record<string, string>) => f.rest("DELETE", `/v1/api-keys/${id}`, headers);
    let mine: any;
    beforeAll(async () => {
      mine = await createApiKey(f, project.id, { label: "to revoke" });
    });
    const cases: Case[] = [
      { name: "no credential", run: () => del(mine.id, {}), check: fails(401, "MISSING_MANAGEMENT_TOKEN") },
      {
        name: "expired token",
        run: () => del(mine.id, f.expiredHeaders),
        check: fails(401, "INVALID_MANAGEMENT_TOKEN"),
      },
      {
        name: "another organization's key",
        run: () => del(theirKey.id, f.admin.headers),
        check: fails(404, "API_KEY_NOT_FOUND"),
      },
      {
        name: "our key, seen from another organization",
        run: () => del(mine.id, f.outsider.headers),
        check: fails(404, "API_KEY_NOT_FOUND"),
      },
      { name: "unknown key", run: () => del(newId("key"), f.admin.headers), check: fails(404, "API_KEY_NOT_FOUND") },
      { name: "id of the wrong shape", run: () => del("abc", f.admin.headers), check: fails(404, "API_KEY_NOT_FOUND") },
      { name: "a project id", run: () => del(project.id, f.admin.headers), check: fails(404, "API_KEY_NOT_FOUND") },
    ];
    for (const c of cases) it(c.name, async () => c.check(await c.run()));

    it("refused attempts left the keys working", async () => {
      expect((await authLogin(server.url, mine.key)).body.reason).toBe("INVALID_CREDENTIALS");
      expect((await authLogin(server.url, theirKey.key)).body.reason).toBe("INVALID_CREDENTIALS");
    });

    it("success as a developer: the very next request with the key fails; revoking again answers revoked: false", async () => {
      const key = await createApiKey(f, project.id);
      expect((await authLogin(server.url, key.key)).body.reason).toBe("INVALID_CREDENTIALS");
      const res = await del(key.id, f.developer.headers);
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { revoked: true, id: key.id } });
      expectError(await authLogin(server.url, key.key), 401, "INVALID_API_KEY");
      const again = await del(key.id, f.admin.headers);
      expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: { revoked: false, id: key.id } });
      const listed = await f.rest("GET", "/v1/api-keys?limit=100", f.admin.headers);
      expect(listed.body.data.map((k: { id: string }) => k.id)).not.toContain(key.id);
    });

    it("of two racing revokes exactly one wins", async () => {
      const key = await createApiKey(f, project.id);
      const answers = await Promise.all([del(key.id, f.admin.headers), del(key.id, f.developer.headers)]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect(answers.map((a) => a.body.revoked).sort()).toEqual([false, true]);
    });

    it("over gRPC and Connect", async () => {
      const a = await createApiKey(f, project.id);
      const viaGrpc = await grpcCall(grpcClient(server.port, "account"), "RevokeApiKey", { id: a.id }, f.admin.headers);
      expect(viaGrpc.response).toEqual({ revoked: true, id: a.id });
      const again = await grpcCall(grpcClient(server.port, "account"), "RevokeApiKey", { id: a.id }, f.admin.headers);
      expect(again.response).toEqual({ revoked: false, id: a.id });
      const b = await createApiKey(f, project.id);
      const viaConnect = await injectConnect(
        server.handle,
        "account",
        "RevokeApiKey",
        { id: b.id },
        f.developer.headers,
      );
      expect(viaConnect.body).toEqual({ revoked: true, id: b.id });
      expectError(await authLogin(server.url, b.key), 401, "INVALID_API_KEY");
    });
  });
});
