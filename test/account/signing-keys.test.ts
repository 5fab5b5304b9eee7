import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountFixture, expectError, type AccountFixture } from "../helpers/account.js";
import { grpcCall, grpcClient, http } from "../helpers/clients.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { createApiKey, createProject, RFC3339_UTC } from "./project-helpers.js";

// Threats: a rotation that cuts off tokens already issued, a key that keeps signing after its
// rotation, an old key that never leaves the JWKS, a rotation of another organization's project.

describe("RotateSigningKey", () => {
  let server: TestServer;
  let f: AccountFixture;
  const query = (sql: string, params: unknown[] = []) => server.deps.db.dataSource.query(sql, params);
  const rotate = (id: string, headers: Record<string, string>) =>
    f.rest("POST", `/v1/projects/${id}/signing-keys/rotate`, headers, {});

  beforeAll(async () => {
    server = await sharedTestServer();
    f = await accountFixture(server);
  });
  afterAll(() => server?.stop());

  /** A project with an API key, and a function that signs a new user up and answers the access token. */
  async function projectWithUsers() {
    const project = await createProject(f, { token_expiry: 600 });
    const { key } = await createApiKey(f, project.id);
    let n = 0;
    const auth = (path: string, body: unknown) =>
      http(`${server.url}${path}`, { body, headers: { "x-service-key": key } });
    const signup = async () => {
      const res = await auth("/v1/auth/signup", {
        email: `user${++n}-${Date.now()}@example.com`,
        password: "a sturdy passphrase 1",
      });
      expect(res.status).toBe(200);
      return res.body.access_token as string;
    };
    const verify = async (token: string) => (await auth("/v1/auth/token/verify", { token })).body.valid as boolean;
    const jwksUrl = `${server.url}/v1/auth/${project.login_id}/.well-known/jwks.json`;
    const jwksKids = async () => ((await http(jwksUrl)).body.keys as { kid: string }[]).map((k) => k.kid);
    return { project, signup, verify, jwksUrl, jwksKids };
  }

  it("a developer rotates: new tokens carry the new kid, old tokens still verify, both keys are in the JWKS", async () => {
    const p = await projectWithUsers();
    const before = await p.signup();
    const oldKid = decodeProtectedHeader(before).kid;

    const res = await rotate(p.project.id, f.developer.headers);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["algorithm", "created_at", "id", "kid"]);
    expect(res.body).toMatchObject({ id: p.project.id, algorithm: "ES256" });
    expect(res.body.created_at).toMatch(RFC3339_UTC);
    expect(res.body.kid).not.toBe(oldKid);

    const rows = await query(
      `SELECT kid, retired_at FROM project_signing_keys WHERE project_id = $1 ORDER BY created_at`,
      [p.project.id],
    );
    expect(rows.map((r: any) => r.kid)).toEqual([oldKid, res.body.kid]);
    expect(rows[0].retired_at).not.toBeNull();
    expect(rows[1].retired_at).toBeNull();

    const after = await p.signup();
    expect(decodeProtectedHeader(after).kid).toBe(res.body.kid);
    expect(await p.verify(after)).toBe(true);
    expect(await p.verify(before)).toBe(true);
    expect(await p.jwksKids()).toEqual([res.body.kid, oldKid]);

    // A JOSE client verifies both offline.
    const jwks = createRemoteJWKSet(new URL(p.jwksUrl));
    for (const token of [before, after]) {
      const { payload } = await jwtVerify(token, jwks, { issuer: decodeJwt(token).iss, audience: p.project.id });
      expect(payload.project_id).toBe(p.project.id);
    }

    // Once token_expiry has passed since the retirement, the old key leaves the JWKS and its tokens stop verifying.
    await query(`UPDATE project_signing_keys SET retired_at = now() - interval '601 seconds' WHERE kid = $1`, [oldKid]);
    expect(await p.jwksKids()).toEqual([res.body.kid]);
    expect(await p.verify(before)).toBe(false);
    expect(await p.verify(after)).toBe(true);
  });

  it("works over gRPC; each rotation retires the key before it", async () => {
    const p = await projectWithUsers();
    const first = await grpcCall(
      grpcClient(server.port, "account"),
      "RotateSigningKey",
      { id: p.project.id },
      f.admin.headers,
    );
    expect(first.error).toBeUndefined();
    expect(first.response).toMatchObject({ id: p.project.id, algorithm: "ES256", kid: expect.any(String) });
    expect(first.response.created_at.seconds).toBeGreaterThan(0);
    const second = await rotate(p.project.id, f.admin.headers);
    expect(decodeProtectedHeader(await p.signup()).kid).toBe(second.body.kid);
    const active = await query(`SELECT kid FROM project_signing_keys WHERE project_id = $1 AND retired_at IS NULL`, [
      p.project.id,
    ]);
    expect(active).toEqual([{ kid: second.body.kid }]);
    expect(await p.jwksKids()).toHaveLength(3);
  });

  it("concurrent rotations leave exactly one key signing", async () => {
    const p = await projectWithUsers();
    const answers = await Promise.all(Array.from({ length: 5 }, () => rotate(p.project.id, f.admin.headers)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const active = await query(`SELECT kid FROM project_signing_keys WHERE project_id = $1 AND retired_at IS NULL`, [
      p.project.id,
    ]);
    expect(active).toHaveLength(1);
    expect(decodeProtectedHeader(await p.signup()).kid).toBe(active[0].kid);
  });

  it("another organization's project, an unknown id and a missing token are refused", async () => {
    const p = await projectWithUsers();
    const before = await p.signup();
    expectError(await rotate(p.project.id, f.outsider.headers), 404, "PROJECT_NOT_FOUND");
    expectError(await rotate("proj_00000000000000000000000000", f.admin.headers), 404, "PROJECT_NOT_FOUND");
    expectError(await rotate("not-a-project", f.admin.headers), 404, "PROJECT_NOT_FOUND");
    expectError(await rotate(p.project.id, {}), 401, "MISSING_MANAGEMENT_TOKEN");
    expectError(await rotate(p.project.id, f.expiredHeaders), 401, "INVALID_MANAGEMENT_TOKEN");
    const denied = await grpcCall(
      grpcClient(server.port, "account"),
      "RotateSigningKey",
      { id: p.project.id },
      f.outsider.headers,
    );
    expect(denied.reason).toBe("PROJECT_NOT_FOUND");
    // Nothing changed: one key, still signing.
    const rows = await query(`SELECT kid, retired_at FROM project_signing_keys WHERE project_id = $1`, [p.project.id]);
    expect(rows).toEqual([{ kid: decodeProtectedHeader(before).kid, retired_at: null }]);
  });
});
