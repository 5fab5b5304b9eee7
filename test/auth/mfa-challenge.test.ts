import { beforeAll, describe, expect, it } from "vitest";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import { challenge, claims, expectReason, freshCode, nextStep, totpAt, totpUser, verifyMfa } from "./mfa-helpers.js";

// Threats against the mfa_token that holds a password sign-in at its second factor: guessing
// the code (five wrong codes spend the token), using it late (300 s), in another project, a
// second time, or ten times at once hoping two requests win.

describe("the mfa_token of a sign-in challenge", () => {
  const ctx = useMessagingServer();
  const { clock, sql } = ctx;
  let app: AuthFixture;
  let otherProject: AuthFixture;
  beforeAll(async () => {
    app = await authFixture(ctx.server);
    otherProject = await authFixture(ctx.server);
  });

  /** A six-digit code that is not the one valid now or one step either side. */
  async function wrongCode(secret: string): Promise<string> {
    const valid = new Set(await Promise.all([-30, 0, 30].map((offset) => totpAt(secret, clock, offset))));
    for (let n = 0; ; n++) {
      const code = String((123456 + n * 7919) % 1_000_000).padStart(6, "0");
      if (!valid.has(code)) return code;
    }
  }

  it("is stored as a hash, lives 300 s and names nothing about the user", async () => {
    const user = await totpUser(app, clock);
    const mfaToken = await challenge(app, user);
    expect(mfaToken).not.toContain(user.userId);
    const rows = await sql(`SELECT token_hash, expires_at, created_at FROM mfa_challenges WHERE user_id = $1`, [
      user.userId,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).not.toContain(mfaToken);
    expect(rows[0].token_hash).not.toContain(mfaToken.slice(5, 25));
    expect(new Date(rows[0].expires_at).getTime() - new Date(rows[0].created_at).getTime()).toBe(300_000);
  });

  it("a wrong code is 401 INVALID_CODE and leaves the token usable", async () => {
    const user = await totpUser(app, clock);
    const mfaToken = await challenge(app, user);
    nextStep(clock);
    expectReason(
      await verifyMfa(app, { mfa_token: mfaToken, code: await wrongCode(user.secret) }),
      401,
      "INVALID_CODE",
    );
    expectReason(await verifyMfa(app, { mfa_token: mfaToken, code: "abcde-fghij" }), 401, "INVALID_CODE");
    expect((await verifyMfa(app, { mfa_token: mfaToken, code: await totpAt(user.secret, clock) })).status).toBe(200);
  });

  it("four wrong codes leave the token usable; the fifth spends it, and then even the right code is INVALID_MFA_TOKEN", async () => {
    const user = await totpUser(app, clock);
    nextStep(clock);
    const four = await challenge(app, user);
    for (let i = 0; i < 4; i++)
      expectReason(await verifyMfa(app, { mfa_token: four, code: await wrongCode(user.secret) }), 401, "INVALID_CODE");
    expect((await verifyMfa(app, { mfa_token: four, code: await totpAt(user.secret, clock) })).status).toBe(200);

    const five = await challenge(app, user);
    nextStep(clock);
    for (let i = 0; i < 5; i++)
      expectReason(await verifyMfa(app, { mfa_token: five, code: await wrongCode(user.secret) }), 401, "INVALID_CODE");
    expectReason(
      await verifyMfa(app, { mfa_token: five, code: await totpAt(user.secret, clock) }),
      401,
      "INVALID_MFA_TOKEN",
    );
    // The code was not spent by the refused attempt: a new challenge takes it.
    expect(
      (await verifyMfa(app, { mfa_token: await challenge(app, user), code: await totpAt(user.secret, clock) })).status,
    ).toBe(200);
  });

  it("works for 300 s and is INVALID_MFA_TOKEN at 301 s", async () => {
    const user = await totpUser(app, clock);
    // Each challenge opens half a second into a fresh step; 299 s or 301 s later the clock
    // sits in a step no code was accepted in, away from its edges.
    nextStep(clock);
    const inTime = await challenge(app, user);
    clock.advance(299_000);
    const accepted = await verifyMfa(app, { mfa_token: inTime, code: await totpAt(user.secret, clock) });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);

    nextStep(clock);
    const late = await challenge(app, user);
    clock.advance(301_000);
    expectReason(
      await verifyMfa(app, { mfa_token: late, code: await totpAt(user.secret, clock) }),
      401,
      "INVALID_MFA_TOKEN",
    );
  });

  it("is INVALID_MFA_TOKEN with another project's API key, and still works in its own project", async () => {
    const user = await totpUser(app, clock);
    const mfaToken = await challenge(app, user);
    const code = await freshCode(user.secret, clock);
    expectReason(
      await otherProject.call("POST", "/v1/auth/mfa/verify", { mfa_token: mfaToken, code }),
      401,
      "INVALID_MFA_TOKEN",
    );
    expect((await verifyMfa(app, { mfa_token: mfaToken, code })).status).toBe(200);
  });

  it("is INVALID_MFA_TOKEN once used, as is a token that was never issued", async () => {
    const user = await totpUser(app, clock);
    const mfaToken = await challenge(app, user);
    expect((await verifyMfa(app, { mfa_token: mfaToken, code: await freshCode(user.secret, clock) })).status).toBe(200);
    expectReason(
      await verifyMfa(app, { mfa_token: mfaToken, code: await freshCode(user.secret, clock) }),
      401,
      "INVALID_MFA_TOKEN",
    );
    expectReason(
      await verifyMfa(app, { mfa_token: `gmfa_${"A".repeat(43)}`, code: await freshCode(user.secret, clock) }),
      401,
      "INVALID_MFA_TOKEN",
    );
  });

  it("ten concurrent VerifyMfa of one mfa_token with the right code: exactly one signs in", async () => {
    const user = await totpUser(app, clock);
    const mfaToken = await challenge(app, user);
    const code = await freshCode(user.secret, clock);
    const answers = await Promise.all(Array.from({ length: 10 }, () => verifyMfa(app, { mfa_token: mfaToken, code })));
    const winners = answers.filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    expect(claims(winners[0].body.access_token).amr).toEqual(["pwd", "totp"]);
    for (const refused of answers.filter((a) => a.status !== 200)) expect(refused.status).toBe(401);
    expect(answers.filter((a) => a.body?.reason === "INVALID_MFA_TOKEN")).toHaveLength(9);
    // One session, not ten.
    const sessions = await sql(`SELECT count(*)::int AS n FROM sessions WHERE user_id = $1`, [user.userId]);
    expect(sessions[0].n).toBe(2); // the signup's and this one
  });

  it("ten concurrent wrong codes on one mfa_token: five are counted, the other five find it spent", async () => {
    const user = await totpUser(app, clock);
    const mfaToken = await challenge(app, user);
    nextStep(clock);
    const wrong = await wrongCode(user.secret);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => verifyMfa(app, { mfa_token: mfaToken, code: wrong })),
    );
    const reasons = answers.map((a) => `${a.status} ${a.body?.reason}`).sort();
    expect(reasons).toEqual([...Array(5).fill("401 INVALID_CODE"), ...Array(5).fill("401 INVALID_MFA_TOKEN")]);
    expectReason(
      await verifyMfa(app, { mfa_token: mfaToken, code: await totpAt(user.secret, clock) }),
      401,
      "INVALID_MFA_TOKEN",
    );
  });

  it("a user disabled while held at the challenge gets 403 USER_DISABLED for the right code, not tokens", async () => {
    const user = await totpUser(app, clock);
    const mfaToken = await challenge(app, user);
    expect((await app.call("PATCH", `/v1/auth/users/${user.userId}`, { disabled: true })).status).toBe(200);
    expectReason(
      await verifyMfa(app, { mfa_token: mfaToken, code: await freshCode(user.secret, clock) }),
      403,
      "USER_DISABLED",
    );
  });
});
