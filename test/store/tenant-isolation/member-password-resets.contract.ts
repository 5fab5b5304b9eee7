import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { MemberPasswordResetEntity } from "../../../src/store/entities/index.js";
import { contract } from "./contract.js";
import type { TenantWorld } from "./contract.js";

const HOUR = 3_600_000;

const linkOf = (world: TenantWorld, identityId: string) =>
  world.db.dataSource.manager.findOneBy(MemberPasswordResetEntity, { identityId });

// Reset links belong to a global identity, not to an organization, and the link is the only
// credential its user holds. What must hold is that one identity's request or use never
// touches another identity's link.
export default contract({
  repository: "memberPasswordResets",
  async seed(world) {
    const identity = await world.repos.memberIdentities.create({
      email: `mpr-${randomUUID()}@example.com`,
      passwordHash: "h",
    });
    const tokenHash = `mpr-hash-${randomUUID()}`;
    await world.repos.memberPasswordResets.replace(identity.id, {
      tokenHash,
      expiresAt: new Date(world.clock.now().getTime() + HOUR),
    });
    return { identity, tokenHash, row: await linkOf(world, identity.id) };
  },
  checks: {
    async replace(world) {
      const other = await world.repos.memberIdentities.create({
        email: `mpr-${randomUUID()}@example.com`,
        passwordHash: "h",
      });
      await world.repos.memberPasswordResets.replace(other.id, {
        tokenHash: `mpr-hash-${randomUUID()}`,
        expiresAt: new Date(world.clock.now().getTime() + HOUR),
      });
    },
    async consume(world) {
      const other = await world.repos.memberIdentities.create({
        email: `mpr-${randomUUID()}@example.com`,
        passwordHash: "h",
      });
      const tokenHash = `mpr-hash-${randomUUID()}`;
      await world.repos.memberPasswordResets.replace(other.id, {
        tokenHash,
        expiresAt: new Date(world.clock.now().getTime() + HOUR),
      });
      expect(await world.repos.memberPasswordResets.consume(tokenHash, world.clock.now())).toBe(other.id);
    },
  },
  async intact(world, seeded) {
    expect(seeded.row).not.toBeNull();
    expect(await linkOf(world, seeded.identity.id)).toEqual(seeded.row);
  },
});
