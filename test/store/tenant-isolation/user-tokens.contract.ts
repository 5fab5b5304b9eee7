import { expect } from "vitest";
import { newId } from "../../../src/crypto/ids.js";
import { hashToken } from "../../../src/crypto/tokens.js";
import { contract } from "./contract.js";
import { seedSignedInUser, strangers } from "./signed-in-user.js";

// A link is burned in its own project only: used with another project's id, it stays usable.
export default contract({
  repository: "userTokens",
  async seed(world) {
    const user = await seedSignedInUser(world);
    const tokenHash = hashToken(newId("lnk"));
    const expiresAt = new Date(world.clock.now().getTime() + 3600_000);
    await world.repos.userTokens.issue(world.a.id, {
      userId: user.userId,
      kind: "password_reset",
      tokenHash,
      email: user.email,
      expiresAt,
    });
    return { ...user, tokenHash, expiresAt };
  },
  checks: {
    async issue(world, s) {
      for (const p of strangers(world)) {
        const input = {
          userId: s.userId,
          kind: "password_reset" as const,
          tokenHash: hashToken(newId("lnk")),
          email: s.email,
          expiresAt: s.expiresAt,
        };
        await expect(world.repos.userTokens.issue(p, input)).rejects.toThrow();
      }
    },
    async withdraw(world, s) {
      for (const p of strangers(world))
        expect(await world.repos.userTokens.withdraw(p, s.userId, ["password_reset"], world.clock.now())).toBe(0);
    },
    async consume(world, s) {
      for (const p of strangers(world))
        expect(
          await world.repos.userTokens.consume(
            p,
            ["password_reset", "email_verification", "email_change"],
            s.tokenHash,
            world.clock.now(),
          ),
        ).toBeNull();
    },
  },
  async intact(world, s) {
    expect(await world.repos.userTokens.consume(world.a.id, "password_reset", s.tokenHash, world.clock.now())).toEqual({
      userId: s.userId,
      email: s.email,
      kind: "password_reset",
    });
  },
});
