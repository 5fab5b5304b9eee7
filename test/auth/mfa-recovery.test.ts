import { beforeAll, describe, expect, it } from "vitest";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import {
  challenge,
  claims,
  enrollTotp,
  expectReason,
  freshCode,
  newUser,
  tokenValid,
  totpUser,
  verifyMfa,
} from "./mfa-helpers.js";

// Threats: a recovery code used twice (in turn or in two racing requests), old codes still
// valid after new ones were issued, codes readable from the database (about 50 bits each: a
// bare hash would fall to brute force), and a second factor quietly replacing the set.

describe("recovery codes", () => {
  const ctx = useMessagingServer({ sms: true });
  const { clock, sql } = ctx;
  let app: AuthFixture;
  beforeAll(async () => {
    app = await authFixture(ctx.server);
  });

  /** A fresh challenge answered with `code`. */
  async function answer(user: { email: string; password: string }, code: string, methods = ["totp"]) {
    return verifyMfa(app, { mfa_token: await challenge(app, user, methods), code });
  }

  it("a recovery code answers a challenge in place of a code: tokens whose amr adds recovery_code", async () => {
    const user = await totpUser(app, clock);
    const res = await answer(user, user.recoveryCodes[0]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(claims(res.body.access_token)).toMatchObject({ sub: user.userId, amr: ["pwd", "recovery_code"] });
    expect(await tokenValid(app, res.body.access_token)).toBe(true);
    // The factor stays: the next login is challenged again.
    await challenge(app, user, ["totp"]);
  });

  it("is accepted without its dash, in upper case, and both", async () => {
    const user = await totpUser(app, clock);
    const [a, b, c] = user.recoveryCodes as [string, string, string];
    expect((await answer(user, a.replace("-", ""))).status).toBe(200);
    expect((await answer(user, b.toUpperCase())).status).toBe(200);
    expect((await answer(user, ` ${c.replace("-", "").toUpperCase()} `)).status).toBe(200);
  });

  it("works once: the second use is INVALID_CODE, in any spelling", async () => {
    const user = await totpUser(app, clock);
    const code = user.recoveryCodes[0];
    expect((await answer(user, code)).status).toBe(200);
    expectReason(await answer(user, code), 401, "INVALID_CODE");
    expectReason(await answer(user, code.toUpperCase().replace("-", "")), 401, "INVALID_CODE");
  });

  it("one code sent with ten different mfa_tokens at once signs in exactly once", async () => {
    const user = await totpUser(app, clock);
    const tokens = await Promise.all(Array.from({ length: 10 }, () => challenge(app, user)));
    const code = user.recoveryCodes[0];
    const answers = await Promise.all(tokens.map((mfa_token) => verifyMfa(app, { mfa_token, code })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) expectReason(refused, 401, "INVALID_CODE");
    expect(
      await sql(`SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = $1 AND used_at IS NOT NULL`, [
        user.userId,
      ]),
    ).toEqual([{ n: 1 }]);
  });

  it("are bound to their user: another user's code is INVALID_CODE", async () => {
    const owner = await totpUser(app, clock);
    const someoneElse = await totpUser(app, clock);
    expectReason(await answer(someoneElse, owner.recoveryCodes[0]), 401, "INVALID_CODE");
    expect((await answer(owner, owner.recoveryCodes[0])).status).toBe(200);
  });

  it("are stored as HMACs: ten rows, none holding a code in any spelling", async () => {
    const user = await totpUser(app, clock);
    const rows: Array<{ code_hmac: string }> = await sql(`SELECT code_hmac FROM recovery_codes WHERE user_id = $1`, [
      user.userId,
    ]);
    expect(rows).toHaveLength(10);
    const stored = JSON.stringify(
      await sql(`SELECT * FROM recovery_codes WHERE user_id = $1`, [user.userId]),
    ).toLowerCase();
    for (const code of user.recoveryCodes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace("-", ""));
    }
    for (const row of rows) expect(row.code_hmac).toMatch(/^[0-9a-f]{64}$/);
  });

  it("RegenerateRecoveryCodes answers ten new codes; the old ones stop working, the new ones work", async () => {
    const user = await totpUser(app, clock);
    const old = user.recoveryCodes;
    const res = await app.call("POST", "/v1/auth/mfa/recovery-codes", {}, user.accessToken);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const fresh: string[] = res.body.recovery_codes;
    expect(fresh).toHaveLength(10);
    expect(new Set(fresh).size).toBe(10);
    for (const code of fresh) expect(old).not.toContain(code);

    expectReason(await answer(user, old[0]), 401, "INVALID_CODE");
    expectReason(await answer(user, old[9]), 401, "INVALID_CODE");
    const signedIn = await answer(user, fresh[0]);
    expect(signedIn.status).toBe(200);
    expect(claims(signedIn.body.access_token).amr).toContain("recovery_code");
    expect(await sql(`SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = $1`, [user.userId])).toEqual([
      { n: 10 },
    ]);
  });

  it("RegenerateRecoveryCodes is 400 MFA_NOT_ENROLLED without MFA, and 401 MISSING_ACCESS_TOKEN without an access token", async () => {
    const user = await newUser(app);
    expectReason(await app.call("POST", "/v1/auth/mfa/recovery-codes", {}, user.accessToken), 400, "MFA_NOT_ENROLLED");
    // A pending enrollment is not MFA either.
    await app.call("POST", "/v1/auth/mfa/enroll", { method: "totp" }, user.accessToken);
    expectReason(await app.call("POST", "/v1/auth/mfa/recovery-codes", {}, user.accessToken), 400, "MFA_NOT_ENROLLED");
    expectReason(await app.call("POST", "/v1/auth/mfa/recovery-codes", {}), 401, "MISSING_ACCESS_TOKEN");
  });

  it("enrolling a second method issues no new codes: recovery_codes is [] and the first set still works", async () => {
    const user = await newUser(app);
    const phone = `+1555${String(process.pid % 1000).padStart(3, "0")}9001`;
    await app.call("POST", "/v1/auth/mfa/enroll", { method: "sms", phone }, user.accessToken);
    const first = await verifyMfa(app, { code: await ctx.sms.codeFor(phone) }, user.accessToken);
    expect(first.body).toMatchObject({ enrolled: true, method: "sms" });
    expect(first.body.recovery_codes).toHaveLength(10);

    const second = await enrollTotp(app, clock, user.accessToken);
    expect(second.recoveryCodes).toEqual([]);
    expect(await sql(`SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = $1`, [user.userId])).toEqual([
      { n: 10 },
    ]);
    const res = await answer(user, first.body.recovery_codes[0], ["sms", "totp"]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(claims(res.body.access_token).amr).toEqual(["pwd", "recovery_code"]);
    // And TOTP, the second method, answers challenges too.
    expect(
      (
        await verifyMfa(app, {
          mfa_token: await challenge(app, user, ["sms", "totp"]),
          code: await freshCode(second.secret, clock),
        })
      ).status,
    ).toBe(200);
  });
});
