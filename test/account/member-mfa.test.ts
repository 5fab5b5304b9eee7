import { beforeAll, describe, expect, it } from "vitest";
import { base32Bytes, freshCode, nextStep, parseTotpUri, totpAt } from "../auth/mfa-helpers.js";
import { connectReason, grpcCall, grpcClient } from "../helpers/clients.js";
import { eventually } from "../helpers/eventually.js";
import { injectConnect } from "../helpers/inject.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import {
  bearer,
  expectMemberChallenge,
  expectReason,
  memberMfaKit,
  type MemberAccount,
} from "../helpers/member-mfa.js";

// Members' second factor (issue 46): the people who hold management tokens sign in with TOTP or a
// recovery code after their password. Threats: a stolen password alone yields a management
// token; a seed or recovery code readable from the database; a code accepted twice (replayed, or
// raced on two requests); unlimited guesses at the second factor across new challenges.

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const wrongOf = (code: string) => String((Number(code) + 500_000) % 1_000_000).padStart(6, "0");

describe("members' TOTP and recovery codes", () => {
  // Behind a proxy: the per-identity count is shown with a new client address per guess.
  const ctx = useMessagingServer({ env: { TRUSTED_PROXIES: "127.0.0.1" } });
  const { clock, sql } = ctx;
  const kit = memberMfaKit(() => ctx.server, clock);
  let admin: MemberAccount;
  let adminToken: string;

  beforeAll(async () => {
    admin = await kit.admin();
    adminToken = await kit.token(admin);
  });

  it("StartMemberMfaEnrollment answers an otpauth:// URI (issuer Gatehouse, the member's email), a 20-byte secret and a PNG QR code; the seed is sealed at rest and nothing changes until a code confirms it", async () => {
    const dev = await kit.developer(admin);
    const token = await kit.token(dev);
    const res = await kit.call("POST", "/v1/account/mfa/enroll", { method: "totp" }, bearer(token));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const uri = parseTotpUri(res.body.totp_uri);
    expect(uri.label).toBe(`Gatehouse:${dev.email}`);
    expect(uri.issuer).toBe("Gatehouse");
    expect(base32Bytes(uri.secret).length).toBeGreaterThanOrEqual(20);
    const png = Buffer.from(res.body.qr_code.slice("data:image/png;base64,".length), "base64");
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);

    const rows = await sql(
      `SELECT f.secret_sealed, f.confirmed_at FROM member_mfa_factors f JOIN members m ON m.identity_id = f.identity_id WHERE m.id = $1`,
      [dev.memberId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].confirmed_at).toBeNull();
    expect(rows[0].secret_sealed).not.toContain(uri.secret);
    expect(rows[0].secret_sealed).not.toContain(base32Bytes(uri.secret).toString("hex"));
    // Pending: the password alone still signs in, and the status shows no factor.
    await kit.token(dev);
    const status = await kit.call("GET", "/v1/account/mfa", undefined, bearer(token));
    expect(status.body).toMatchObject({ mfa_enabled: false, mfa_methods: [], recovery_codes_remaining: 0 });
  });

  it("a code confirms the factor: ten distinct recovery codes, shown once and stored as HMACs; from then on Login answers a challenge and no token", async () => {
    const dev = await kit.developer(admin);
    const token = await kit.token(dev);
    const start = await kit.call("POST", "/v1/account/mfa/enroll", { method: "totp" }, bearer(token));
    const { secret } = parseTotpUri(start.body.totp_uri);
    nextStep(clock);
    expectReason(await kit.verify({ code: wrongOf(await totpAt(secret, clock)) }, bearer(token)), 401, "INVALID_CODE");
    const done = await kit.verify({ code: await totpAt(secret, clock) }, bearer(token));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ enrolled: true, method: "totp", management_token: "" });
    expect(new Set(done.body.recovery_codes).size).toBe(10);
    for (const code of done.body.recovery_codes) expect(code).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
    const stored = await sql(
      `SELECT r.code_hmac FROM member_recovery_codes r JOIN members m ON m.identity_id = r.identity_id WHERE m.id = $1`,
      [dev.memberId],
    );
    expect(stored).toHaveLength(10);
    const dump = JSON.stringify(stored);
    for (const code of done.body.recovery_codes) {
      expect(dump).not.toContain(code);
      expect(dump).not.toContain(code.replace("-", ""));
    }
    expect((await kit.call("GET", "/v1/account/mfa", undefined, bearer(token))).body).toMatchObject({
      mfa_enabled: true,
      mfa_methods: ["totp"],
      recovery_codes_remaining: 10,
      required_by_organization: false,
    });

    const mfaToken = await kit.challenge(dev);
    // The mfa_token is no management token.
    expectReason(await kit.call("GET", "/v1/projects", undefined, bearer(mfaToken)), 401, "INVALID_MANAGEMENT_TOKEN");
    const signedIn = await kit.verify({ mfa_token: mfaToken, code: await freshCode(secret, clock) });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.organization_id).toBe(admin.organizationId);
    expect(await kit.works(signedIn.body.management_token)).toBe(true);
    // The challenge is spent by its answer.
    expectReason(
      await kit.verify({ mfa_token: mfaToken, code: await freshCode(secret, clock) }),
      401,
      "INVALID_MFA_TOKEN",
    );
  });

  it("a TOTP code is accepted once: the same code on a second challenge in its step is INVALID_CODE", async () => {
    const dev = await kit.developer(admin);
    const { secret } = await kit.enrollTotp(await kit.token(dev));
    const code = await freshCode(secret, clock);
    expect((await kit.verify({ mfa_token: await kit.challenge(dev), code })).status).toBe(200);
    expectReason(await kit.verify({ mfa_token: await kit.challenge(dev), code }), 401, "INVALID_CODE");
  });

  it("a recovery code answers in place of a code, once; new codes end the old ones", async () => {
    const dev = await kit.developer(admin);
    const token = await kit.token(dev);
    const { recoveryCodes } = await kit.enrollTotp(token);
    const first = recoveryCodes[0];
    // Any case, with or without the dash.
    const used = await kit.verify({ mfa_token: await kit.challenge(dev), code: first.toUpperCase() });
    expect(used.status, JSON.stringify(used.body)).toBe(200);
    expectReason(await kit.verify({ mfa_token: await kit.challenge(dev), code: first }), 401, "INVALID_CODE");

    const fresh = await kit.call("POST", "/v1/account/mfa/recovery-codes", {}, bearer(token));
    expect(fresh.status).toBe(200);
    expect(fresh.body.recovery_codes).toHaveLength(10);
    expectReason(
      await kit.verify({ mfa_token: await kit.challenge(dev), code: recoveryCodes[1] }),
      401,
      "INVALID_CODE",
    );
    const replaced = await kit.verify({ mfa_token: await kit.challenge(dev), code: fresh.body.recovery_codes[0] });
    expect(replaced.status).toBe(200);
  });

  it("five wrong codes spend an mfa_token: the right code afterwards is INVALID_MFA_TOKEN", async () => {
    const dev = await kit.developer(admin);
    const { secret } = await kit.enrollTotp(await kit.token(dev));
    const mfaToken = await kit.challenge(dev);
    for (let i = 0; i < 5; i++)
      expectReason(
        await kit.verify({ mfa_token: mfaToken, code: wrongOf(await freshCode(secret, clock)) }),
        401,
        "INVALID_CODE",
      );
    expectReason(
      await kit.verify({ mfa_token: mfaToken, code: await freshCode(secret, clock) }),
      401,
      "INVALID_MFA_TOKEN",
    );
  });

  it("two answers with one code at once: exactly one management token (the challenge is locked, the step recorded once)", async () => {
    const dev = await kit.developer(admin);
    const { secret } = await kit.enrollTotp(await kit.token(dev));
    const mfaToken = await kit.challenge(dev);
    const code = await freshCode(secret, clock);
    const answers = await Promise.all(Array.from({ length: 4 }, () => kit.verify({ mfa_token: mfaToken, code })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    // Two challenges, one code: one of them wins.
    const next = await freshCode(secret, clock);
    const [a, b] = await Promise.all([
      kit.verify({ mfa_token: await kit.challenge(dev), code: next }),
      kit.verify({ mfa_token: await kit.challenge(dev), code: next }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 401]);
  });

  it("one recovery code on two challenges at once: one sign-in", async () => {
    const dev = await kit.developer(admin);
    const { recoveryCodes } = await kit.enrollTotp(await kit.token(dev));
    const [one, two] = [await kit.challenge(dev), await kit.challenge(dev)];
    const answers = await Promise.all([
      kit.verify({ mfa_token: one, code: recoveryCodes[0] }),
      kit.verify({ mfa_token: two, code: recoveryCodes[0] }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
    const signedIn = await kit.verify({ mfa_token: await kit.challenge(dev), code: recoveryCodes[1] });
    expect(signedIn.status).toBe(200);
    const status = await kit.call("GET", "/v1/account/mfa", undefined, bearer(signedIn.body.management_token));
    expect(status.body.recovery_codes_remaining).toBe(8);
  });

  it("neither token is MISSING_MANAGEMENT_TOKEN, an unknown mfa_token INVALID_MFA_TOKEN, a bad Authorization header INVALID_MANAGEMENT_TOKEN", async () => {
    expectReason(await kit.verify({ code: "123456" }), 401, "MISSING_MANAGEMENT_TOKEN");
    expectReason(await kit.call("POST", "/v1/account/mfa/enroll", { method: "totp" }), 401, "MISSING_MANAGEMENT_TOKEN");
    expectReason(await kit.verify({ mfa_token: "gmmfa_nothing", code: "123456" }), 401, "INVALID_MFA_TOKEN");
    expectReason(
      await kit.verify({ code: "123456" }, { authorization: "Bearer gmt_forged" }),
      401,
      "INVALID_MANAGEMENT_TOKEN",
    );
    // A verify challenge proves a password, not a factor: it enrolls nothing.
    const dev = await kit.developer(admin);
    await kit.enrollTotp(await kit.token(dev));
    expectReason(
      await kit.call("POST", "/v1/account/mfa/enroll", { method: "totp", mfa_token: await kit.challenge(dev) }),
      401,
      "INVALID_MFA_TOKEN",
    );
  });

  it("wrong second factors count per identity across challenges: after 10 every answer waits (the right one too), and member.mfa.failures_exceeded is recorded", async () => {
    const dev = await kit.developer(admin);
    const { secret } = await kit.enrollTotp(await kit.token(dev));
    const statuses: number[] = [];
    // Each guess on a new challenge from a new address: neither count is the one that stops it.
    for (let i = 0; i < 12; i++) {
      const ip = { "x-forwarded-for": `203.0.113.${i + 1}` };
      const mfaToken = expectMemberChallenge(await kit.login(dev, undefined, ip), ["totp"]);
      statuses.push(
        (await kit.verify({ mfa_token: mfaToken, code: wrongOf(await freshCode(secret, clock)) }, ip)).status,
      );
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    const right = await kit.verify({ mfa_token: await kit.challenge(dev), code: await freshCode(secret, clock) });
    expectReason(right, 429, "RATE_LIMITED");
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    await eventually(
      "member.mfa.failures_exceeded recorded",
      async () =>
        (
          await sql(`SELECT 1 FROM audit_events WHERE target_id = $1 AND type = 'member.mfa.failures_exceeded'`, [
            dev.memberId,
          ])
        ).length > 0,
    );
    const events = await sql(`SELECT type, reason FROM audit_events WHERE target_id = $1 ORDER BY created_at`, [
      dev.memberId,
    ]);
    expect(events.filter((e: any) => e.type === "member.mfa.failures_exceeded")).toHaveLength(1);
    expect(events.filter((e: any) => e.type === "member.login.failed" && e.reason === "INVALID_CODE")).toHaveLength(10);
  });

  it("UnenrollMemberMfa removes TOTP and the recovery codes: the password alone signs in again", async () => {
    const dev = await kit.developer(admin);
    const token = await kit.token(dev);
    await kit.enrollTotp(token);
    const res = await kit.call("POST", "/v1/account/mfa/unenroll", { method: "totp" }, bearer(token));
    expect(res.body).toEqual({ unenrolled: true });
    expectReason(
      await kit.call("POST", "/v1/account/mfa/unenroll", { method: "totp" }, bearer(token)),
      400,
      "MFA_NOT_ENROLLED",
    );
    expectReason(await kit.call("POST", "/v1/account/mfa/recovery-codes", {}, bearer(token)), 400, "MFA_NOT_ENROLLED");
    await kit.token(dev);
  });

  it("the factor belongs to the identity: it guards each of its organizations, and each one's log records the enrollment", async () => {
    const other = await kit.admin();
    const dev = await kit.developer(admin);
    const there = await ctx.server.deps.db.repos.members.create(other.organizationId, {
      identity: (await ctx.server.deps.db.repos.memberIdentities.findByEmail(dev.email))!,
      role: "developer",
    });
    const { secret } = await kit.enrollTotp(await kit.token(dev, admin.organizationId));
    await kit.challenge(dev, ["totp"], other.organizationId);
    const token = await kit.signIn(dev, secret, other.organizationId);
    expect(await kit.works(token)).toBe(true);
    const logged = await sql(
      `SELECT organization_id, actor_id FROM audit_events WHERE type = 'member.mfa.enrolled' AND target_id = ANY($1)`,
      [[dev.memberId, there.id]],
    );
    expect(logged.map((r: any) => [r.organization_id, r.actor_id]).sort()).toEqual(
      [
        [admin.organizationId, dev.memberId],
        [other.organizationId, there.id],
      ].sort(),
    );
  });

  it("the sign-in through the challenge is audited with what answered; the enrollment as member.mfa.enrolled", async () => {
    const dev = await kit.developer(admin);
    const { secret } = await kit.enrollTotp(await kit.token(dev));
    await kit.signIn(dev, secret);
    const events = await sql(
      `SELECT type, details, actor_type, actor_id FROM audit_events WHERE target_id = $1 AND type IN ('member.login.succeeded', 'member.mfa.enrolled') ORDER BY created_at`,
      [dev.memberId],
    );
    expect(events.map((e: any) => [e.type, e.details])).toEqual([
      ["member.login.succeeded", {}],
      ["member.mfa.enrolled", { method: "totp" }],
      ["member.login.succeeded", { second_factor: "totp" }],
    ]);
    expect(events.every((e: any) => e.actor_type === "member" && e.actor_id === dev.memberId)).toBe(true);
  });

  describe("on every protocol", () => {
    it("Connect: Login answers the challenge fields and VerifyMemberMfa the token", async () => {
      const dev = await kit.developer(admin);
      const { secret } = await kit.enrollTotp(await kit.token(dev));
      const login = await injectConnect(ctx.server.handle, "account", "Login", {
        email: dev.email,
        password: dev.password,
      });
      expect(login.status).toBe(200);
      expect(login.body).toMatchObject({
        mfa_required: true,
        mfa_methods: ["totp"],
        expires_in: 300,
        management_token: "",
      });
      const verified = await injectConnect(ctx.server.handle, "account", "VerifyMemberMfa", {
        mfa_token: login.body.mfa_token,
        code: await freshCode(secret, clock),
      });
      expect(verified.status, JSON.stringify(verified.body)).toBe(200);
      expect(verified.body.management_token).toMatch(/^gmt_/);
      const wrong = await injectConnect(ctx.server.handle, "account", "VerifyMemberMfa", {
        mfa_token: login.body.mfa_token,
        code: "000000",
      });
      expect([wrong.status, connectReason(wrong.body)]).toEqual([401, "INVALID_MFA_TOKEN"]);
    });

    it("gRPC: Login answers the challenge and VerifyMemberMfa the token", async () => {
      const dev = await kit.developer(admin);
      const { secret } = await kit.enrollTotp(await kit.token(dev));
      const client = grpcClient(ctx.server.port, "account");
      try {
        const login = await grpcCall(client, "Login", { email: dev.email, password: dev.password });
        expect(login.response).toMatchObject({
          mfa_required: true,
          mfa_methods: ["totp"],
          expires_in: 300,
          management_token: "",
        });
        const verified = await grpcCall(client, "VerifyMemberMfa", {
          mfa_token: login.response.mfa_token,
          code: await freshCode(secret, clock),
        });
        expect(verified.error).toBeUndefined();
        expect(verified.response.management_token).toMatch(/^gmt_/);
        const missing = await grpcCall(client, "VerifyMemberMfa", { code: "123456" });
        expect(missing.reason).toBe("MISSING_MANAGEMENT_TOKEN");
      } finally {
        client.close();
      }
    });
  });

  it("an admin's sign-in is held the same way (the admin's own token keeps working meanwhile)", async () => {
    const { secret } = await kit.enrollTotp(adminToken);
    await kit.challenge(admin);
    expect(await kit.works(await kit.signIn(admin, secret))).toBe(true);
    expect(await kit.works(adminToken)).toBe(true);
  });
});
