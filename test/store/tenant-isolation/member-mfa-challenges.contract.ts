import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { contract } from "./contract.js";

// A member's mfa_token names its row by the token's hash: the token is the credential, and the
// row names the membership (and so the organization) the sign-in is for.
export default contract({
  repository: "memberMfaChallenges",
  async seed(world) {
    const identity = await world.repos.memberIdentities.create({
      email: `mch-${randomUUID()}@example.com`,
      passwordHash: "h",
    });
    const member = await world.repos.members.create(world.one.id, { identity, role: "developer" });
    const tokenHash = `mch-${randomUUID()}`;
    const expiresAt = new Date(world.clock.now().getTime() + 300_000);
    await world.repos.memberMfaChallenges.create(
      tokenHash,
      {
        identityId: identity.id,
        organizationId: world.one.id,
        memberId: member.id,
        purpose: "verify",
        attempts: 0,
        expiresAt,
      },
      world.clock.now(),
    );
    return { identity, member, tokenHash };
  },
  checks: {
    async create(world, seeded) {
      // The composite foreign key: a member of organization one is no member of two.
      await expect(
        world.repos.memberMfaChallenges.create(
          `mch-${randomUUID()}`,
          {
            identityId: seeded.identity.id,
            organizationId: world.two.id,
            memberId: seeded.member.id,
            purpose: "verify",
            attempts: 0,
            expiresAt: new Date(world.clock.now().getTime() + 300_000),
          },
          world.clock.now(),
        ),
      ).rejects.toThrow();
    },
  },
  exempt: {
    findLive: "the mfa_token is the credential; its row names the organization",
    lockLive: "the mfa_token is the credential; its row names the organization",
    recordFailure: "the mfa_token is the credential",
    consume: "the mfa_token is the credential",
  },
  async intact(world, seeded) {
    expect(await world.repos.memberMfaChallenges.findLive(seeded.tokenHash, world.clock.now())).toMatchObject({
      organizationId: world.one.id,
      memberId: seeded.member.id,
    });
  },
});
