import { expect } from "vitest";
import { hashToken, randomToken } from "../../src/crypto/tokens.js";
import type { Member, Organization } from "../../src/domain/account.js";
import type { HttpAnswer } from "./clients.js";
import { injectHttp } from "./inject.js";
import { seedMember, seedOrganization } from "./seed.js";
import type { TestServer } from "./server.js";

export interface Principal {
  member: Member;
  email: string;
  password: string;
  token: string;
  /** `{authorization: "Bearer …"}` for this member. */
  headers: Record<string, string>;
}

export interface AccountFixture {
  organization: Organization;
  admin: Principal;
  developer: Principal;
  /** The admin of a second organization: must never see the first one's resources. */
  outsider: Principal & { organization: Organization };
  /** A management token of the first organization's admin that expired a second ago. */
  expiredHeaders: Record<string, string>;
  /** A REST call as a principal (or anonymous with `{}`), in memory (test/helpers/inject.ts). */
  rest(method: string, path: string, headers?: Record<string, string>, body?: unknown): Promise<HttpAnswer>;
}

/** Two organizations: the first with an admin and a developer, the second with an admin. */
export async function accountFixture(server: TestServer): Promise<AccountFixture> {
  const deps = server.deps;
  const first = await seedOrganization(deps);
  const second = await seedOrganization(deps);
  const developer = await seedMember(deps, first.organization, "developer");
  const signIn = async (member: Member, email: string, password: string): Promise<Principal> => {
    const res = await injectHttp(server.handle, "/v1/account/login", { body: { email, password } });
    expect(res.status, "fixture login").toBe(200);
    const token = res.body.management_token as string;
    return { member, email, password, token, headers: { authorization: `Bearer ${token}` } };
  };
  const expired = randomToken("gmt");
  await deps.db.repos.managementTokens.create(first.organization.id, {
    memberId: first.admin.id,
    tokenHash: hashToken(expired),
    expiresAt: new Date(Date.now() - 1000),
  });
  return {
    organization: first.organization,
    admin: await signIn(first.admin, first.email, first.password),
    developer: await signIn(developer.member, developer.email, developer.password),
    outsider: { ...(await signIn(second.admin, second.email, second.password)), organization: second.organization },
    expiredHeaders: { authorization: `Bearer ${expired}` },
    rest: (method, path, headers = {}, body) =>
      injectHttp(server.handle, path, {
        method,
        headers,
        body: method === "GET" || method === "DELETE" ? undefined : (body ?? {}),
      }),
  };
}

/** Asserts a REST error answer: status, reason, and the request id repeated from the header. */
export function expectError(answer: HttpAnswer, status: number, reason: string): void {
  expect({ status: answer.status, reason: answer.body?.reason }).toEqual({ status, reason });
  expect(answer.body.request_id).toBe(answer.headers.get("x-request-id"));
}
