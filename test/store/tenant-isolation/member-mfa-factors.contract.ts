import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { contract } from "./contract.js";

// A member's second factors belong to its identity, which is global (it signs in to each of its
// organizations): every method names the identity the caller proved, except withSecondFactor,
// which answers only for members of the organization it names.
export default contract({
  repository: "memberMfaFactors",
  async seed(world) {
    const identity = await world.repos.memberIdentities.create({
      email: `mmf-${randomUUID()}@example.com`,
      passwordHash: "h",
    });
    const member = await world.repos.members.create(world.one.id, { identity, role: "developer" });
    const id = `mmf_${randomUUID().replace(/-/g, "").slice(0, 26)}`;
    await world.repos.memberMfaFactors.startPending({
      id,
      identityId: identity.id,
      method: "totp",
      secretSealed: "sealed",
      now: world.clock.now(),
    });
    await world.repos.memberMfaFactors.confirm(identity.id, id, world.clock.now());
    return { identity, member, id };
  },
  checks: {
    async withSecondFactor(world, seeded) {
      expect([...(await world.repos.memberMfaFactors.withSecondFactor(world.two.id, [seeded.member.id]))]).toEqual([]);
    },
  },
  exempt: {
    list: "the identity the caller proved (its password, mfa_token or management token)",
    summary: "the identity the caller proved",
    startPending: "the identity the caller proved",
    lockPending: "the identity the caller proved",
    recordPendingFailure: "the identity the caller proved",
    confirm: "the identity the caller proved",
    acceptStep: "the identity the caller proved",
    removeConfirmed: "the identity the caller proved",
  },
  async intact(world, seeded) {
    expect([...(await world.repos.memberMfaFactors.withSecondFactor(world.one.id, [seeded.member.id]))]).toEqual([
      seeded.member.id,
    ]);
  },
});
