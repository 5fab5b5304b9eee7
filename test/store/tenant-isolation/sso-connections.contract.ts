import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { createSecretBox } from "../../../src/crypto/secret-box.js";
import type { CreateSsoConnectionInput } from "../../../src/store/repositories/sso-connections.js";
import { contract } from "./contract.js";

const secrets = createSecretBox(Buffer.alloc(32, 9));

const connectionFor = (projectId: string): CreateSsoConnectionInput => ({
  projectId,
  name: `sso-${randomUUID()}`,
  provider: "oidc",
  issuer: "https://idp.example.com",
  endpoints: { authorizationUrl: "", tokenUrl: "", userinfoUrl: "" },
  claimMapping: {},
  hostedDomain: "",
  clientId: "client",
  clientSecret: "client-secret",
  scopes: ["openid", "email"],
  trustEmails: false,
  allowedTenants: [],
  teamId: "",
  keyId: "",
  privateKey: "",
  position: 0,
});

// SSO connections are managed by their organization for one of its projects and read by the
// project at sign-in: another organization's id or another project's id reaches none of them,
// and a connection cannot name a project of another organization (composite foreign key).
export default contract({
  repository: "ssoConnections",
  async seed(world) {
    return world.repos.ssoConnections.create(world.one.id, connectionFor(world.a.id), secrets);
  },
  checks: {
    async create(world) {
      await expect(
        world.repos.ssoConnections.create(world.two.id, connectionFor(world.a.id), secrets),
      ).rejects.toThrow();
    },
    async list(world, seeded) {
      const page = { limit: 100 };
      expect((await world.repos.ssoConnections.list(world.two.id, world.a.id, page)).map((c) => c.id)).not.toContain(
        seeded.id,
      );
      expect((await world.repos.ssoConnections.list(world.one.id, world.a2.id, page)).map((c) => c.id)).not.toContain(
        seeded.id,
      );
    },
    async listInButtonOrder(world, seeded) {
      expect(
        (await world.repos.ssoConnections.listInButtonOrder(world.two.id, world.a.id, 100)).map((c) => c.id),
      ).not.toContain(seeded.id);
      expect(
        (await world.repos.ssoConnections.listInButtonOrder(world.one.id, world.a2.id, 100)).map((c) => c.id),
      ).not.toContain(seeded.id);
    },
    async getForUpdate(world, seeded) {
      // It locks the row it reads, so it runs in a transaction, as UpdateSsoConnection's.
      expect(
        await world.db.transaction((repos) => repos.ssoConnections.getForUpdate(world.two.id, seeded.id)),
      ).toBeNull();
    },
    async update(world, seeded) {
      expect(
        await world.repos.ssoConnections.update(
          world.two.id,
          seeded.id,
          { name: "taken", clientSecret: "stolen" },
          secrets,
        ),
      ).toBeNull();
    },
    async get(world, seeded) {
      expect(await world.repos.ssoConnections.get(world.a2.id, seeded.id)).toBeNull();
      expect(await world.repos.ssoConnections.get(world.b.id, seeded.id)).toBeNull();
    },
    async getWithSecret(world, seeded) {
      expect(await world.repos.ssoConnections.getWithSecret(world.a2.id, seeded.id, secrets)).toBeNull();
      expect(await world.repos.ssoConnections.getWithSecret(world.b.id, seeded.id, secrets)).toBeNull();
    },
    async projectOf(world, seeded) {
      expect(await world.repos.ssoConnections.projectOf(world.two.id, seeded.id)).toBeUndefined();
    },
    async delete(world, seeded) {
      expect(await world.repos.ssoConnections.delete(world.two.id, seeded.id)).toBe(false);
    },
  },
  async intact(world, seeded) {
    expect(await world.repos.ssoConnections.getWithSecret(world.a.id, seeded.id, secrets)).toEqual({
      ...seeded,
      clientSecret: "client-secret",
      privateKey: "",
    });
  },
});
