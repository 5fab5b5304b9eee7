import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { contract } from "./contract.js";

// A member identity's recovery codes: global like the identity, reached only through the
// identity the caller proved, so no organization names them.
export default contract({
  repository: "memberRecoveryCodes",
  async seed(world) {
    const identity = await world.repos.memberIdentities.create({
      email: `mrc-${randomUUID()}@example.com`,
      passwordHash: "h",
    });
    await world.repos.memberRecoveryCodes.replace(identity.id, ["a", "b"], world.clock.now());
    return { identity };
  },
  checks: {},
  exempt: {
    replace: "the identity the caller proved (its management token, or the challenge it answered)",
    use: "the identity of the challenge the caller holds",
    remaining: "the identity of the caller's management token",
    removeAll: "the identity of the caller's management token",
  },
  async intact(world, seeded) {
    expect(await world.repos.memberRecoveryCodes.remaining(seeded.identity.id)).toBe(2);
  },
});
