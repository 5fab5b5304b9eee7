import { expect } from "vitest";
import { contract } from "./contract.js";
import { unique } from "./seed-rows.js";

// A one-time code is keyed by project and destination: the same address in another project is
// another row, so no other project can read, count against or spend this one.
export default contract({
  repository: "otpCodes",
  async seed(world) {
    const destination = unique("dest") + "@example.com";
    const now = world.clock.now();
    await world.repos.otpCodes.replace(world.a.id, {
      channel: "email",
      destination,
      codeHmac: "hmac-a",
      now,
      expiresAt: new Date(now.getTime() + 600_000),
      minIntervalMs: 60_000,
    });
    return { destination };
  },
  checks: {
    async replace(world, seeded) {
      const now = world.clock.now();
      for (const other of [world.a2, world.b]) {
        const answer = await world.repos.otpCodes.replace(other.id, {
          channel: "email",
          destination: seeded.destination,
          codeHmac: "hmac-other",
          now,
          expiresAt: new Date(now.getTime() + 600_000),
          minIntervalMs: 60_000,
        });
        // Its own row: not held back by a's send a moment ago.
        expect(answer).toEqual({ stored: true });
      }
    },
    async lockLive(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.otpCodes.lockLive(other.id, "email", seeded.destination)).toBeNull();
    },
    async recordFailure(world, seeded) {
      for (const other of [world.a2, world.b])
        await world.repos.otpCodes.recordFailure(other.id, "email", seeded.destination, 1, world.clock.now());
    },
    async consume(world, seeded) {
      for (const other of [world.a2, world.b])
        await world.repos.otpCodes.consume(other.id, "email", seeded.destination, world.clock.now());
    },
  },
  async intact(world, seeded) {
    const live = await world.repos.otpCodes.lockLive(world.a.id, "email", seeded.destination);
    expect(live).toMatchObject({ codeHmac: "hmac-a", attempts: 0 });
  },
});
