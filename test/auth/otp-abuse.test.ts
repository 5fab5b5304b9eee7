import { beforeAll, describe, expect, it } from "vitest";
import { connectReason } from "../helpers/clients.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import {
  expectReason,
  newEmail,
  passwordlessProject,
  wrongCode,
  type PasswordlessProject,
} from "./passwordless-helpers.js";
import { injectConnect } from "../helpers/inject.js";

// Threats against six-digit codes: guessing (five wrong tries spend a code), a code used after
// ten minutes, twice, after a newer one, at another address or in another project, a flood of
// messages to one address (one send a minute), and concurrent uses of one code.

const CODE = /\b(\d{6})\b/;

describe("one-time codes under abuse", () => {
  const ctx = useMessagingServer({ smtp: true });
  const { clock, sql } = ctx;
  let app: PasswordlessProject;
  let other: PasswordlessProject;

  beforeAll(async () => {
    app = await passwordlessProject(ctx.server);
    other = await passwordlessProject(ctx.server, "Other project");
  });

  const send = (email: string, project = app) => project.call("POST", "/v1/auth/otp/send", { email });
  /** Sends a code by email and answers the code in the `nth` mail to `email`. */
  async function emailCode(email: string, nth = 1, project = app): Promise<string> {
    const sent = await send(email, project);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const mail = await ctx.smtp.waitFor(email, { nth });
    return CODE.exec(mail.text)![1];
  }
  const verify = (email: string, otp: string, project = app) =>
    project.call("POST", "/v1/auth/otp/verify", { email, otp });

  describe("wrong codes", () => {
    it("a wrong code is 401 INVALID_CODE; after four wrong codes the right one still works", async () => {
      const email = newEmail("four-wrong");
      const code = await emailCode(email);
      for (let i = 1; i <= 4; i++) expectReason(await verify(email, wrongCode(code, i)), 401, "INVALID_CODE");
      expect((await verify(email, code)).status).toBe(200);
    });

    it("five wrong codes spend it: the right code then answers INVALID_CODE, as for an address never sent a code", async () => {
      const email = newEmail("five-wrong");
      const code = await emailCode(email);
      for (let i = 1; i <= 5; i++) expectReason(await verify(email, wrongCode(code, i)), 401, "INVALID_CODE");
      const spent = await verify(email, code);
      const never = await verify(newEmail("never-sent"), code);
      expectReason(spent, 401, "INVALID_CODE");
      expect({ ...spent.body, request_id: 0 }).toEqual({ ...never.body, request_id: 0 });
      expect(await sql(`SELECT id FROM users WHERE email_normalized = $1`, [email])).toEqual([]);
    });

    it("a code works only at the address and in the project it was sent to", async () => {
      const email = newEmail("owner");
      const code = await emailCode(email);
      const elsewhere = newEmail("elsewhere");
      await emailCode(elsewhere);
      expectReason(await verify(newEmail("stranger"), code), 401, "INVALID_CODE");
      expectReason(await verify(email, code, other), 401, "INVALID_CODE");
      // Where another project sent its own code to the same address, ours still does not work there.
      const theirs = await emailCode(email, 2, other);
      if (theirs !== code) expectReason(await verify(email, code, other), 401, "INVALID_CODE");
      expect((await verify(email, code)).status).toBe(200);
      expect((await verify(email, theirs, other)).status).toBe(200);
    });

    it("a used code cannot be used again", async () => {
      const email = newEmail("reuse");
      const code = await emailCode(email);
      expect((await verify(email, code)).status).toBe(200);
      expectReason(await verify(email, code), 401, "INVALID_CODE");
    });
  });

  describe("time and replacement", () => {
    it("a code works until its ten minutes are up, then answers CODE_EXPIRED once and INVALID_CODE after", async () => {
      const early = newEmail("in-time");
      const late = newEmail("too-late");
      const earlyCode = await emailCode(early);
      const lateCode = await emailCode(late);
      clock.advance(590_000);
      expect((await verify(early, earlyCode)).status).toBe(200);
      clock.advance(11_000);
      expectReason(await verify(late, lateCode), 401, "CODE_EXPIRED");
      expectReason(await verify(late, lateCode), 401, "INVALID_CODE");
      // A new code for the address works again.
      expect((await verify(late, await emailCode(late, 2))).status).toBe(200);
    });

    it("a new send replaces the previous code: the old one is INVALID_CODE, the new one works", async () => {
      const email = newEmail("replaced");
      const first = await emailCode(email, 1);
      clock.advance(60_000);
      const second = await emailCode(email, 2);
      if (first !== second) expectReason(await verify(email, first), 401, "INVALID_CODE");
      expect((await verify(email, second)).status).toBe(200);
    });
  });

  describe("one send per address a minute", () => {
    it("over REST: a second send is 429 RATE_LIMITED with Retry-After, sends nothing and keeps the first code", async () => {
      const email = newEmail("flood");
      const first = await emailCode(email);
      const again = await send(email);
      expectReason(again, 429, "RATE_LIMITED");
      const wait = Number(again.headers.get("retry-after"));
      expect(Number.isInteger(wait)).toBe(true);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
      // The address is what is limited: the same address differently typed too, another not at all.
      expectReason(await send(email.toUpperCase()), 429, "RATE_LIMITED");
      expect((await send(newEmail("neighbour"))).status).toBe(200);

      clock.advance(45_000);
      const later = await send(email);
      expectReason(later, 429, "RATE_LIMITED");
      expect(Number(later.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(Number(later.headers.get("retry-after"))).toBeLessThanOrEqual(15);

      // The refused sends replaced nothing: the first code still signs in.
      expect((await verify(email, first)).status).toBe(200);
      clock.advance(15_000);
      const second = await emailCode(email, 2);
      expect((await verify(email, second)).status).toBe(200);
      // Two sends went through, so two mails and no more.
      await new Promise((r) => setTimeout(r, 300));
      expect(ctx.smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(2);
      expect(await sql(`SELECT id FROM outbox WHERE lower(recipient) = $1`, [email])).toHaveLength(2);
    });

    it("over Connect JSON: RESOURCE_EXHAUSTED with the RATE_LIMITED reason and a Retry-After header", async () => {
      const email = newEmail("connect-flood");
      const headers = { "x-service-key": app.key };
      expect((await injectConnect(ctx.server.handle, "auth", "SendOtp", { email }, headers)).status).toBe(200);
      const again = await injectConnect(ctx.server.handle, "auth", "SendOtp", { email }, headers);
      expect(again.status).toBe(429);
      expect(again.body.code).toBe("resource_exhausted");
      expect(connectReason(again.body)).toBe("RATE_LIMITED");
      const wait = Number(again.headers.get("retry-after"));
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
      clock.advance(60_000);
      expect((await injectConnect(ctx.server.handle, "auth", "SendOtp", { email }, headers)).status).toBe(200);
      await ctx.smtp.waitFor(email, { nth: 2 });
      expect(ctx.smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(2);
    });
  });

  // In projects of their own: the wrong codes this file sent before, from the same address,
  // count against the project's failures_per_ip, and the burst's nine failures count at once.
  it("ten concurrent verifies of one right code: exactly one signs in, the rest are INVALID_CODE, one user exists", async () => {
    const race = await passwordlessProject(ctx.server, "Race");
    const email = newEmail("race");
    const code = await emailCode(email, 1, race);
    const answers = await Promise.all(Array.from({ length: 10 }, () => verify(email, code, race)));
    const winners = answers.filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    expect(answers.filter((a) => a.status === 401 && a.body.reason === "INVALID_CODE")).toHaveLength(9);
    const users = await sql(`SELECT id FROM users WHERE project_id = $1 AND email_normalized = $2`, [
      race.projectId,
      email,
    ]);
    expect(users).toEqual([{ id: winners[0].body.user.id }]);
    expect(await sql(`SELECT id FROM sessions WHERE user_id = $1`, [users[0].id])).toHaveLength(1);
  });

  it("ten concurrent verifies of an existing user's code: exactly one session", async () => {
    const race = await passwordlessProject(ctx.server, "Race existing");
    const email = newEmail("race-existing");
    const signup = await race.call("POST", "/v1/auth/signup", { email, password: "a sturdy passphrase 1" });
    const code = await emailCode(email, 1, race);
    const answers = await Promise.all(Array.from({ length: 10 }, () => verify(email, code, race)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 401 && a.body.reason === "INVALID_CODE")).toHaveLength(9);
    // The signup's session and the one winner's.
    expect(await sql(`SELECT id FROM sessions WHERE user_id = $1`, [signup.body.user.id])).toHaveLength(2);
  });
});
