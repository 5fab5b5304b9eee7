import { randomBytes, type KeyObject } from "node:crypto";
import {
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  exportSPKI,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWTPayload,
} from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSigningKey } from "../../src/crypto/signing-keys.js";
import { checkAccessToken } from "../../src/flows/auth/verify-access-token.js";
import { accountFixture } from "../helpers/account.js";
import { grpcCall, grpcClient, http } from "../helpers/clients.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { createProject } from "../account/project-helpers.js";
import { authFixture, type AuthFixture } from "./helpers.js";

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe("VerifyToken and RevokeToken", () => {
  let server: TestServer;
  let app: AuthFixture;
  let other: AuthFixture;
  const verify = async (fixture: AuthFixture, token: string) => {
    const res = await fixture.call("POST", "/v1/auth/token/verify", { token });
    expect(res.status).toBe(200);
    return res.body.valid as boolean;
  };
  const revoke = async (token: string, fixture = app) => {
    const res = await fixture.call("POST", "/v1/auth/token/revoke", { token });
    expect(res.status).toBe(200);
    return res.body as { revoked: boolean };
  };
  const activeKey = async (projectId: string) => {
    const key = await server.deps.db.repos.signingKeys.active(projectId);
    return {
      kid: key!.kid,
      privateKey: openSigningKey(server.deps.secrets, key!),
      publicJwk: (await server.deps.db.repos.signingKeys.listPublic(projectId))[0].publicJwk,
    };
  };

  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
    other = await authFixture(server);
  });
  afterAll(() => server?.stop());

  describe("VerifyToken answers valid: false", () => {
    let user: any;
    let base: JWTPayload;
    let own: Awaited<ReturnType<typeof activeKey>>;
    /** The real user's claims, re-signed: a fresh jti, anything overridden. */
    const claims = (overrides: JWTPayload = {}): JWTPayload => ({
      ...base,
      jti: randomBytes(16).toString("base64url"),
      ...overrides,
    });
    const es256 = (payload: JWTPayload, key: CryptoKey | KeyObject, kid: string) =>
      new SignJWT(payload).setProtectedHeader({ alg: "ES256", kid, typ: "JWT" }).sign(key);

    beforeAll(async () => {
      user = (await app.signup()).body;
      base = decodeJwt(user.access_token);
      own = await activeKey(app.projectId);
    });

    it("control: the project's own key with the user's claims verifies", async () => {
      expect(await verify(app, await es256(claims(), own.privateKey, own.kid))).toBe(true);
      expect(await verify(app, user.access_token)).toBe(true);
    });

    it("for malformed and tampered tokens", async () => {
      const [h, p, s] = user.access_token.split(".");
      const tampered = `${h}.${b64({ ...base, sub: "usr_someone_else" })}.${s}`;
      for (const token of [
        "x",
        "not.a.jwt",
        `${h}.${p}`,
        `${h}.${p}.`,
        `${h}.${p}.${s.slice(0, -4)}`,
        tampered,
        user.access_token + "x",
      ]) {
        expect(await verify(app, token), token.slice(0, 40)).toBe(false);
      }
    });

    it("for forged tokens: alg none, HS256 with the public key, unknown kid, another project's key under this kid", async () => {
      const none = `${b64({ alg: "none", kid: own.kid, typ: "JWT" })}.${b64(claims())}.`;
      expect(await verify(app, none)).toBe(false);

      const pem = await exportSPKI((await importJWK(own.publicJwk, "ES256", { extractable: true })) as CryptoKey);
      for (const secret of [new TextEncoder().encode(pem), new TextEncoder().encode(JSON.stringify(own.publicJwk))]) {
        const hs = await new SignJWT(claims())
          .setProtectedHeader({ alg: "HS256", kid: own.kid, typ: "JWT" })
          .sign(secret);
        expect(await verify(app, hs)).toBe(false);
      }

      expect(await verify(app, await es256(claims(), own.privateKey, "some-other-kid"))).toBe(false);
      const stranger = await generateKeyPair("ES256");
      expect(await verify(app, await es256(claims(), stranger.privateKey, own.kid))).toBe(false);
      const foreign = await activeKey(other.projectId);
      expect(await verify(app, await es256(claims(), foreign.privateKey, own.kid))).toBe(false);
      expect(await verify(app, await es256(claims(), foreign.privateKey, foreign.kid))).toBe(false);
      // This project's key, claims naming another project.
      expect(
        await verify(
          app,
          await es256(claims({ aud: other.projectId, project_id: other.projectId }), own.privateKey, own.kid),
        ),
      ).toBe(false);
      expect(await verify(app, await es256(claims({ project_id: other.projectId }), own.privateKey, own.kid))).toBe(
        false,
      );
      expect(await verify(app, await es256(claims({ iss: "https://evil.example.com" }), own.privateKey, own.kid))).toBe(
        false,
      );
    });

    it("for headers Gatehouse does not implement, a DER signature, and missing claims", async () => {
      const sign = (header: Record<string, unknown>, payload: JWTPayload) =>
        new SignJWT(payload).setProtectedHeader({ alg: "ES256", kid: own.kid, ...header }).sign(own.privateKey);
      expect(await verify(app, await sign({ b64: true, crit: ["b64"] }, claims()))).toBe(false);
      // The same signature, DER-encoded instead of r || s.
      const [h, p, s] = (await sign({}, claims())).split(".");
      const raw = Buffer.from(s, "base64url");
      const int = (b: Buffer) => {
        const trimmed = b.subarray(b.findIndex((x) => x !== 0));
        return trimmed[0] & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed;
      };
      const [r, sv] = [int(raw.subarray(0, 32)), int(raw.subarray(32))];
      const der = Buffer.concat([
        Buffer.from([0x30, r.length + sv.length + 4, 0x02, r.length]),
        r,
        Buffer.from([0x02, sv.length]),
        sv,
      ]);
      expect(await verify(app, `${h}.${p}.${s}`)).toBe(true);
      expect(await verify(app, `${h}.${p}.${der.toString("base64url")}`)).toBe(false);
      for (const claim of ["sub", "jti", "sid", "exp", "iat", "aud", "iss"]) {
        const { [claim]: _dropped, ...rest } = claims();
        expect(await verify(app, await sign({}, rest)), `without ${claim}`).toBe(false);
      }
    });

    it("for expired and not-yet-valid tokens (exp past, nbf or iat in the future)", async () => {
      const now = nowSeconds();
      expect(
        await verify(app, await es256(claims({ iat: now - 7200, exp: now - 3600 }), own.privateKey, own.kid)),
      ).toBe(false);
      expect(await verify(app, await es256(claims({ iat: now - 3601, exp: now - 1 }), own.privateKey, own.kid))).toBe(
        false,
      );
      expect(await verify(app, await es256(claims({ nbf: now + 3600 }), own.privateKey, own.kid))).toBe(false);
      expect(
        await verify(app, await es256(claims({ iat: now + 3600, exp: now + 7200 }), own.privateKey, own.kid)),
      ).toBe(false);
      // The same with times that hold is valid: the checks above failed on the times alone.
      expect(
        await verify(
          app,
          await es256(claims({ iat: now - 10, nbf: now - 10, exp: now + 60 }), own.privateKey, own.kid),
        ),
      ).toBe(true);
    });

    it("for a token of another project", async () => {
      const foreign = (await other.signup()).body;
      expect(await verify(other, foreign.access_token)).toBe(true);
      expect(await verify(app, foreign.access_token)).toBe(false);
    });

    it("for a revoked session, a disabled user and a deleted user", async () => {
      const repos = server.deps.db.repos;
      const ended = (await app.signup()).body;
      await repos.sessions.revoke(
        app.projectId,
        ended.user.id,
        decodeJwt(ended.access_token).sid as string,
        new Date(),
      );
      expect(await verify(app, ended.access_token)).toBe(false);

      const disabled = (await app.signup()).body;
      await repos.users.update(app.projectId, disabled.user.id, { disabled: true });
      expect(await verify(app, disabled.access_token)).toBe(false);

      const deleted = (await app.signup()).body;
      expect(await verify(app, deleted.access_token)).toBe(true);
      await repos.users.delete(app.projectId, deleted.user.id);
      expect(await verify(app, deleted.access_token)).toBe(false);
    });

    it("over gRPC too", async () => {
      const client = grpcClient(server.port, "auth");
      const ok = await grpcCall(client, "VerifyToken", { token: user.access_token }, { "x-service-key": app.key });
      expect(ok.response).toMatchObject({
        valid: true,
        claims: { sub: user.user.id, sid: base.sid, project_id: app.projectId },
      });
      const none = `${b64({ alg: "none", kid: own.kid, typ: "JWT" })}.${b64(claims())}.`;
      const bad = await grpcCall(client, "VerifyToken", { token: none }, { "x-service-key": app.key });
      expect(bad.error).toBeUndefined();
      expect(bad.response.valid).toBe(false);
      expect(bad.response.claims ?? null).toBeNull();
    });
  });

  it("tokens verify offline with jose against the project's JWKS, which is cacheable and holds public keys only", async () => {
    const { body } = await app.signup();
    const url = `${server.url}/v1/auth/${app.loginId}/.well-known/jwks.json`;
    const res = await http(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.body.keys.map((k: any) => k.kid)).toContain(decodeProtectedHeader(body.access_token).kid);
    for (const key of res.body.keys) {
      expect(key).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
      expect(key).not.toHaveProperty("d");
    }
    const jwks = createRemoteJWKSet(new URL(url));
    const iss = decodeJwt(body.access_token).iss!;
    expect(iss.endsWith(`/v1/auth/${app.loginId}`)).toBe(true);
    const { payload, protectedHeader } = await jwtVerify(body.access_token, jwks, {
      issuer: iss,
      audience: app.projectId,
      algorithms: ["ES256"],
    });
    expect(protectedHeader.alg).toBe("ES256");
    expect(payload).toMatchObject({ sub: body.user.id, project_id: app.projectId });
    // Another project's token does not verify against this JWKS.
    const foreign = (await other.signup()).body;
    await expect(jwtVerify(foreign.access_token, jwks)).rejects.toThrow();
  });

  it("after DeleteProject every token of the project fails, its API key dies and its JWKS answers 404", async () => {
    const f = await accountFixture(server);
    const project = await createProject(f);
    const created = await f.rest("POST", "/v1/api-keys", f.admin.headers, { project_id: project.id, label: "backend" });
    expect(created.status).toBe(200);
    const key = created.body.key as string;
    const call = (path: string, body: unknown) =>
      http(`${server.url}${path}`, { body, headers: { "x-service-key": key } });
    const signup = await call("/v1/auth/signup", { email: "doomed@example.com", password: "a sturdy passphrase 1" });
    expect(signup.status).toBe(200);
    const token = signup.body.access_token as string;
    expect((await call("/v1/auth/token/verify", { token })).body.valid).toBe(true);
    const stale = (await server.deps.db.repos.projects.get(f.organization.id, project.id))!;
    expect(await checkAccessToken(server.deps, stale, token)).toBeDefined();
    const jwksUrl = `${server.url}/v1/auth/${project.login_id}/.well-known/jwks.json`;
    expect((await http(jwksUrl)).status).toBe(200);

    const deleted = await f.rest("DELETE", `/v1/projects/${project.id}`, f.admin.headers);
    expect(deleted.body).toEqual({ deleted: true, id: project.id });

    const withDeadKey = await call("/v1/auth/token/verify", { token });
    expect({ status: withDeadKey.status, reason: withDeadKey.body.reason }).toEqual({
      status: 401,
      reason: "INVALID_API_KEY",
    });
    expect(await checkAccessToken(server.deps, stale, token)).toBeUndefined(); // no key of the project is left to verify it
    expect(await verify(app, token)).toBe(false);
    expect((await http(jwksUrl)).status).toBe(404);
  });

  describe("RevokeToken", () => {
    it("an access token: its jti is denied until it expires; the session's refresh token still works", async () => {
      const { body } = await app.signup();
      expect(await revoke(body.access_token)).toEqual({ revoked: true });
      expect(await verify(app, body.access_token)).toBe(false);
      const [row] = await server.deps.db.dataSource.query(
        `SELECT expires_at FROM revoked_access_tokens WHERE jti = $1`,
        [decodeJwt(body.access_token).jti],
      );
      expect(new Date(row.expires_at).getTime() / 1000).toBe(decodeJwt(body.access_token).exp);

      const again = await grpcCall(
        grpcClient(server.port, "auth"),
        "RevokeToken",
        { token: body.access_token },
        { "x-service-key": app.key },
      );
      expect(again.error).toBeUndefined();
      expect(again.response).toEqual({ revoked: false });

      const refreshed = await app.call("POST", "/v1/auth/token/refresh", { refresh_token: body.refresh_token });
      expect(refreshed.status).toBe(200);
      expect(decodeJwt(refreshed.body.access_token).sid).toBe(decodeJwt(body.access_token).sid);
      expect(await verify(app, refreshed.body.access_token)).toBe(true);
    });

    it("a refresh token: it dies, the session's access token still verifies", async () => {
      const { body } = await app.signup();
      const viaGrpc = await grpcCall(
        grpcClient(server.port, "auth"),
        "RevokeToken",
        { token: body.refresh_token },
        { "x-service-key": app.key },
      );
      expect(viaGrpc.response).toEqual({ revoked: true });
      const refreshed = await app.call("POST", "/v1/auth/token/refresh", { refresh_token: body.refresh_token });
      expect({ status: refreshed.status, reason: refreshed.body.reason }).toEqual({
        status: 401,
        reason: "INVALID_REFRESH_TOKEN",
      });
      expect(await verify(app, body.access_token)).toBe(true);
      expect(await revoke(body.refresh_token)).toEqual({ revoked: false });
    });

    it("unknown, malformed, rotated and foreign tokens answer revoked: false and change nothing", async () => {
      expect(await revoke("grt_unknown")).toEqual({ revoked: false });
      expect(await revoke("a.b.c")).toEqual({ revoked: false });

      const foreign = (await other.signup()).body;
      expect(await revoke(foreign.access_token)).toEqual({ revoked: false });
      expect(await revoke(foreign.refresh_token)).toEqual({ revoked: false });
      expect(await verify(other, foreign.access_token)).toBe(true);
      expect(
        (await other.call("POST", "/v1/auth/token/refresh", { refresh_token: foreign.refresh_token })).status,
      ).toBe(200);

      const { body } = await app.signup();
      const next = (await app.call("POST", "/v1/auth/token/refresh", { refresh_token: body.refresh_token })).body;
      expect(await revoke(body.refresh_token)).toEqual({ revoked: false }); // already rotated
      expect((await app.call("POST", "/v1/auth/token/refresh", { refresh_token: next.refresh_token })).status).toBe(
        200,
      );
    });
  });
});
