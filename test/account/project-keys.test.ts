import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalJWKSet, jwtVerify, SignJWT } from "jose";
import { newId } from "../../src/crypto/ids.js";
import { generateSigningKey, openSigningKey } from "../../src/crypto/signing-keys.js";
import { accountFixture, expectError, type AccountFixture } from "../helpers/account.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { createProject } from "./project-helpers.js";

// Threats: a project's private signing key readable at rest, or usable for another project;
// a deleted project's keys lingering; a login id reissued to a new project, so stale links,
// JWKS URLs and tokens of the deleted project reach the new one.

describe("project signing keys and login ids", () => {
  let server: TestServer;
  let f: AccountFixture;
  let project: any;
  const query = (sql: string, params: unknown[] = []) => server.deps.db.dataSource.query(sql, params);

  beforeAll(async () => {
    server = await sharedTestServer();
    f = await accountFixture(server);
    project = await createProject(f);
  });
  afterAll(() => server?.stop());

  it("every project gets its own ES256 key pair, private half sealed at rest, that signs verifiable JWTs", async () => {
    const other = await createProject(f);
    const rows = await query(
      "SELECT project_id, organization_id, kid, algorithm, public_jwk, private_jwk_sealed, retired_at FROM project_signing_keys WHERE project_id = ANY($1)",
      [[project.id, other.id]],
    );
    expect(rows).toHaveLength(2);
    const row = rows.find((r: any) => r.project_id === project.id);
    expect(row).toMatchObject({ organization_id: f.organization.id, algorithm: "ES256", retired_at: null });
    expect(row.public_jwk).toEqual({
      kty: "EC",
      crv: "P-256",
      x: expect.any(String),
      y: expect.any(String),
      kid: row.kid,
      alg: "ES256",
      use: "sig",
    });
    expect(rows[0].kid).not.toBe(rows[1].kid);

    // Encrypted at rest: neither the text nor its decoded bytes show the private scalar.
    const privateJwk = JSON.parse(server.deps.secrets.open(row.private_jwk_sealed, row.kid).toString("utf8"));
    expect(privateJwk.d).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(row.private_jwk_sealed).toMatch(/^v1\./);
    for (const text of [
      row.private_jwk_sealed,
      Buffer.from(row.private_jwk_sealed.slice(3), "base64url").toString("latin1"),
    ]) {
      expect(text).not.toContain(privateJwk.d);
      expect(text).not.toContain('"d"');
    }
    // Bound to its kid: pasted onto another key's row it does not open.
    const otherRow = rows.find((r: any) => r.project_id === other.id);
    expect(() => server.deps.secrets.open(row.private_jwk_sealed, otherRow.kid)).toThrow();

    const repos = server.deps.db.repos;
    const active = await repos.signingKeys.active(project.id);
    expect(active?.kid).toBe(row.kid);
    const jwt = await new SignJWT({ sub: "usr_test" })
      .setProtectedHeader({ alg: "ES256", kid: active!.kid })
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(openSigningKey(server.deps.secrets, active!));
    const jwks = async (projectId: string) =>
      createLocalJWKSet({ keys: (await repos.signingKeys.listPublic(projectId)).map((k) => k.publicJwk) });
    const { payload, protectedHeader } = await jwtVerify(jwt, await jwks(project.id));
    expect({ sub: payload.sub, kid: protectedHeader.kid }).toEqual({ sub: "usr_test", kid: row.kid });
    // Another project's keys do not verify it.
    await expect(jwtVerify(jwt, await jwks(other.id))).rejects.toThrow();
  });

  it("active() is the newest key not retired; listPublic() keeps a retired key while asked to", async () => {
    const p = await createProject(f);
    const repos = server.deps.db.repos;
    const first = (await repos.signingKeys.active(p.id))!;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await repos.signingKeys.create(f.organization.id, {
      projectId: p.id,
      ...(await generateSigningKey(server.deps.secrets)),
    });
    expect((await repos.signingKeys.active(p.id))?.kid).toBe(second.kid);

    const retiredAt = new Date();
    await query("UPDATE project_signing_keys SET retired_at = $2 WHERE kid = $1", [second.kid, retiredAt]);
    expect((await repos.signingKeys.active(p.id))?.kid).toBe(first.kid);
    const kids = async (after?: Date) => (await repos.signingKeys.listPublic(p.id, after)).map((k) => k.kid);
    expect(await kids()).toEqual([first.kid]);
    expect(await kids(new Date(retiredAt.getTime() - 1000))).toEqual([second.kid, first.kid]);
    expect(await kids(new Date(retiredAt.getTime() + 1000))).toEqual([first.kid]);
    // Nothing private in what a JWKS is built from.
    for (const key of await repos.signingKeys.listPublic(p.id)) expect(Object.keys(key.publicJwk)).not.toContain("d");
  });

  it("deleting the project deletes its signing keys", async () => {
    const doomed = await createProject(f);
    expect(await server.deps.db.repos.signingKeys.listPublic(doomed.id)).toHaveLength(1);
    expect((await f.rest("DELETE", `/v1/projects/${doomed.id}`, f.admin.headers)).status).toBe(200);
    expect(await query("SELECT kid FROM project_signing_keys WHERE project_id = $1", [doomed.id])).toEqual([]);
    expect(await server.deps.db.repos.signingKeys.active(doomed.id)).toBeNull();
    expectError(await f.rest("GET", `/v1/projects/${doomed.id}`, f.admin.headers), 404, "PROJECT_NOT_FOUND");
  });

  it("login ids are distinct", async () => {
    const a = await createProject(f);
    const b = await createProject(f);
    expect(new Set([project.login_id, a.login_id, b.login_id]).size).toBe(3);
  });

  it("its login id is never issued again", async () => {
    const doomed = await createProject(f);
    expect((await f.rest("DELETE", `/v1/projects/${doomed.id}`, f.admin.headers)).status).toBe(200);
    expect(await query("SELECT project_id FROM issued_login_ids WHERE login_id = $1", [doomed.login_id])).toEqual([
      { project_id: doomed.id },
    ]);
    // Even a write that bypasses the repositories cannot give it to a new project.
    await expect(
      query(
        "INSERT INTO projects (id, organization_id, login_id, name, redirect_url) VALUES ($1, $2, $3, 'x', 'https://x.example.com')",
        [newId("proj"), f.organization.id, doomed.login_id],
      ),
    ).rejects.toThrow(/projects_login_id_issued_fkey/);
    await expect(
      query("INSERT INTO issued_login_ids (login_id, project_id) VALUES ($1, $2)", [doomed.login_id, newId("proj")]),
    ).rejects.toThrow(/issued_login_ids_pkey/);
  });
});
