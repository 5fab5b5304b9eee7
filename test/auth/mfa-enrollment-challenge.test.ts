import { beforeAll, describe, expect, it } from "vitest";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import {
  claims,
  expectChallenge,
  expectReason,
  freshCode,
  getUser,
  login,
  nextStep,
  parseTotpUri,
  tokenValid,
  totpAt,
} from "./mfa-helpers.js";

// Threats: a project that requires MFA handing out tokens to a user without it (at signup or
// at login), and the enrollment-only mfa_token used for anything but enrolling, or a sign-in
// challenge's mfa_token used to add a factor the user never had.

describe("the enrollment challenge of a project with mfa_required", () => {
  const ctx = useMessagingServer({ sms: true });
  const { clock } = ctx;
  let required: AuthFixture;
  let otherRequired: AuthFixture;
  beforeAll(async () => {
    required = await authFixture(ctx.server, { mfaRequired: true });
    otherRequired = await authFixture(ctx.server, { mfaRequired: true });
  });

  const asAnswer = (body: any) => ({ status: 200, headers: new Headers(), body });
  const enroll = (body: Record<string, unknown>, fixture = required) =>
    fixture.call("POST", "/v1/auth/mfa/enroll", body);
  const verify = (body: Record<string, unknown>, fixture = required) =>
    fixture.call("POST", "/v1/auth/mfa/verify", body);

  /** Signs up; answers the enrollment challenge's mfa_token. */
  async function signupChallenged() {
    const { email, password, body } = await required.signup();
    return { email, password, mfaToken: expectChallenge(asAnswer(body), []) };
  }

  it("signup answers the challenge with mfa_methods [] and no tokens; StartMfaEnrollment and VerifyMfa with its mfa_token answer tokens and the enrollment", async () => {
    const user = await signupChallenged();

    const start = await enroll({ method: "totp", mfa_token: user.mfaToken });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const uri = parseTotpUri(start.body.totp_uri);
    expect(uri.label).toBe(`Auth test:${user.email}`);
    expect(start.body.qr_code).toMatch(/^data:image\/png;base64,/);

    const done = await verify({ mfa_token: user.mfaToken, code: await freshCode(uri.secret, clock) });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({
      enrolled: true,
      method: "totp",
      token_type: "Bearer",
      user: { email: user.email, mfa_enabled: true, mfa_methods: ["totp"] },
    });
    expect(done.body.recovery_codes).toHaveLength(10);
    expect(new Set(done.body.recovery_codes).size).toBe(10);
    expect(claims(done.body.access_token).amr).toEqual(["pwd", "totp"]);
    expect(await tokenValid(required, done.body.access_token)).toBe(true);
    expect(done.body.refresh_token).toMatch(/^grt_/);

    // The mfa_token is spent; the next login is an ordinary sign-in challenge.
    expectReason(
      await verify({ mfa_token: user.mfaToken, code: await freshCode(uri.secret, clock) }),
      401,
      "INVALID_MFA_TOKEN",
    );
    const next = expectChallenge(await login(required, user), ["totp"]);
    expect((await verify({ mfa_token: next, code: await freshCode(uri.secret, clock) })).status).toBe(200);
  });

  it("a login of a user without MFA answers the same enrollment challenge, not tokens", async () => {
    const user = await signupChallenged();
    const res = await login(required, user);
    const mfaToken = expectChallenge(res, []);
    const listed = await required.call("GET", `/v1/auth/users?search=${encodeURIComponent(user.email)}`);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({ mfa_enabled: false, mfa_methods: [] });

    // SMS works as the first factor too, and the sign-in proof carries through: amr pwd, sms.
    const phone = `+1555${String(process.pid % 1000).padStart(3, "0")}7001`;
    const start = await enroll({ method: "sms", phone, mfa_token: mfaToken });
    expect(start.body).toEqual({ method: "sms", totp_uri: "", qr_code: "" });
    const done = await verify({ mfa_token: mfaToken, code: await ctx.sms.codeFor(phone) });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ enrolled: true, method: "sms" });
    expect(claims(done.body.access_token).amr).toEqual(["pwd", "sms"]);
    expect(await getUser(required, listed.body.data[0].id)).toMatchObject({ mfa_enabled: true, mfa_methods: ["sms"] });
  });

  it("a sign-in challenge's mfa_token cannot enroll: StartMfaEnrollment is INVALID_MFA_TOKEN", async () => {
    const user = await signupChallenged();
    const start = await enroll({ method: "totp", mfa_token: user.mfaToken });
    const secret = parseTotpUri(start.body.totp_uri).secret;
    expect((await verify({ mfa_token: user.mfaToken, code: await freshCode(secret, clock) })).status).toBe(200);

    const signIn = expectChallenge(await login(required, user), ["totp"]);
    expectReason(await enroll({ method: "sms", phone: "+15550000001", mfa_token: signIn }), 401, "INVALID_MFA_TOKEN");
    // Still a working sign-in challenge.
    expect((await verify({ mfa_token: signIn, code: await freshCode(secret, clock) })).status).toBe(200);
  });

  it("the enrollment mfa_token does not sign in by itself: VerifyMfa before StartMfaEnrollment is MFA_NOT_ENROLLED", async () => {
    const user = await signupChallenged();
    expectReason(await verify({ mfa_token: user.mfaToken, code: "123456" }), 400, "MFA_NOT_ENROLLED");
    expectReason(await verify({ mfa_token: user.mfaToken, code: "abcde-fghij" }), 400, "MFA_NOT_ENROLLED");
  });

  it("a wrong first code is INVALID_CODE; five spend the enrollment mfa_token", async () => {
    const user = await signupChallenged();
    const secret = parseTotpUri((await enroll({ method: "totp", mfa_token: user.mfaToken })).body.totp_uri).secret;
    nextStep(clock);
    const right = await totpAt(secret, clock);
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, "0");
    for (let i = 0; i < 5; i++)
      expectReason(await verify({ mfa_token: user.mfaToken, code: wrong }), 401, "INVALID_CODE");
    expectReason(await verify({ mfa_token: user.mfaToken, code: right }), 401, "INVALID_MFA_TOKEN");
    expectReason(await enroll({ method: "totp", mfa_token: user.mfaToken }), 401, "INVALID_MFA_TOKEN");
  });

  it("the enrollment mfa_token is bound to its project and expires after 300 s", async () => {
    const user = await signupChallenged();
    expectReason(await enroll({ method: "totp", mfa_token: user.mfaToken }, otherRequired), 401, "INVALID_MFA_TOKEN");
    const secret = parseTotpUri((await enroll({ method: "totp", mfa_token: user.mfaToken })).body.totp_uri).secret;
    expectReason(
      await verify({ mfa_token: user.mfaToken, code: await freshCode(secret, clock) }, otherRequired),
      401,
      "INVALID_MFA_TOKEN",
    );

    clock.advance(301_000);
    expectReason(await enroll({ method: "totp", mfa_token: user.mfaToken }), 401, "INVALID_MFA_TOKEN");
    expectReason(
      await verify({ mfa_token: user.mfaToken, code: await freshCode(secret, clock) }),
      401,
      "INVALID_MFA_TOKEN",
    );
  });
});
