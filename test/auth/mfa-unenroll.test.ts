import { beforeAll, describe, expect, it } from "vitest";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import {
  challenge,
  enrollTotp,
  expectChallenge,
  expectReason,
  freshCode,
  getUser,
  login,
  newUser,
  parseTotpUri,
  totpUser,
  verifyMfa,
} from "./mfa-helpers.js";

// Threats: a removed factor (or its recovery codes) still answering challenges, and a user of
// a project that requires MFA removing the last factor to sign in with a password alone.

describe("UnenrollMfa", () => {
  const ctx = useMessagingServer({ sms: true });
  const { clock, sql } = ctx;
  let app: AuthFixture;
  let required: AuthFixture;
  beforeAll(async () => {
    app = await authFixture(ctx.server);
    required = await authFixture(ctx.server, { mfaRequired: true });
  });

  const unenroll = (fixture: AuthFixture, method: string, accessToken?: string) =>
    fixture.call("POST", "/v1/auth/mfa/unenroll", { method }, accessToken);

  it("removes the method: mfa_enabled turns false, login answers tokens directly, and the recovery codes are gone", async () => {
    const user = await totpUser(app, clock);
    const res = await unenroll(app, "totp", user.accessToken);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ unenrolled: true });

    expect(await getUser(app, user.userId)).toMatchObject({ mfa_enabled: false, mfa_methods: [] });
    const direct = await login(app, user);
    expect(direct.status).toBe(200);
    expect(direct.body.access_token).toBeTruthy();
    expect(direct.body).not.toHaveProperty("mfa_token");
    expect(await sql(`SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = $1`, [user.userId])).toEqual([
      { n: 0 },
    ]);
    expect(await sql(`SELECT count(*)::int AS n FROM mfa_factors WHERE user_id = $1`, [user.userId])).toEqual([
      { n: 0 },
    ]);

    // Enrolled again: a new secret and a new set of codes; neither the old secret nor an old code answers.
    const again = await enrollTotp(app, clock, direct.body.access_token);
    expect(again.secret).not.toBe(user.secret);
    expect(again.recoveryCodes).toHaveLength(10);
    expectReason(
      await verifyMfa(app, { mfa_token: await challenge(app, user), code: user.recoveryCodes[0] }),
      401,
      "INVALID_CODE",
    );
    expectReason(
      await verifyMfa(app, { mfa_token: await challenge(app, user), code: await freshCode(user.secret, clock) }),
      401,
      "INVALID_CODE",
    );
    expect((await verifyMfa(app, { mfa_token: await challenge(app, user), code: again.recoveryCodes[0] })).status).toBe(
      200,
    );
  });

  it("a method that is not enrolled, or only pending, is 400 MFA_NOT_ENROLLED and changes nothing", async () => {
    const plain = await newUser(app);
    expectReason(await unenroll(app, "totp", plain.accessToken), 400, "MFA_NOT_ENROLLED");

    const user = await totpUser(app, clock);
    expectReason(await unenroll(app, "sms", user.accessToken), 400, "MFA_NOT_ENROLLED");
    expect(await getUser(app, user.userId)).toMatchObject({ mfa_enabled: true, mfa_methods: ["totp"] });

    const pending = await newUser(app);
    const start = await app.call("POST", "/v1/auth/mfa/enroll", { method: "totp" }, pending.accessToken);
    expectReason(await unenroll(app, "totp", pending.accessToken), 400, "MFA_NOT_ENROLLED");
    // The pending enrollment is still there to finish.
    const done = await verifyMfa(
      app,
      { code: await freshCode(parseTotpUri(start.body.totp_uri).secret, clock) },
      pending.accessToken,
    );
    expect(done.body.enrolled).toBe(true);
  });

  it("needs the user's access token: without one, 401 MISSING_ACCESS_TOKEN", async () => {
    const user = await totpUser(app, clock);
    expectReason(await unenroll(app, "totp"), 401, "MISSING_ACCESS_TOKEN");
    expect(await getUser(app, user.userId)).toMatchObject({ mfa_enabled: true });
  });

  describe("in a project with mfa_required", () => {
    /** Signup answers the enrollment challenge; TOTP enrolled with its mfa_token gives the tokens. */
    async function requiredUser() {
      const { email, password, body } = await required.signup();
      const mfaToken = expectChallenge({ status: 200, headers: new Headers(), body }, []);
      const start = await required.call("POST", "/v1/auth/mfa/enroll", { method: "totp", mfa_token: mfaToken });
      expect(start.status, JSON.stringify(start.body)).toBe(200);
      const secret = parseTotpUri(start.body.totp_uri).secret;
      const done = await required.call("POST", "/v1/auth/mfa/verify", {
        mfa_token: mfaToken,
        code: await freshCode(secret, clock),
      });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      return {
        email,
        password,
        secret,
        userId: done.body.user.id as string,
        accessToken: done.body.access_token as string,
      };
    }

    it("removing the last method is 403 MFA_REQUIRED_BY_PROJECT, and the method stays", async () => {
      const user = await requiredUser();
      expectReason(await unenroll(required, "totp", user.accessToken), 403, "MFA_REQUIRED_BY_PROJECT");
      expect(await getUser(required, user.userId)).toMatchObject({ mfa_enabled: true, mfa_methods: ["totp"] });
      expect(await sql(`SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = $1`, [user.userId])).toEqual([
        { n: 10 },
      ]);
      await challenge(required, user, ["totp"]);
    });

    it("removing one of two methods is allowed; then the other is the last and stays", async () => {
      const user = await requiredUser();
      const phone = `+1555${String(process.pid % 1000).padStart(3, "0")}8001`;
      expect(
        (await required.call("POST", "/v1/auth/mfa/enroll", { method: "sms", phone }, user.accessToken)).status,
      ).toBe(200);
      expect(
        (await required.call("POST", "/v1/auth/mfa/verify", { code: await ctx.sms.codeFor(phone) }, user.accessToken))
          .body.enrolled,
      ).toBe(true);

      const res = await unenroll(required, "totp", user.accessToken);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ unenrolled: true });
      expect(await getUser(required, user.userId)).toMatchObject({ mfa_enabled: true, mfa_methods: ["sms"] });
      expectReason(await unenroll(required, "sms", user.accessToken), 403, "MFA_REQUIRED_BY_PROJECT");
      // The recovery codes stay with the remaining method.
      expect(await sql(`SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = $1`, [user.userId])).toEqual([
        { n: 10 },
      ]);
      await challenge(required, user, ["sms"]);
    });
  });
});
