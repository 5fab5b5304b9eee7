import { expect } from "vitest";
import { generate } from "otplib";
import type { HttpAnswer } from "../helpers/clients.js";
import type { TestClock } from "../helpers/clock.js";
import type { AuthFixture } from "./helpers.js";

// What the MFA tests share: TOTP codes computed from the otpauth:// URI with the test clock,
// the clock moved to a fresh 30-second step (a step accepted once is never accepted again),
// and users taken to an enrolled TOTP factor over the wire.

export const STEP_MS = 30_000;

/** The claims of a JWT, read without verifying (verification is POST /v1/auth/token/verify). */
export function claims(jwt: string): Record<string, any> {
  return JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString("utf8"));
}

/** RFC 4648 base32 without padding, as otpauth:// secrets are written. */
export function base32Bytes(secret: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const ch of secret.replace(/=+$/, "")) {
    const value = alphabet.indexOf(ch.toUpperCase());
    if (value < 0) throw new Error(`not base32: ${ch}`);
    bits += value.toString(2).padStart(5, "0");
  }
  return Buffer.from(bits.match(/.{8}/g)?.map((byte) => parseInt(byte, 2)) ?? []);
}

export interface TotpUri {
  type: string;
  /** The decoded label: `<issuer>:<account>`. */
  label: string;
  secret: string;
  issuer: string | null;
  params: URLSearchParams;
}

export function parseTotpUri(uri: string): TotpUri {
  const url = new URL(uri);
  expect(url.protocol).toBe("otpauth:");
  return {
    type: url.host,
    label: decodeURIComponent(url.pathname.replace(/^\//, "")),
    secret: url.searchParams.get("secret") ?? "",
    issuer: url.searchParams.get("issuer"),
    params: url.searchParams,
  };
}

/** The code an authenticator shows now (plus `offsetSeconds`) by the server's clock. */
export function totpAt(secret: string, clock: TestClock, offsetSeconds = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) + offsetSeconds });
}

/**
 * Moves the clock half a second into the next 30-second step: a step no code was accepted in
 * yet, with about 29 s before the next boundary, so a code computed now is checked in its step.
 */
export function nextStep(clock: TestClock): void {
  const intoStep = clock.now().getTime() % STEP_MS;
  clock.advance(STEP_MS - intoStep + 500);
}

/** A code of a fresh step: the clock moves to the next step first. */
export function freshCode(secret: string, clock: TestClock): Promise<string> {
  nextStep(clock);
  return totpAt(secret, clock);
}

export function expectReason(res: HttpAnswer, status: number, reason: string): void {
  expect({ status: res.status, reason: res.body?.reason }, JSON.stringify(res.body)).toEqual({ status, reason });
}

/** The challenge of API.md section 5 listing `methods` (in any order), and nothing of a token response. */
export function expectChallenge(res: HttpAnswer, methods: string[]): string {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ mfa_required: true, expires_in: 300 });
  expect([...res.body.mfa_methods].sort()).toEqual([...methods].sort());
  expect(res.body.mfa_token).toMatch(/^gmfa_/);
  for (const field of ["access_token", "refresh_token", "token_type", "user"])
    expect(res.body).not.toHaveProperty(field);
  return res.body.mfa_token;
}

export interface MfaUser {
  email: string;
  password: string;
  userId: string;
  accessToken: string;
}

export async function newUser(app: AuthFixture): Promise<MfaUser> {
  const { email, password, body } = await app.signup();
  return { email, password, userId: body.user.id, accessToken: body.access_token };
}

/** StartMfaEnrollment then VerifyMfa for TOTP with the access token: the secret and the recovery codes. */
export async function enrollTotp(
  app: AuthFixture,
  clock: TestClock,
  accessToken: string,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const start = await app.call("POST", "/v1/auth/mfa/enroll", { method: "totp" }, accessToken);
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const { secret } = parseTotpUri(start.body.totp_uri);
  const done = await app.call("POST", "/v1/auth/mfa/verify", { code: await freshCode(secret, clock) }, accessToken);
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  expect(done.body.enrolled).toBe(true);
  return { secret, recoveryCodes: done.body.recovery_codes };
}

/** A new user with an active TOTP factor. */
export async function totpUser(
  app: AuthFixture,
  clock: TestClock,
): Promise<MfaUser & { secret: string; recoveryCodes: string[] }> {
  const user = await newUser(app);
  return { ...user, ...(await enrollTotp(app, clock, user.accessToken)) };
}

export function login(app: AuthFixture, user: { email: string; password: string }): Promise<HttpAnswer> {
  return app.call("POST", "/v1/auth/login", { email: user.email, password: user.password });
}

/** A password login that must answer a challenge with `methods`; the mfa_token. */
export async function challenge(
  app: AuthFixture,
  user: { email: string; password: string },
  methods: string[] = ["totp"],
): Promise<string> {
  return expectChallenge(await login(app, user), methods);
}

export function verifyMfa(app: AuthFixture, body: Record<string, unknown>, bearer?: string): Promise<HttpAnswer> {
  return app.call("POST", "/v1/auth/mfa/verify", body, bearer);
}

export async function getUser(app: AuthFixture, userId: string): Promise<any> {
  const res = await app.call("GET", `/v1/auth/users/${userId}`);
  expect(res.status).toBe(200);
  return res.body;
}

/** Whether an access token verifies (POST /v1/auth/token/verify). */
export async function tokenValid(app: AuthFixture, token: string): Promise<boolean> {
  return (await app.call("POST", "/v1/auth/token/verify", { token })).body.valid;
}
