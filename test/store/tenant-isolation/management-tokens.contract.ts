import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { contract } from "./contract.js";

const HOUR = 3_600_000;

// A management token belongs to a member of one organization: another organization can neither
// attach a token to that member nor revoke one. findActive is the credential check itself.
export default contract({
  repository: "managementTokens",
  async seed(world) {
    const identity = await world.repos.memberIdentities.create({
      email: `mtk-${randomUUID()}@example.com`,
      passwordHash: "h",
    });
    const member = await world.repos.members.create(world.one.id, { identity, role: "admin" });
    const tokenHash = `mtk-hash-${randomUUID()}`;
    const token = await world.repos.managementTokens.create(world.one.id, {
      memberId: member.id,
      tokenHash,
      expiresAt: new Date(world.clock.now().getTime() + HOUR),
    });
    return { identity, member, token, tokenHash };
  },
  checks: {
    async create(world, seeded) {
      // The composite foreign key: a member of organization one is no member of two.
      await expect(
        world.repos.managementTokens.create(world.two.id, {
          memberId: seeded.member.id,
          tokenHash: `mtk-hash-${randomUUID()}`,
          expiresAt: new Date(world.clock.now().getTime() + HOUR),
        }),
      ).rejects.toThrow();
    },
    async revoke(world, seeded) {
      expect(await world.repos.managementTokens.revoke(world.two.id, seeded.member.id, seeded.token.id)).toBe(false);
    },
    async revokeForIdentity(world) {
      const other = await world.repos.memberIdentities.create({
        email: `mtk-${randomUUID()}@example.com`,
        passwordHash: "h",
      });
      await world.repos.members.create(world.two.id, { identity: other, role: "developer" });
      expect(await world.repos.managementTokens.revokeForIdentity(other.id)).toBe(0);
    },
    async revokeWithoutSecondFactor(world, seeded) {
      // Another organization's sweep leaves this one's token (issued without a second factor) alone.
      await world.repos.managementTokens.revokeWithoutSecondFactor(world.two.id, "mtk_none");
      expect(await world.repos.managementTokens.findActive(seeded.tokenHash, world.clock.now())).not.toBeNull();
    },
  },
  exempt: { findActive: "the credential check: the token is the credential, and its row names the organization" },
  async intact(world, seeded) {
    const active = await world.repos.managementTokens.findActive(seeded.tokenHash, world.clock.now());
    expect(active).toEqual({
      id: seeded.token.id,
      member: seeded.member,
      organizationId: world.one.id,
      expiresAt: seeded.token.expiresAt,
    });
  },
});
