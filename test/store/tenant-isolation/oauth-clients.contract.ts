import { expect } from "vitest";
import { newId } from "../../../src/crypto/ids.js";
import type { StoredOAuthClient } from "../../../src/domain/oauth-clients.js";
import type { TenantWorld } from "./contract.js";
import { contract } from "./contract.js";

function clientRow(world: TenantWorld, organizationId: string, projectId: string): StoredOAuthClient {
  const now = world.clock.now();
  return {
    id: newId("oac"),
    organizationId,
    projectId,
    name: "Shop app",
    type: "confidential",
    secretHash: "a".repeat(64),
    secretHint: "gcs_abcd",
    redirectUris: ["https://app.example.com/cb"],
    postLogoutRedirectUris: [],
    grantTypes: ["authorization_code", "refresh_token"],
    scopes: ["openid", "email"],
    firstParty: false,
    logoUri: "",
    allowMissingPkce: false,
    createdAt: now,
    updatedAt: now,
  };
}

const OPERATOR =
  "the operator's CLI on the server's machine: names the organization of an id the operator gave, then acts inside it as that organization's administrator";

// OAuth clients are managed by their organization for one of its projects, and looked up by
// the engine of the project whose issuer serves the request: another organization's id reaches
// none of them, another project's engine finds none, and a client cannot name a project of
// another organization (composite foreign key).
export default contract({
  repository: "oauthClients",
  async seed(world) {
    const row = clientRow(world, world.one.id, world.a.id);
    await world.repos.oauthClients.create(row);
    return row;
  },
  checks: {
    async create(world) {
      await expect(world.repos.oauthClients.create(clientRow(world, world.two.id, world.a.id))).rejects.toThrow();
    },
    async list(world, seeded) {
      const page = { limit: 100 };
      const ids = async (org: string, project: string) =>
        (await world.repos.oauthClients.list(org, project, page)).map((c) => c.id);
      expect(await ids(world.two.id, world.a.id)).not.toContain(seeded.id);
      expect(await ids(world.one.id, world.a2.id)).not.toContain(seeded.id);
    },
    async get(world, seeded) {
      expect(await world.repos.oauthClients.get(world.two.id, seeded.id)).toBeUndefined();
    },
    async lock(world, seeded) {
      expect(await world.db.transaction((repos) => repos.oauthClients.lock(world.two.id, seeded.id))).toBeUndefined();
    },
    async countInProject(world) {
      expect(await world.repos.oauthClients.countInProject(world.b.id)).toBe(0);
    },
    async update(world, seeded) {
      expect(
        await world.repos.oauthClients.update(world.two.id, seeded.id, {
          name: "Stolen",
          redirectUris: ["https://evil.example.com/cb"],
          firstParty: true,
        }),
      ).toBeUndefined();
    },
    async setSecret(world, seeded) {
      expect(
        await world.repos.oauthClients.setSecret(world.two.id, seeded.id, "b".repeat(64), "gcs_evil"),
      ).toBeUndefined();
    },
    async delete(world, seeded) {
      expect(await world.repos.oauthClients.delete(world.two.id, seeded.id)).toBe(false);
    },
    async findForProvider(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.oauthClients.findForProvider(other.id, seeded.id)).toBeUndefined();
    },
  },
  exempt: { organizationOf: OPERATOR },
  async intact(world, seeded) {
    const { secretHash: _secretHash, ...shown } = seeded;
    expect(await world.repos.oauthClients.get(world.one.id, seeded.id)).toEqual(shown);
    expect(await world.repos.oauthClients.findForProvider(world.a.id, seeded.id)).toEqual(seeded);
  },
});
