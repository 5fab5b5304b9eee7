import { expect } from "vitest";
import { contract } from "./contract.js";
import { unique } from "./seed-rows.js";

// A sign-in link (and the signup it may carry) is spent only in its own project: its token
// hash presented to another project finds nothing, and another project's link for the same
// address is another row.
export default contract({
  repository: "magicLinks",
  async seed(world) {
    const email = unique("link") + "@example.com";
    const tokenHash = unique("token");
    const now = world.clock.now();
    const signup = { passwordHash: "argon-a", metadata: { plan: "a" }, locale: "fr" };
    await world.repos.magicLinks.replace(world.a.id, {
      emailNormalized: email,
      email,
      tokenHash,
      now,
      expiresAt: new Date(now.getTime() + 600_000),
      minIntervalMs: 60_000,
      signup,
    });
    return { email, tokenHash, signup };
  },
  checks: {
    async replace(world, seeded) {
      const now = world.clock.now();
      for (const other of [world.a2, world.b]) {
        const answer = await world.repos.magicLinks.replace(other.id, {
          emailNormalized: seeded.email,
          email: seeded.email,
          tokenHash: unique("token"),
          now,
          expiresAt: new Date(now.getTime() + 600_000),
          minIntervalMs: 60_000,
        });
        expect(answer).toEqual({ stored: true });
      }
    },
    async consume(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.magicLinks.consume(other.id, seeded.tokenHash, world.clock.now())).toBeNull();
    },
  },
  async intact(world, seeded) {
    // Spending it is the only read there is; every check has a fresh link.
    expect(await world.repos.magicLinks.consume(world.a.id, seeded.tokenHash, world.clock.now())).toEqual({
      email: seeded.email,
      signup: seeded.signup,
    });
  },
});
