import { expect } from "vitest";
import { contract } from "./contract.js";
import { unique } from "./seed-rows.js";

// Usage counts are an organization's own: another organization naming a's project counts none
// of its events, and events written for other projects do not add to a's counts.
let hour = 0;

export default contract({
  repository: "authEvents",
  async seed(world) {
    // Each seed has an hour of its own, long ago, so its counts are exactly its own events.
    const at = new Date(Date.UTC(2001, 0, 1) + hour++ * 3_600_000);
    const userId = unique("usr");
    await world.repos.authEvents.record({
      organizationId: world.one.id,
      projectId: world.a.id,
      userId,
      kind: "login",
      method: "password",
      at,
    });
    return { at, userId, period: { start: at, end: new Date(at.getTime() + 1) } };
  },
  checks: {
    async record(world, seeded) {
      await world.repos.authEvents.record({
        organizationId: world.one.id,
        projectId: world.a2.id,
        userId: seeded.userId,
        kind: "login",
        method: "otp",
        at: seeded.at,
      });
      await world.repos.authEvents.record({
        organizationId: world.two.id,
        projectId: world.b.id,
        userId: seeded.userId,
        kind: "login",
        method: "sso",
        at: seeded.at,
      });
      expect(
        (await world.repos.authEvents.countUsage(world.two.id, { projectId: world.b.id, ...seeded.period }))
          .totalLogins,
      ).toBe(1);
    },
    async countUsage(world, seeded) {
      const none = { mau: 0, totalLogins: 0, tokensIssued: 0, passwordlessLogins: 0, ssoLogins: 0, passkeyLogins: 0 };
      expect(
        await world.repos.authEvents.countUsage(world.two.id, { projectId: world.a.id, ...seeded.period }),
      ).toEqual(none);
      expect(await world.repos.authEvents.countUsage(world.two.id, seeded.period)).toEqual(none);
      expect(
        await world.repos.authEvents.countUsage(world.one.id, { projectId: world.a2.id, ...seeded.period }),
      ).toEqual(none);
    },
  },
  async intact(world, seeded) {
    expect(await world.repos.authEvents.countUsage(world.one.id, { projectId: world.a.id, ...seeded.period })).toEqual({
      mau: 1,
      totalLogins: 1,
      tokensIssued: 1,
      passwordlessLogins: 0,
      ssoLogins: 0,
      passkeyLogins: 0,
    });
  },
});
