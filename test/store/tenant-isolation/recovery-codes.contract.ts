import { expect } from "vitest";
import { contract } from "./contract.js";
import { seedUser, unique } from "./seed-rows.js";

// A user's recovery codes are used, seen and replaced only through the user's own project.
export default contract({
  repository: "recoveryCodes",
  async seed(world) {
    const userId = await seedUser(world, world.a);
    const codes = [unique("rc"), unique("rc")];
    await world.repos.recoveryCodes.replace(world.a.id, userId, codes, world.clock.now());
    return { userId, codes };
  },
  checks: {
    async replace(world, seeded) {
      for (const other of [world.a2, world.b]) {
        // Deletes nothing of a's; the new codes cannot name a's user (recovery_codes_user_fkey).
        await expect(
          world.repos.recoveryCodes.replace(other.id, seeded.userId, [unique("rc")], world.clock.now()),
        ).rejects.toThrow();
      }
    },
    async use(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.recoveryCodes.use(other.id, seeded.userId, seeded.codes[0], world.clock.now())).toBe(
          false,
        );
    },
    async hasAny(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.recoveryCodes.hasAny(other.id, seeded.userId)).toBe(false);
    },
    async removeAll(world, seeded) {
      for (const other of [world.a2, world.b]) await world.repos.recoveryCodes.removeAll(other.id, seeded.userId);
    },
  },
  async intact(world, seeded) {
    expect(await world.repos.recoveryCodes.hasAny(world.a.id, seeded.userId)).toBe(true);
    // Both still unused: each is spent once, here, by its owner.
    for (const code of seeded.codes)
      expect(await world.repos.recoveryCodes.use(world.a.id, seeded.userId, code, world.clock.now())).toBe(true);
  },
});
