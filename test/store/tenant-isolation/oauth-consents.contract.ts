import { expect } from "vitest";
import { newId } from "../../../src/crypto/ids.js";
import type { Project } from "../../../src/domain/account.js";
import { OAuthClientEntity, OidcPayloadEntity } from "../../../src/store/entities/index.js";
import type { TenantWorld } from "./contract.js";
import { contract } from "./contract.js";
import { seedUser, unique } from "./seed-rows.js";

/** A client of `project`, written through its entity (as seed-rows.ts does for users). */
async function seedClient(world: TenantWorld, project: Project): Promise<string> {
  const id = newId("oac");
  const now = world.clock.now();
  await world.db.dataSource.manager.insert(OAuthClientEntity, {
    id,
    organizationId: project.organizationId,
    projectId: project.id,
    name: "Shop app",
    type: "public",
    secretHash: null,
    secretHint: null,
    redirectUris: ["https://app.example.com/cb"],
    postLogoutRedirectUris: [],
    grantTypes: ["authorization_code"],
    scopes: ["openid"],
    firstParty: false,
    logoUri: "",
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

// A user's consent to a client, and what the engine issued under it, named from another
// project, are neither read, listed, widened nor revoked there; and no consent can be given
// there to this project's user or client (the foreign keys hold both to the consent's project).
export default contract({
  repository: "oauthConsents",
  async seed(world) {
    const userId = await seedUser(world, world.a);
    const clientId = await seedClient(world, world.a);
    const consent = await world.repos.oauthConsents.grant(world.a.id, userId, clientId, ["openid"], world.clock.now());
    const payloadId = unique("at");
    await world.db.dataSource.manager.insert(OidcPayloadEntity, {
      model: "AccessToken",
      id: payloadId,
      projectId: world.a.id,
      payload: { accountId: userId, clientId },
      clientId,
      accountId: userId,
    });
    return { userId, clientId, consent, payloadId };
  },
  checks: {
    async get(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.oauthConsents.get(other.id, seeded.userId, seeded.clientId)).toBeUndefined();
    },
    async grant(world, seeded) {
      for (const other of [world.a2, world.b])
        await expect(
          world.repos.oauthConsents.grant(other.id, seeded.userId, seeded.clientId, ["email"], world.clock.now()),
        ).rejects.toThrow();
    },
    async listOfUser(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.oauthConsents.listOfUser(other.id, seeded.userId)).toEqual([]);
    },
    async revoke(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.oauthConsents.revoke(other.id, seeded.userId, seeded.clientId)).toBe(false);
    },
  },
  async intact(world, seeded) {
    expect(await world.repos.oauthConsents.get(world.a.id, seeded.userId, seeded.clientId)).toEqual(seeded.consent);
    const payload = await world.db.dataSource.manager.findOneBy(OidcPayloadEntity, {
      model: "AccessToken",
      id: seeded.payloadId,
    });
    expect(payload?.accountId).toBe(seeded.userId);
  },
});
