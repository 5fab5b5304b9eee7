import { beforeAll, describe, expect, it } from "vitest";
import { connectReason, grpcCall, grpcClient, http } from "../helpers/clients.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { startTestServer } from "../helpers/server.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import {
  base32Bytes,
  challenge,
  claims,
  expectReason,
  freshCode,
  getUser,
  newUser,
  nextStep,
  parseTotpUri,
  tokenValid,
  totpAt,
  totpUser,
  verifyMfa,
} from "./mfa-helpers.js";
import { injectConnect } from "../helpers/inject.js";

// Threats: a TOTP factor active before its owner proved the authenticator holds the secret; a
// seed readable from the database; a code accepted twice (RFC 6238 §5.2: an observed code
// replayed within its step, here or through another server); a window wider than one step.

const ON_POSTGRES = Boolean(process.env.DATABASE_URL);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("TOTP", () => {
  const ctx = useMessagingServer();
  const { clock, sql } = ctx;
  let app: AuthFixture;
  beforeAll(async () => {
    app = await authFixture(ctx.server);
  });

  describe("enrollment with an access token", () => {
    it("StartMfaEnrollment answers an otpauth:// URI for the project and the email, a secret of at least 20 bytes, and a PNG QR code of it", async () => {
      const user = await newUser(app);
      const res = await app.call("POST", "/v1/auth/mfa/enroll", { method: "totp" }, user.accessToken);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.method).toBe("totp");

      expect(res.body.totp_uri).toMatch(/^otpauth:\/\/totp\//);
      const uri = parseTotpUri(res.body.totp_uri);
      expect(uri.type).toBe("totp");
      expect(uri.label).toBe(`Auth test:${user.email}`);
      expect(uri.issuer).toBe("Auth test");
      expect(uri.secret).toMatch(/^[A-Z2-7]+=*$/);
      expect(base32Bytes(uri.secret).length).toBeGreaterThanOrEqual(20);

      expect(res.body.qr_code).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
      const png = Buffer.from(res.body.qr_code.slice("data:image/png;base64,".length), "base64");
      expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
      expect(png.length).toBeGreaterThan(200);

      // Pending, not active: the user has no MFA yet and still signs in with a password alone.
      expect(await getUser(app, user.userId)).toMatchObject({ mfa_enabled: false, mfa_methods: [] });
      const login = await app.call("POST", "/v1/auth/login", { email: user.email, password: user.password });
      expect(login.status).toBe(200);
      expect(login.body.access_token).toBeTruthy();

      // The seed is sealed at rest: neither its base32 form nor its bytes appear in the row.
      const rows = await sql(`SELECT secret_sealed FROM mfa_factors WHERE user_id = $1`, [user.userId]);
      expect(rows).toHaveLength(1);
      expect(rows[0].secret_sealed).toBeTruthy();
      expect(rows[0].secret_sealed).not.toContain(uri.secret);
      expect(rows[0].secret_sealed.toUpperCase()).not.toContain(uri.secret.slice(0, 16));
      expect(rows[0].secret_sealed).not.toContain(base32Bytes(uri.secret).toString("hex"));
      expect(rows[0].secret_sealed).not.toContain(base32Bytes(uri.secret).toString("base64").slice(0, 16));
    });

    it("the factor becomes active only with a valid code: VerifyMfa answers enrolled, the method and ten distinct recovery codes", async () => {
      const user = await newUser(app);
      const start = await app.call("POST", "/v1/auth/mfa/enroll", { method: "totp" }, user.accessToken);
      const { secret } = parseTotpUri(start.body.totp_uri);
      nextStep(clock);

      const wrong = await verifyMfa(
        app,
        { code: (Number(await totpAt(secret, clock)) ^ 1).toString().padStart(6, "0") },
        user.accessToken,
      );
      expectReason(wrong, 401, "INVALID_CODE");
      expect(await getUser(app, user.userId)).toMatchObject({ mfa_enabled: false, mfa_methods: [] });

      const done = await verifyMfa(app, { code: await totpAt(secret, clock) }, user.accessToken);
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body).toMatchObject({ enrolled: true, method: "totp" });
      expect(done.body.recovery_codes).toHaveLength(10);
      expect(new Set(done.body.recovery_codes).size).toBe(10);
      for (const code of done.body.recovery_codes) expect(code).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
      // Finalizing with an access token is not a sign-in: no token fields.
      expect(done.body).not.toHaveProperty("access_token");
      expect(done.body).not.toHaveProperty("refresh_token");

      expect(await getUser(app, user.userId)).toMatchObject({ mfa_enabled: true, mfa_methods: ["totp"] });
    });

    it("starting TOTP again once it is enrolled is 409 MFA_ALREADY_ENROLLED, and the active secret keeps working", async () => {
      const user = await totpUser(app, clock);
      expectReason(
        await app.call("POST", "/v1/auth/mfa/enroll", { method: "totp" }, user.accessToken),
        409,
        "MFA_ALREADY_ENROLLED",
      );
      const mfaToken = await challenge(app, user);
      expect((await verifyMfa(app, { mfa_token: mfaToken, code: await freshCode(user.secret, clock) })).status).toBe(
        200,
      );
    });

    it("restarting a pending enrollment replaces the secret: the first secret's code no longer finalizes it", async () => {
      const user = await newUser(app);
      const first = parseTotpUri(
        (await app.call("POST", "/v1/auth/mfa/enroll", { method: "totp" }, user.accessToken)).body.totp_uri,
      ).secret;
      const second = parseTotpUri(
        (await app.call("POST", "/v1/auth/mfa/enroll", { method: "totp" }, user.accessToken)).body.totp_uri,
      ).secret;
      expect(second).not.toBe(first);

      nextStep(clock);
      expectReason(await verifyMfa(app, { code: await totpAt(first, clock) }, user.accessToken), 401, "INVALID_CODE");
      const done = await verifyMfa(app, { code: await totpAt(second, clock) }, user.accessToken);
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body.enrolled).toBe(true);
      expect(await sql(`SELECT count(*)::int AS n FROM mfa_factors WHERE user_id = $1`, [user.userId])).toEqual([
        { n: 1 },
      ]);
    });

    it("VerifyMfa with an access token and nothing pending is 400 MFA_NOT_ENROLLED; with neither token, 401 MISSING_ACCESS_TOKEN", async () => {
      const user = await newUser(app);
      expectReason(await verifyMfa(app, { code: "123456" }, user.accessToken), 400, "MFA_NOT_ENROLLED");
      expectReason(await verifyMfa(app, { code: "123456" }), 401, "MISSING_ACCESS_TOKEN");
      expectReason(await app.call("POST", "/v1/auth/mfa/enroll", { method: "totp" }), 401, "MISSING_ACCESS_TOKEN");
    });
  });

  describe("sign-in", () => {
    it("a password login answers the challenge; VerifyMfa with the code answers tokens whose amr is pwd and totp", async () => {
      const user = await totpUser(app, clock);
      const mfaToken = await challenge(app, user, ["totp"]);

      const res = await verifyMfa(app, { mfa_token: mfaToken, code: await freshCode(user.secret, clock) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({
        token_type: "Bearer",
        expires_in: 3600,
        user: { id: user.userId, mfa_enabled: true, mfa_methods: ["totp"] },
      });
      expect(res.body).not.toHaveProperty("mfa_token");
      expect(res.body).not.toHaveProperty("mfa_required");
      expect(claims(res.body.access_token)).toMatchObject({ sub: user.userId, amr: ["pwd", "totp"] });
      expect(await tokenValid(app, res.body.access_token)).toBe(true);
      const refreshed = await app.call("POST", "/v1/auth/token/refresh", { refresh_token: res.body.refresh_token });
      expect(refreshed.status).toBe(200);
      expect(claims(refreshed.body.access_token).amr).toEqual(["pwd", "totp"]);
    });

    it("a code one step early or late is accepted, two steps early or late is not", async () => {
      const user = await totpUser(app, clock);
      // Two steps on from the enrollment's, so the step before this one was never used.
      nextStep(clock);
      nextStep(clock);
      const early = await challenge(app, user);
      expectReason(
        await verifyMfa(app, { mfa_token: early, code: await totpAt(user.secret, clock, -60) }),
        401,
        "INVALID_CODE",
      );
      expectReason(
        await verifyMfa(app, { mfa_token: early, code: await totpAt(user.secret, clock, +60) }),
        401,
        "INVALID_CODE",
      );
      const previous = await verifyMfa(app, { mfa_token: early, code: await totpAt(user.secret, clock, -30) });
      expect(previous.status, JSON.stringify(previous.body)).toBe(200);

      const late = await challenge(app, user);
      const next = await verifyMfa(app, { mfa_token: late, code: await totpAt(user.secret, clock, +30) });
      expect(next.status, JSON.stringify(next.body)).toBe(200);
      expect(claims(next.body.access_token).amr).toEqual(["pwd", "totp"]);
    });

    it("the same code is never accepted twice: a second sign-in in the same step with it is INVALID_CODE, the next step's code works", async () => {
      const user = await totpUser(app, clock);
      const code = await freshCode(user.secret, clock);
      expect((await verifyMfa(app, { mfa_token: await challenge(app, user), code })).status).toBe(200);

      const replay = await challenge(app, user);
      expectReason(await verifyMfa(app, { mfa_token: replay, code }), 401, "INVALID_CODE");
      // Nor an older step's code once a newer one was accepted.
      expectReason(
        await verifyMfa(app, { mfa_token: replay, code: await totpAt(user.secret, clock, -30) }),
        401,
        "INVALID_CODE",
      );
      expect((await verifyMfa(app, { mfa_token: replay, code: await freshCode(user.secret, clock) })).status).toBe(200);
    });

    it(`the same code is refused by a second server sharing the database${ON_POSTGRES ? "" : " (PGlite: one process, so the same server)"}`, async () => {
      // PGlite is one process: a second server cannot open its folder, so the second is the first.
      const other = ON_POSTGRES ? await startTestServer({}, ctx.server.database, { clock }) : ctx.server;
      try {
        const user = await totpUser(app, clock);
        const code = await freshCode(user.secret, clock);
        expect((await verifyMfa(app, { mfa_token: await challenge(app, user), code })).status).toBe(200);

        const viaOther = (path: string, body: unknown) =>
          http(`${other.url}${path}`, { headers: { "x-service-key": app.key }, body });
        const login = await viaOther("/v1/auth/login", { email: user.email, password: user.password });
        expect(login.body.mfa_required).toBe(true);
        expectReason(
          await viaOther("/v1/auth/mfa/verify", { mfa_token: login.body.mfa_token, code }),
          401,
          "INVALID_CODE",
        );
      } finally {
        if (other !== ctx.server) await other.close();
      }
    });

    it("one code sent to ten challenges at once signs in exactly once", async () => {
      const user = await totpUser(app, clock);
      const tokens = await Promise.all(Array.from({ length: 10 }, () => challenge(app, user)));
      const code = await freshCode(user.secret, clock);
      const answers = await Promise.all(tokens.map((mfa_token) => verifyMfa(app, { mfa_token, code })));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      for (const refused of answers.filter((a) => a.status !== 200)) expectReason(refused, 401, "INVALID_CODE");
    });

    it("VerifyMfa answers the same over Connect JSON and gRPC", async () => {
      const user = await totpUser(app, clock);
      const headers = { "x-service-key": app.key };

      const overConnect = await injectConnect(
        ctx.server.handle,
        "auth",
        "VerifyMfa",
        { mfa_token: await challenge(app, user), code: await freshCode(user.secret, clock) },
        headers,
      );
      expect(overConnect.status, JSON.stringify(overConnect.body)).toBe(200);
      expect(overConnect.body).toMatchObject({ token_type: "Bearer", user: { id: user.userId } });
      expect(claims(overConnect.body.access_token).amr).toEqual(["pwd", "totp"]);
      const wrongConnect = await injectConnect(
        ctx.server.handle,
        "auth",
        "VerifyMfa",
        { mfa_token: await challenge(app, user), code: "000000x" },
        headers,
      );
      expect(wrongConnect.status).toBe(401);
      expect(connectReason(wrongConnect.body)).toBe("INVALID_CODE");

      const client = grpcClient(ctx.server.port, "auth");
      try {
        const mfaToken = await challenge(app, user);
        const wrong = await grpcCall(client, "VerifyMfa", { mfa_token: mfaToken, code: "not-a-code" }, headers);
        expect(wrong.error?.code).toBe(16); // UNAUTHENTICATED
        expect(wrong.reason).toBe("INVALID_CODE");
        const right = await grpcCall(
          client,
          "VerifyMfa",
          { mfa_token: mfaToken, code: await freshCode(user.secret, clock) },
          headers,
        );
        expect(right.error).toBeUndefined();
        expect(right.response.token_type).toBe("Bearer");
        expect(claims(right.response.access_token)).toMatchObject({ sub: user.userId, amr: ["pwd", "totp"] });
        expect(await tokenValid(app, right.response.access_token)).toBe(true);
      } finally {
        client.close();
      }
    });
  });
});
