import { expect } from "vitest";
import { UserEntity } from "../../../src/store/entities/index.js";
import { contract } from "./contract.js";
import { seedUser, unique } from "./seed-rows.js";

// A user's factors, named by ids from another project, are neither listed, locked, counted,
// confirmed, removed nor stepped; and a factor cannot be started for another project's user.
const STEP = 1_000_000;

export default contract({
  repository: "mfaFactors",
  async seed(world) {
    const userId = await seedUser(world, world.a);
    const now = world.clock.now();
    const totp = unique("mfa");
    const sms = unique("mfa");
    const factors = world.repos.mfaFactors;
    const pending = { userId, secretSealed: null, phone: null, codeHmac: null, codeExpiresAt: null, now };
    await factors.startPending(world.a.id, { ...pending, id: totp, method: "totp", secretSealed: "seed" });
    await factors.startPending(world.a.id, { ...pending, id: sms, method: "sms", phone: "+15555550100" });
    await factors.confirm(world.a.id, userId, sms, now);
    return { userId, totp, sms };
  },
  checks: {
    async list(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.mfaFactors.list(other.id, seeded.userId)).toEqual([]);
    },
    async startPending(world, seeded) {
      for (const other of [world.a2, world.b]) {
        const input = {
          id: unique("mfa"),
          userId: seeded.userId,
          method: "totp" as const,
          secretSealed: "other",
          phone: null,
          codeHmac: null,
          codeExpiresAt: null,
          now: world.clock.now(),
        };
        // The factor's user must be of the factor's project (mfa_factors_user_fkey).
        await expect(world.repos.mfaFactors.startPending(other.id, input)).rejects.toThrow();
      }
    },
    async lockPending(world, seeded) {
      for (const other of [world.a2, world.b]) {
        expect(await world.repos.mfaFactors.lockPending(other.id, seeded.userId)).toBeNull();
        expect(await world.repos.mfaFactors.lockPending(other.id, seeded.userId, "totp")).toBeNull();
      }
    },
    async recordPendingFailure(world, seeded) {
      for (const other of [world.a2, world.b])
        await world.repos.mfaFactors.recordPendingFailure(other.id, seeded.totp, 1);
    },
    async confirm(world, seeded) {
      for (const other of [world.a2, world.b])
        await world.repos.mfaFactors.confirm(other.id, seeded.userId, seeded.totp, world.clock.now());
    },
    async acceptStep(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.mfaFactors.acceptStep(other.id, seeded.totp, STEP)).toBe(false);
    },
    async removeConfirmed(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.mfaFactors.removeConfirmed(other.id, seeded.userId, "sms", world.clock.now())).toBe(
          false,
        );
    },
  },
  async intact(world, seeded) {
    const factors = await world.repos.mfaFactors.list(world.a.id, seeded.userId);
    expect(factors.map((f) => [f.id, f.method, f.confirmedAt !== null, f.attempts])).toEqual([
      [seeded.sms, "sms", true, 0],
      [seeded.totp, "totp", false, 0],
    ]);
    const user = await world.db.dataSource.manager.findOneByOrFail(UserEntity, { id: seeded.userId });
    expect(user.mfaMethods).toEqual(["sms"]);
    // The step was never taken: its owner can still take it.
    expect(await world.repos.mfaFactors.acceptStep(world.a.id, seeded.totp, STEP)).toBe(true);
  },
});
