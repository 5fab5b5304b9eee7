import { describe, expect, it } from "vitest";
import type { HttpAnswer } from "../helpers/clients.js";
import { seedMember, seedOrganization } from "../helpers/seed.js";
import { client, useAuditServer } from "./helpers.js";
import { injectHttp } from "../helpers/inject.js";

// Threat: a member's password guessed at through the Account interface until the limit stops
// it, and no organization ever hears of the limit, since a sign-in names no organization. The
// refusal is recorded in each organization of the identity the email belongs to, once per
// limited key and wait, after the answer: a refused email answers the same, member or not.

const THROTTLE = "first refusal per limited key and wait";

describe("audit: member sign-ins refused by a rate limit", () => {
  const box = useAuditServer();
  const login = (email: string, password: string, headers: Record<string, string>) =>
    injectHttp(box.server.handle, "/v1/account/login", { headers, body: { email, password } });
  const eventsOf = async (admin: { email: string; password: string }, type: string) => {
    const signedIn = await login(admin.email, admin.password, client().headers);
    expect(signedIn.status).toBe(200);
    const res = await injectHttp(box.server.handle, `/v1/audit-events?limit=100&type=${type}`, {
      headers: { authorization: `Bearer ${signedIn.body.management_token}` },
    });
    expect(res.status).toBe(200);
    return res.body.data as any[];
  };
  /** An identity that is a member of two organizations; answers both organizations' admins and memberships. */
  const twoOrganizations = async () => {
    const deps = box.server.deps;
    const first = await seedOrganization(deps);
    const second = await seedOrganization(deps);
    const person = await seedMember(deps, first.organization, "developer");
    const other = await deps.db.repos.members.create(second.organization.id, {
      identity: person.identity,
      role: "developer",
    });
    return { first, second, person, memberIds: [person.member.id, other.id] };
  };
  /** The answer without what differs on every request. */
  const shape = (res: HttpAnswer) => ({
    status: res.status,
    retryAfter: res.headers.get("retry-after"),
    body: { ...res.body, request_id: undefined },
  });

  it("20 refusals after 10 wrong passwords: one rate_limit.exceeded in each organization of the identity, as its member there", async () => {
    const { first, second, person, memberIds } = await twoOrganizations();
    const c = client();
    for (let i = 0; i < 10; i++) expect((await login(person.email, `wrong guess ${i}`, c.headers)).status).toBe(401);
    const refusals: HttpAnswer[] = [];
    for (let i = 0; i < 20; i++)
      refusals.push(
        await login(
          i % 2 ? person.email.toUpperCase() : person.email,
          i % 2 ? person.password : "wrong again",
          c.headers,
        ),
      );
    expect(refusals.map((r) => [r.status, r.body.reason])).toEqual(Array(20).fill([429, "RATE_LIMITED"]));
    await box.server.deps.detached.settle();

    for (const [admin, memberId] of [
      [first, memberIds[0]],
      [second, memberIds[1]],
    ] as const) {
      // The wrong passwords themselves are member.login.failed, one each, in both organizations.
      expect(await eventsOf(admin, "member.login.failed")).toHaveLength(10);
      const limited = await eventsOf(admin, "rate_limit.exceeded");
      expect(limited).toHaveLength(1);
      expect(limited[0]).toMatchObject({
        project_id: "",
        actor_type: "member",
        actor_id: memberId,
        target_id: memberId,
        reason: "RATE_LIMITED",
        ip_address: c.ip,
        user_agent: c.userAgent,
        details: {
          method: "password",
          throttle: THROTTLE,
          retry_after_seconds: Number(refusals[0].headers.get("retry-after")),
        },
      });
    }
  });

  it("an unknown email refused by the same limit answers exactly as a member's does, and is recorded nowhere", async () => {
    const { first, person } = await twoOrganizations();
    const unknown = `nobody-${Date.now()}@example.com`;
    const c = client();
    const d = client();
    for (let i = 0; i < 10; i++) {
      expect((await login(person.email, `wrong guess ${i}`, c.headers)).status).toBe(401);
      expect((await login(unknown, `wrong guess ${i}`, d.headers)).status).toBe(401);
    }
    const ofMember = await login(person.email, "wrong again", c.headers);
    const ofNobody = await login(unknown, "wrong again", d.headers);
    expect(shape(ofNobody)).toEqual(shape(ofMember));
    expect(ofMember.status).toBe(429);
    await box.server.deps.detached.settle();
    const limited = await eventsOf(first, "rate_limit.exceeded");
    expect(limited.map((e) => e.ip_address)).toEqual([c.ip]);
  });

  it("one address over its limit, guessing at two members of different organizations: each organization hears of it once", async () => {
    const a = await twoOrganizations();
    const b = await twoOrganizations();
    const c = client();
    // The Account interface's per-address limit: 30 failures, on unknown emails here.
    for (let i = 0; i < 30; i++)
      expect((await login(`spray-${i}-${Date.now()}@example.com`, "a guess", c.headers)).status).toBe(401);
    for (let i = 0; i < 5; i++) {
      expect((await login(a.person.email, a.person.password, c.headers)).status).toBe(429);
      expect((await login(b.person.email, b.person.password, c.headers)).status).toBe(429);
    }
    await box.server.deps.detached.settle();
    for (const org of [a.first, a.second, b.first, b.second]) {
      const limited = await eventsOf(org, "rate_limit.exceeded");
      expect(limited.map((e) => [e.ip_address, e.details.throttle])).toEqual([[c.ip, THROTTLE]]);
    }
  });
});
