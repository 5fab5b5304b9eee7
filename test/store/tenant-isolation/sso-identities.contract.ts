import { expect } from "vitest";
import type { LinkedIdentity } from "../../../src/domain/sso.js";
import { contract } from "./contract.js";
import { seedSsoConnection, seedUser, unique } from "./seed-rows.js";

// An identity is found, listed and linked only within its project.
export default contract({
  repository: "ssoIdentities",
  async seed(world) {
    const identity: LinkedIdentity = {
      userId: await seedUser(world, world.a),
      connectionId: await seedSsoConnection(world, world.a),
      issuer: "https://idp.example.com",
      subject: unique("sub"),
      email: "person@example.com",
      linkedAt: world.clock.now(),
    };
    await world.repos.ssoIdentities.link(world.a.id, identity);
    return { identity };
  },
  checks: {
    async find(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(
          await world.repos.ssoIdentities.find(other.id, seeded.identity.issuer, seeded.identity.subject),
        ).toBeNull();
    },
    async link(world, seeded) {
      // The identity's user must be of its project (sso_identities_user_fkey).
      for (const other of [world.a2, world.b])
        await expect(world.repos.ssoIdentities.link(other.id, seeded.identity)).rejects.toThrow();
    },
    async listByUser(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.ssoIdentities.listByUser(other.id, seeded.identity.userId)).toEqual([]);
    },
  },
  async intact(world, seeded) {
    expect(await world.repos.ssoIdentities.find(world.a.id, seeded.identity.issuer, seeded.identity.subject)).toEqual(
      seeded.identity,
    );
    expect(await world.repos.ssoIdentities.listByUser(world.a.id, seeded.identity.userId)).toEqual([seeded.identity]);
  },
});
