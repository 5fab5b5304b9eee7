import { expect } from "vitest";
import { freshCode, parseTotpUri } from "../auth/mfa-helpers.js";
import type { HttpAnswer } from "./clients.js";
import type { TestClock } from "./clock.js";
import { injectHttp } from "./inject.js";
import { seedMember, seedOrganization } from "./seed.js";
import type { TestServer } from "./server.js";

// Members' second factor over REST, in memory (test/helpers/inject.ts), as the console calls it:
// sign-in and its challenge, TOTP enrollment with the test clock's codes, and new members.

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export interface MemberAccount {
  email: string;
  password: string;
  organizationId: string;
  memberId: string;
}

export function memberMfaKit(server: () => TestServer, clock: TestClock) {
  const kit = {
    call: (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> =>
      injectHttp(server().handle, path, {
        method,
        headers,
        body: method === "GET" || method === "DELETE" ? undefined : (body ?? {}),
      }),

    login: (who: { email: string; password: string }, organizationId?: string, headers: Record<string, string> = {}) =>
      kit.call(
        "POST",
        "/v1/account/login",
        { email: who.email, password: who.password, ...(organizationId && { organization_id: organizationId }) },
        headers,
      ),

    /** A new organization and its admin. */
    async admin(): Promise<MemberAccount> {
      const seeded = await seedOrganization(server().deps);
      return {
        email: seeded.email,
        password: seeded.password,
        organizationId: seeded.organization.id,
        memberId: seeded.admin.id,
      };
    },

    /** A new developer of the admin's organization. */
    async developer(of: MemberAccount): Promise<MemberAccount> {
      const organization = (await server().deps.db.repos.organizations.get(of.organizationId))!;
      const seeded = await seedMember(server().deps, organization, "developer");
      return {
        email: seeded.email,
        password: seeded.password,
        organizationId: of.organizationId,
        memberId: seeded.member.id,
      };
    },

    /** Login that must answer a token (no challenge): the token. */
    async token(who: { email: string; password: string }, organizationId?: string): Promise<string> {
      const res = await kit.login(who, organizationId);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.management_token, JSON.stringify(res.body)).toMatch(/^gmt_/);
      return res.body.management_token;
    },

    /** Login that must answer a challenge listing `methods`: the mfa_token. */
    async challenge(who: { email: string; password: string }, methods: string[] = ["totp"], organizationId?: string) {
      return expectMemberChallenge(await kit.login(who, organizationId), methods);
    },

    verify: (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      kit.call("POST", "/v1/account/mfa/verify", body, headers),

    /** StartMemberMfaEnrollment then VerifyMemberMfa with the management token: the secret and recovery codes. */
    async enrollTotp(token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
      const start = await kit.call("POST", "/v1/account/mfa/enroll", { method: "totp" }, bearer(token));
      expect(start.status, JSON.stringify(start.body)).toBe(200);
      const { secret } = parseTotpUri(start.body.totp_uri);
      const done = await kit.verify({ code: await freshCode(secret, clock) }, bearer(token));
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body.enrolled).toBe(true);
      return { secret, recoveryCodes: done.body.recovery_codes };
    },

    /** Password then a fresh TOTP code: the management token. */
    async signIn(who: { email: string; password: string }, secret: string, organizationId?: string): Promise<string> {
      const mfaToken = await kit.challenge(who, undefined, organizationId);
      const res = await kit.verify({ mfa_token: mfaToken, code: await freshCode(secret, clock) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.management_token).toMatch(/^gmt_/);
      return res.body.management_token;
    },

    /** Whether a management token still works (ListProjects). */
    async works(token: string): Promise<boolean> {
      return (await kit.call("GET", "/v1/projects", undefined, bearer(token))).status === 200;
    },
  };
  return kit;
}

export type MemberMfaKit = ReturnType<typeof memberMfaKit>;

/** The member challenge: `mfa_required`, an mfa_token, the methods, 300 s, and no token. */
export function expectMemberChallenge(res: HttpAnswer, methods: string[]): string {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ mfa_required: true, expires_in: 300, management_token: "" });
  expect(res.body.organization_id).toMatch(/^org_/);
  expect([...res.body.mfa_methods].sort()).toEqual([...methods].sort());
  expect(res.body.mfa_token).toMatch(/^gmmfa_/);
  expect(res.body.expires_at ?? null).toBeNull();
  return res.body.mfa_token;
}

export function expectReason(res: HttpAnswer, status: number, reason: string): void {
  expect({ status: res.status, reason: res.body?.reason }, JSON.stringify(res.body)).toEqual({ status, reason });
}
