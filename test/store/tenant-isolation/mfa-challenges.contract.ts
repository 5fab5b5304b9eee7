import { expect } from "vitest";
import type { MfaChallenge } from "../../../src/domain/mfa.js";
import { contract } from "./contract.js";
import { seedUser, unique } from "./seed-rows.js";

// An mfa_token presented to another project reaches no challenge: it is not read, locked,
// counted against or spent there, and cannot be issued there again for this project's user.
export default contract({
  repository: "mfaChallenges",
  async seed(world) {
    const userId = await seedUser(world, world.a);
    const tokenHash = unique("mfat");
    const challenge: MfaChallenge = {
      userId,
      purpose: "verify",
      amr: ["pwd"],
      method: "password",
      smsCodeHmac: "sms-a",
      passkeyId: null,
      attempts: 0,
      expiresAt: new Date(world.clock.now().getTime() + 300_000),
    };
    await world.repos.mfaChallenges.create(world.a.id, tokenHash, challenge, world.clock.now());
    return { tokenHash, challenge };
  },
  checks: {
    async create(world, seeded) {
      for (const other of [world.a2, world.b]) {
        // The same token (the primary key) or this user in another project: refused either way.
        await expect(
          world.repos.mfaChallenges.create(other.id, seeded.tokenHash, seeded.challenge, world.clock.now()),
        ).rejects.toThrow();
        await expect(
          world.repos.mfaChallenges.create(other.id, unique("mfat"), seeded.challenge, world.clock.now()),
        ).rejects.toThrow();
      }
    },
    async findLive(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.mfaChallenges.findLive(other.id, seeded.tokenHash, world.clock.now())).toBeNull();
    },
    async lockLive(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.mfaChallenges.lockLive(other.id, seeded.tokenHash, world.clock.now())).toBeNull();
    },
    async recordFailure(world, seeded) {
      for (const other of [world.a2, world.b])
        await world.repos.mfaChallenges.recordFailure(other.id, seeded.tokenHash, 1, world.clock.now());
    },
    async consume(world, seeded) {
      for (const other of [world.a2, world.b])
        await world.repos.mfaChallenges.consume(other.id, seeded.tokenHash, world.clock.now());
    },
  },
  async intact(world, seeded) {
    expect(await world.repos.mfaChallenges.findLive(world.a.id, seeded.tokenHash, world.clock.now())).toEqual(
      seeded.challenge,
    );
  },
});
