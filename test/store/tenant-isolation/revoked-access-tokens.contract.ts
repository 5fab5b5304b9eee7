import { expect } from "vitest";
import { newId } from "../../../src/crypto/ids.js";
import { contract } from "./contract.js";
import { strangers } from "./signed-in-user.js";

// A revoked jti is denied in its own project; another project neither sees it nor takes it over.
export default contract({
  repository: "revokedAccessTokens",
  async seed(world) {
    const jti = newId("jti");
    const expiresAt = new Date(Math.floor(world.clock.now().getTime() / 1000) * 1000 + 3600_000);
    expect(await world.repos.revokedAccessTokens.revoke(world.a.id, jti, expiresAt)).toBe(true);
    return { jti, expiresAt };
  },
  checks: {
    async revoke(world, s) {
      const later = new Date(s.expiresAt.getTime() + 3600_000);
      for (const p of strangers(world))
        expect(await world.repos.revokedAccessTokens.revoke(p, s.jti, later)).toBe(false);
    },
    async isRevoked(world, s) {
      for (const p of strangers(world)) expect(await world.repos.revokedAccessTokens.isRevoked(p, s.jti)).toBe(false);
    },
  },
  exempt: {
    listUnexpired:
      "loads every project's deny list at once for the in-memory cache, each entry keyed by its project (verification-cache.ts)",
  },
  async intact(world, s) {
    expect(await world.repos.revokedAccessTokens.isRevoked(world.a.id, s.jti)).toBe(true);
    const listed = (await world.repos.revokedAccessTokens.listUnexpired(world.clock.now())).filter(
      (r) => r.jti === s.jti,
    );
    expect(listed).toEqual([{ projectId: world.a.id, jti: s.jti, expiresAt: s.expiresAt.getTime() / 1000 }]);
  },
});
