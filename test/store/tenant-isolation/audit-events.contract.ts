import { expect } from "vitest";
import type { AuditEventInput } from "../../../src/domain/audit.js";
import { contract } from "./contract.js";
import { unique } from "./seed-rows.js";

// The audit log is the organization's: another organization lists none of it, even naming
// a's project or user, and forgetting a user elsewhere rewrites none of a's events.
export default contract({
  repository: "auditEvents",
  async seed(world) {
    const userId = unique("usr");
    const event: AuditEventInput = {
      type: "user.login.succeeded",
      organizationId: world.one.id,
      projectId: world.a.id,
      userId,
      targetId: userId,
      origin: { actor: { type: "user", id: userId }, ip: "192.0.2.1", userAgent: "agent-a" },
    };
    await world.repos.auditEvents.record(event);
    return { userId };
  },
  checks: {
    async record(world, seeded) {
      const origin = { actor: { type: "user" as const, id: seeded.userId }, ip: "192.0.2.2", userAgent: "agent-b" };
      await world.repos.auditEvents.record({
        type: "user.login.succeeded",
        organizationId: world.two.id,
        projectId: world.b.id,
        userId: seeded.userId,
        origin,
      });
      expect(await world.repos.auditEvents.list(world.two.id, { userId: seeded.userId }, { limit: 10 })).toHaveLength(
        1,
      );
    },
    async list(world, seeded) {
      expect(await world.repos.auditEvents.list(world.two.id, { userId: seeded.userId }, { limit: 10 })).toEqual([]);
      expect(await world.repos.auditEvents.list(world.two.id, { projectId: world.a.id }, { limit: 10 })).toEqual([]);
    },
    async forgetUser(world, seeded) {
      await world.repos.auditEvents.forgetUser(world.two.id, world.a.id, seeded.userId, "forgotten");
      await world.repos.auditEvents.forgetUser(world.one.id, world.a2.id, seeded.userId, "forgotten");
    },
  },
  exempt: {
    deleteOlderThan:
      "the retention sweep (AUDIT_RETENTION_DAYS, the server's setting) deletes every organization's old events by design",
  },
  async intact(world, seeded) {
    const events = await world.repos.auditEvents.list(world.one.id, { userId: seeded.userId }, { limit: 10 });
    expect(events.map((e) => [e.projectId, e.userId, e.actorId, e.targetId, e.ipAddress, e.userAgent])).toEqual([
      [world.a.id, seeded.userId, seeded.userId, seeded.userId, "192.0.2.1", "agent-a"],
    ]);
  },
});
