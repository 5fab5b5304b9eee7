import { expect } from "vitest";
import { openMailBody } from "../../src/notify/mail-body.js";
import type { AccountClaims, OidcProviderHarness } from "../helpers/oidc-provider.js";
import type { MessagingServer } from "../helpers/messaging-server.js";
import type { CallbackAnswer } from "./sso-helpers.js";
import type { AuthFixture } from "./helpers.js";

// What the SSO sign-in and failure tests check on Gatehouse's answers: where the browser is
// sent (the project's redirect_url, tokens or an error only in the fragment, never the query),
// the 400 page when no flow is known, and what the database holds afterwards.

/** authFixture's project redirect_url. */
export const APP_CALLBACK = "https://app.example.com/callback";

let seq = 0;

/** A new account at the provider (sub = id) with a verified email unless `claims` say otherwise. */
export function newAccount(
  idp: OidcProviderHarness,
  tag: string,
  claims: AccountClaims = {},
): { id: string; email: string } {
  const id = `${tag}-${++seq}-${Date.now()}`;
  const email = `${id}@example.com`;
  idp.setAccount(id, { email, email_verified: true, name: tag, ...claims });
  return { id, email };
}

/** The browser sent to `to` (default the project's redirect_url) with nothing in the query. */
function expectLanding(answer: CallbackAnswer, to = APP_CALLBACK): URL {
  expect(answer.status, answer.body).toBe(302);
  const landed = new URL(answer.location!);
  expect(`${landed.origin}${landed.pathname}`).toBe(to);
  for (const secret of ["access_token", "refresh_token", "code", "mfa_token", "state"])
    expect(landed.searchParams.has(secret)).toBe(false);
  return landed;
}

/** `#access_token=…&refresh_token=…&expires_in=…&token_type=Bearer` and nothing else. */
export function expectTokens(answer: CallbackAnswer, to?: string): { accessToken: string; refreshToken: string } {
  const landed = expectLanding(answer, to);
  expect([...landed.searchParams.keys()]).toEqual([]);
  const f = answer.fragment;
  expect([...f.keys()].sort(), answer.location).toEqual(["access_token", "expires_in", "refresh_token", "token_type"]);
  expect(f.get("token_type")).toBe("Bearer");
  expect(f.get("expires_in")).toBe("3600");
  expect(f.get("refresh_token")).toMatch(/^grt_/);
  return { accessToken: f.get("access_token")!, refreshToken: f.get("refresh_token")! };
}

/** `#error=<error>&error_description=…`; answers the description. */
export function expectFragmentError(answer: CallbackAnswer, error: string): string {
  expectLanding(answer);
  expect(Object.fromEntries(answer.fragment), answer.location).toEqual({
    error,
    error_description: expect.stringMatching(/\S/),
  });
  return answer.fragment.get("error_description")!;
}

/** The 400 page of a callback without a known flow: words, no redirect. */
export function expectPage(answer: CallbackAnswer, words: RegExp): void {
  expect({ status: answer.status, location: answer.location }).toEqual({ status: 400, location: undefined });
  expect(answer.body).toMatch(/^<!doctype html>/);
  expect(answer.body).toMatch(words);
}

/** The claims of an access token as POST /v1/auth/token/verify reads them (it must be valid). */
export async function verifiedClaims(app: AuthFixture, accessToken: string): Promise<Record<string, any>> {
  const res = await app.call("POST", "/v1/auth/token/verify", { token: accessToken });
  expect(res.body.valid, JSON.stringify(res.body)).toBe(true);
  return res.body.claims;
}

/** GetUser (GET /v1/auth/users/{id}), which must answer 200: the user, with its linked identities. */
export async function getUser(app: AuthFixture, id: string): Promise<any> {
  const res = await app.call("GET", `/v1/auth/users/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

export function refresh(app: AuthFixture, refreshToken: string) {
  return app.call("POST", "/v1/auth/token/refresh", { refresh_token: refreshToken });
}

export function passwordLogin(app: AuthFixture, email: string, password: string) {
  return app.call("POST", "/v1/auth/login", { email, password });
}

/** Users, sessions and linked identities of a project: what a refused sign-in must leave unchanged. */
export async function rowCounts(
  ctx: MessagingServer,
  projectId: string,
): Promise<{ users: number; sessions: number; identities: number }> {
  const count = async (table: string) =>
    Number((await ctx.sql(`SELECT count(*) AS n FROM ${table} WHERE project_id = $1`, [projectId]))[0].n);
  return { users: await count("users"), sessions: await count("sessions"), identities: await count("sso_identities") };
}

/**
 * The email verification token mailed to `email`, read from the outbox as `outbox list` shows
 * it to an operator (the SSO world runs without SMTP, so mail stays there, sealed).
 */
export async function verificationToken(ctx: MessagingServer, email: string): Promise<string> {
  const pending = await ctx.server.deps.db.repos.outbox.listPending(1000);
  const mail = pending.filter((m) => m.recipient === email).at(-1);
  expect(mail, `a mail to ${email} in the outbox`).toBeDefined();
  const token = /[?&]token=(gev_[A-Za-z0-9_-]+)&type=email_verification/.exec(
    openMailBody(ctx.server.deps.secrets, mail!).text,
  )?.[1];
  expect(token).toBeDefined();
  return token!;
}

/** GETs a Gatehouse URL as a browser would, without following a redirect: status, headers, text. */
export async function browserGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: string }> {
  const res = await fetch(url, { redirect: "manual", headers, signal: AbortSignal.timeout(10_000) });
  return { status: res.status, headers: res.headers, body: await res.text() };
}
