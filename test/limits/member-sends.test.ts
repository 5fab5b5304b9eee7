import { describe, expect, it } from "vitest";
import { http } from "../helpers/clients.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { seedMember, seedOrganization } from "../helpers/seed.js";
import { eventually } from "../helpers/smtp.js";
import { BEHIND_PROXY, from, freshIp } from "./helpers.js";
import { measureSends } from "./timing-helpers.js";

// The Account interface's mail, limited and timed like the end users' (counts.test.ts,
// timing.test.ts): the member password reset request answers the same, in the same time, for
// any address, and sends at most sends_per_destination (10 an hour, the defaults) to one.

describe("member password reset requests", () => {
  const ctx = useMessagingServer({ smtp: true, env: BEHIND_PROXY });
  const requestReset = (email: string, ip = freshIp()) => http(`${ctx.server.url}/v1/account/password/reset-request`, { headers: from(ip), body: { email } });

  it("over the per-address limit the answer stays the same and no more mail goes out", async () => {
    const { organization } = await seedOrganization(ctx.server.deps);
    const { email } = await seedMember(ctx.server.deps, organization, "developer");
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await requestReset(i % 2 ? email.toUpperCase() : email));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(new Set(answers.map((a) => a.body.message)).size).toBe(1);
    await ctx.smtp.waitFor(email, { nth: 10 });
    await eventually("the outbox to settle", async () => (await ctx.sql(`SELECT count(*)::int AS n FROM outbox WHERE recipient = $1 AND sent_at IS NULL`, [email]))[0].n === 0);
    expect(ctx.smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(10);
  });

  it("sends per IP address: the 31st request from one client within the window is 429, for any address", async () => {
    const client = freshIp();
    for (let i = 0; i < 30; i++) expect((await requestReset(`nobody-${i}-${Date.now()}@example.com`, client)).status).toBe(200);
    const refused = await requestReset(`nobody-31-${Date.now()}@example.com`, client);
    expect({ status: refused.status, reason: refused.body.reason }).toEqual({ status: 429, reason: "RATE_LIMITED" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("takes the same time for an identity's address and an unknown one (medians of 100 pairs)", { timeout: 120_000 }, async () => {
    const { organization } = await seedOrganization(ctx.server.deps);
    const registered: string[] = [];
    for (let i = 0; i < 100; i++) registered.push((await seedMember(ctx.server.deps, organization, "developer")).email);
    const unknown = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag}${i}-${Date.now()}@example.com`);
    const send = (email: string, ip: string) => requestReset(email, ip);
    // Warm-up: the first requests of a process pay for compilation.
    await measureSends("warm-up", send, registered.slice(0, 5).map((e) => e.toUpperCase()), unknown("warm", 5));
    const { d, bound } = await measureSends("/v1/account/password/reset-request", send, registered, unknown("member", 100));
    expect(Math.abs(d)).toBeLessThan(bound);
  });
});
