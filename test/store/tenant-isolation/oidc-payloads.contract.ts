import { expect } from "vitest";
import type { OidcPayloadWrite } from "../../../src/store/repositories/oidc-payloads.js";
import { contract } from "./contract.js";
import { seedUser, unique } from "./seed-rows.js";

// What the OpenID Provider's engine stores for one project (a grant, a refresh token of it, an
// engine session bound to a Gatehouse session) is neither found, bound, consumed, destroyed nor
// revoked when another project's engine names it, nor overwritten by its upsert.
export default contract({
  repository: "oidcPayloads",
  async seed(world) {
    const userId = await seedUser(world, world.a);
    const now = world.clock.now();
    const later = new Date(now.getTime() + 3_600_000);
    const grantId = unique("grant");
    const sessionUid = unique("uid");
    const base: Omit<OidcPayloadWrite, "model" | "id" | "payload"> = {
      grantId,
      userCode: null,
      uid: null,
      clientId: null,
      accountId: userId,
      sessionId: null,
      sessionUid: null,
      expiresAt: later,
    };
    const session = {
      ...base,
      model: "Session",
      id: unique("sess"),
      uid: sessionUid,
      grantId: null,
      payload: { uid: sessionUid },
    };
    await world.repos.oidcPayloads.upsert(world.a.id, { ...session, sessionId: "sess_bound" });
    const grant = { ...base, model: "Grant", id: grantId, payload: { accountId: userId } };
    await world.repos.oidcPayloads.upsert(world.a.id, grant);
    const token = {
      ...base,
      model: "RefreshToken",
      id: unique("rt"),
      userCode: unique("code"),
      sessionUid,
      payload: { grantId },
    };
    await world.repos.oidcPayloads.upsert(world.a.id, token);
    return { session, grant, token, sessionUid, grantId };
  },
  checks: {
    async upsert(world, seeded) {
      for (const other of [world.a2, world.b])
        await world.repos.oidcPayloads.upsert(other.id, { ...seeded.token, accountId: null, payload: { taken: true } });
    },
    async find(world, seeded) {
      const now = world.clock.now();
      for (const other of [world.a2, world.b]) {
        expect(
          await world.repos.oidcPayloads.find(other.id, "RefreshToken", { id: seeded.token.id }, now),
        ).toBeUndefined();
        expect(
          await world.repos.oidcPayloads.find(other.id, "Session", { uid: seeded.sessionUid }, now),
        ).toBeUndefined();
        expect(
          await world.repos.oidcPayloads.find(other.id, "RefreshToken", { userCode: seeded.token.userCode }, now),
        ).toBeUndefined();
      }
    },
    async boundSession(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.oidcPayloads.boundSession(other.id, seeded.sessionUid, seeded.grantId)).toBeNull();
    },
    async consume(world, seeded) {
      for (const other of [world.a2, world.b])
        await world.repos.oidcPayloads.consume(other.id, "RefreshToken", seeded.token.id, world.clock.now());
    },
    async destroy(world, seeded) {
      for (const other of [world.a2, world.b])
        await world.repos.oidcPayloads.destroy(other.id, "Grant", seeded.grantId);
    },
    async revokeByGrantId(world, seeded) {
      for (const other of [world.a2, world.b]) await world.repos.oidcPayloads.revokeByGrantId(other.id, seeded.grantId);
    },
  },
  exempt: {
    deleteExpired: "maintenance across every project: deletes rows past their expiry only, whoever's they are",
  },
  async intact(world, seeded) {
    const now = world.clock.now();
    const token = await world.repos.oidcPayloads.find(world.a.id, "RefreshToken", { id: seeded.token.id }, now);
    expect(token).toMatchObject({ payload: { grantId: seeded.grantId }, consumedAt: null, sessionId: "sess_bound" });
    expect(await world.repos.oidcPayloads.find(world.a.id, "Grant", { id: seeded.grantId }, now)).toBeDefined();
    expect(await world.repos.oidcPayloads.boundSession(world.a.id, seeded.sessionUid, null)).toBe("sess_bound");
  },
});
