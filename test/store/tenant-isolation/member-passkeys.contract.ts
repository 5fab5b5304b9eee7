import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { contract } from "./contract.js";

// A member identity's passkeys are global like the identity: reached through the identity the
// caller proved, or by credential id for an assertion the flow then holds to its challenge's
// identity. No organization names them.
export default contract({
  repository: "memberPasskeys",
  async seed(world) {
    const identity = await world.repos.memberIdentities.create({
      email: `mpk-${randomUUID()}@example.com`,
      passwordHash: "h",
    });
    const id = `mpk_${randomUUID().replace(/-/g, "").slice(0, 26)}`;
    await world.repos.memberPasskeys.create({
      id,
      identityId: identity.id,
      credentialId: `cred-${randomUUID()}`,
      publicKey: "pk",
      counter: 0,
      transports: ["internal"],
      backupEligible: true,
      backedUp: true,
      name: "Laptop",
      createdAt: world.clock.now(),
      lastUsedAt: null,
    });
    return { identity, id };
  },
  checks: {},
  exempt: {
    listOfIdentity: "the identity the caller proved",
    lockByCredential: "an assertion's credential; the flow holds it to the identity of the challenge it answers",
    create: "the identity the caller proved",
    recordUse: "the identity the caller proved",
    remove: "the identity of the caller's management token",
    createChallenge: "the identity the caller proved",
    spendChallenge: "the ceremony id is single-use and bound to an identity and an mfa_token",
  },
  async intact(world, seeded) {
    expect((await world.repos.memberPasskeys.listOfIdentity(seeded.identity.id)).map((p) => p.id)).toEqual([seeded.id]);
  },
});
