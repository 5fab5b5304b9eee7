import { expect } from "vitest";
import { newId } from "../../../src/crypto/ids.js";
import { hashToken } from "../../../src/crypto/tokens.js";
import { contract } from "./contract.js";
import { expectSignedInUserIntact, seedSignedInUser, strangers } from "./signed-in-user.js";

const HOUR = 3600_000;

// A refresh token is found by its hash within its project only, and a second, rotated token of
// the same session keeps its sealed successor whatever another project asks.
export default contract({
  repository: "refreshTokens",
  async seed(world) {
    const user = await seedSignedInUser(world);
    const live = await world.repos.refreshTokens.findForUpdate(world.a.id, user.refreshTokenHash);
    const rotatedHash = hashToken(newId("rtk"));
    const rotated = await world.repos.refreshTokens.create(world.a.id, {
      sessionId: user.sessionId,
      tokenHash: rotatedHash,
      expiresAt: new Date(world.clock.now().getTime() + HOUR),
    });
    await world.repos.refreshTokens.markRotated(
      world.a.id,
      rotated.id,
      new Date(world.clock.now().getTime() - HOUR),
      "sealed-successor",
    );
    return { ...user, liveId: live!.id, rotatedId: rotated.id, rotatedHash };
  },
  checks: {
    async create(world, s) {
      for (const p of strangers(world)) {
        const input = {
          sessionId: s.sessionId,
          tokenHash: hashToken(newId("rtk")),
          expiresAt: new Date(world.clock.now().getTime() + HOUR),
        };
        await expect(world.repos.refreshTokens.create(p, input)).rejects.toThrow();
      }
    },
    async findForUpdate(world, s) {
      for (const p of strangers(world))
        expect(await world.repos.refreshTokens.findForUpdate(p, s.refreshTokenHash)).toBeNull();
    },
    async sessionOf(world, s) {
      for (const p of strangers(world))
        expect(await world.repos.refreshTokens.sessionOf(p, s.refreshTokenHash)).toBeNull();
    },
    async markRotated(world, s) {
      for (const p of strangers(world))
        await world.repos.refreshTokens.markRotated(p, s.liveId, world.clock.now(), "stolen");
    },
    async forgetSuccessor(world, s) {
      for (const p of strangers(world)) await world.repos.refreshTokens.forgetSuccessor(p, s.rotatedId);
    },
    async forgetSuccessorsRotatedBefore(world, s) {
      for (const p of strangers(world))
        await world.repos.refreshTokens.forgetSuccessorsRotatedBefore(
          p,
          s.sessionId,
          new Date(world.clock.now().getTime() + HOUR),
        );
    },
    async revoke(world, s) {
      for (const p of strangers(world))
        expect(await world.repos.refreshTokens.revoke(p, s.refreshTokenHash, world.clock.now())).toBeNull();
    },
  },
  async intact(world, s) {
    await expectSignedInUserIntact(world, s);
    expect(await world.repos.refreshTokens.findForUpdate(world.a.id, s.rotatedHash)).toMatchObject({
      id: s.rotatedId,
      successorSealed: "sealed-successor",
      revokedAt: null,
    });
  },
});
