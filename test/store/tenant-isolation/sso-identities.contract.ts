import { expect } from "vitest";
import { contract } from "./contract.js";
import { seedSsoConnection, seedUser, unique } from "./seed-rows.js";

// An identity is found, listed, locked, linked and unlinked only within its project.
export default contract({
  repository: "ssoIdentities",
  async seed(world) {
    const identity = await world.repos.ssoIdentities.link(world.a.id, {
      userId: await seedUser(world, world.a),
      connectionId: await seedSsoConnection(world, world.a),
      issuer: "https://idp.example.com",
      subject: unique("sub"),
      email: "person@example.com",
      linkedAt: world.clock.now(),
    });
    expect(identity.id).toMatch(/^idn_[0-9a-z]{26}$/);
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
    async lockOfUser(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.ssoIdentities.lockOfUser(other.id, seeded.identity.userId)).toEqual([]);
    },
    async unlink(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.ssoIdentities.unlink(other.id, seeded.identity.userId, seeded.identity.id)).toBe(
          false,
        );
    },
  },
  async intact(world, seeded) {
    expect(await world.repos.ssoIdentities.find(world.a.id, seeded.identity.issuer, seeded.identity.subject)).toEqual(
      seeded.identity,
    );
    expect(await world.repos.ssoIdentities.lockOfUser(world.a.id, seeded.identity.userId)).toEqual([seeded.identity]);
    expect(await world.repos.ssoIdentities.listByUser(world.a.id, seeded.identity.userId)).toEqual([
      { ...seeded.identity, connectionName: "Provider", connectionProvider: "oidc" },
    ]);
  },
});
