import { describe, expect, it } from "vitest";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { seedMember, seedOrganization } from "../helpers/seed.js";
import { eventually } from "../helpers/eventually.js";
import { BEHIND_PROXY, from, freshIp, retryAfterOf } from "./helpers.js";
import { measureSends } from "./timing-helpers.js";
import { injectHttp } from "../helpers/inject.js";

// The Account interface's mail and passwords, limited and timed like the end users'
// (counts.test.ts, sign-in.test.ts, timing.test.ts), with the defaults: the member password
// reset request answers the same, in the same time, for any address, and sends at most 10 an
// hour to one; invitations to one address likewise; and a guess at an identity's password
// through ChangeMemberPassword or AcceptInvitation counts as one through Login.

describe("member password reset requests", () => {
  const ctx = useMessagingServer({ smtp: true, env: BEHIND_PROXY });
  const requestReset = (email: string, ip = freshIp()) =>
    injectHttp(ctx.server.handle, "/v1/account/password/reset-request", { headers: from(ip), body: { email } });

  it("over the per-address limit the answer stays the same and no more mail goes out", async () => {
    const { organization } = await seedOrganization(ctx.server.deps);
    const { email } = await seedMember(ctx.server.deps, organization, "developer");
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await requestReset(i % 2 ? email.toUpperCase() : email));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(new Set(answers.map((a) => a.body.message)).size).toBe(1);
    await ctx.smtp.waitFor(email, { nth: 10 });
    await eventually(
      "the outbox to settle",
      async () =>
        (await ctx.sql(`SELECT count(*)::int AS n FROM outbox WHERE recipient = $1 AND sent_at IS NULL`, [email]))[0]
          .n === 0,
    );
    expect(ctx.smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(10);
  });

  it("sends per IP address: the 31st request from one client within the window is 429, for any address", async () => {
    const client = freshIp();
    for (let i = 0; i < 30; i++)
      expect((await requestReset(`nobody-${i}-${Date.now()}@example.com`, client)).status).toBe(200);
    const refused = await requestReset(`nobody-31-${Date.now()}@example.com`, client);
    expect({ status: refused.status, reason: refused.body.reason }).toEqual({ status: 429, reason: "RATE_LIMITED" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("takes the same time for an identity's address and an unknown one (medians of 100 pairs)", async () => {
    const { organization } = await seedOrganization(ctx.server.deps);
    const registered: string[] = [];
    for (let i = 0; i < 100; i++) registered.push((await seedMember(ctx.server.deps, organization, "developer")).email);
    const unknown = (tag: string, n: number) =>
      Array.from({ length: n }, (_, i) => `${tag}${i}-${Date.now()}@example.com`);
    const send = (email: string, ip: string) => requestReset(email, ip);
    // Warm-up: the first requests of a process pay for compilation.
    await measureSends(
      ctx.server,
      "warm-up (not judged)",
      send,
      registered.slice(0, 5).map((e) => e.toUpperCase()),
      unknown("warm", 5),
    );
    const { d, bound } = await measureSends(
      ctx.server,
      "/v1/account/password/reset-request",
      send,
      registered,
      unknown("member", 100),
    );
    expect(Math.abs(d)).toBeLessThan(bound);
  });
});

describe("invitations and member passwords", () => {
  const ctx = useMessagingServer({ smtp: true, env: BEHIND_PROXY });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    injectHttp(ctx.server.handle, path, { headers: { ...from(freshIp()), ...headers }, body });
  const signIn = async (email: string, password: string) => {
    const res = await post("/v1/account/login", { email, password });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { authorization: `Bearer ${res.body.management_token}` };
  };

  it("InviteMember: the 11th invitation to one address within the hour is 429 RATE_LIMITED, and sends nothing", async () => {
    const org = await seedOrganization(ctx.server.deps);
    const admin = await signIn(org.email, org.password);
    const email = `invited-${Date.now()}@example.com`;
    for (let i = 0; i < 10; i++)
      expect((await post("/v1/members/invite", { email, role: "developer" }, admin)).status).toBe(200);
    retryAfterOf(await post("/v1/members/invite", { email: email.toUpperCase(), role: "developer" }, admin));
    // Another address is not affected.
    expect(
      (await post("/v1/members/invite", { email: `other-${Date.now()}@example.com`, role: "developer" }, admin)).status,
    ).toBe(200);
    await ctx.smtp.waitFor(email, { nth: 10 });
    await eventually(
      "the outbox to settle",
      async () =>
        (await ctx.sql(`SELECT count(*)::int AS n FROM outbox WHERE recipient = $1 AND sent_at IS NULL`, [email]))[0]
          .n === 0,
    );
    expect(ctx.smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(10);
  });

  it("ChangeMemberPassword: wrong current passwords count toward the identity's sign-in limit; past it the right one and Login wait too", async () => {
    const org = await seedOrganization(ctx.server.deps);
    const member = await seedMember(ctx.server.deps, org.organization, "developer");
    const headers = await signIn(member.email, member.password);
    const change = (current: string) =>
      post(
        "/v1/account/password/change",
        { current_password: current, new_password: "a brand new member passphrase" },
        headers,
      );
    for (let i = 0; i < 10; i++) expect((await change("not the password")).body.reason).toBe("INVALID_CREDENTIALS");
    retryAfterOf(await change(member.password));
    retryAfterOf(await post("/v1/account/login", { email: member.email, password: member.password }));
  });

  it("AcceptInvitation of an existing identity: wrong passwords count toward its sign-in limit, shared with Login", async () => {
    const org = await seedOrganization(ctx.server.deps);
    const other = await seedOrganization(ctx.server.deps);
    const person = await seedMember(ctx.server.deps, other.organization, "developer");
    const admin = await signIn(org.email, org.password);
    expect((await post("/v1/members/invite", { email: person.email, role: "developer" }, admin)).status).toBe(200);
    const mail = await ctx.smtp.waitFor(person.email);
    const token = decodeURIComponent(/[?&]token=([^&\s]+)/.exec(mail.text)![1]);
    // Login's guesses and AcceptInvitation's add up: 1 + 9 wrong, then the right password waits.
    expect((await post("/v1/account/login", { email: person.email, password: "a wrong guess" })).body.reason).toBe(
      "INVALID_CREDENTIALS",
    );
    for (let i = 0; i < 9; i++)
      expect((await post("/v1/account/invitations/accept", { token, password: "a wrong guess" })).body.reason).toBe(
        "INVALID_CREDENTIALS",
      );
    retryAfterOf(await post("/v1/account/invitations/accept", { token, password: person.password }));
    retryAfterOf(await post("/v1/account/login", { email: person.email, password: person.password }));
  });
});
