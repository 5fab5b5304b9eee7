import { expect } from "vitest";
import { createSecretBox } from "../../../src/crypto/secret-box.js";
import { newSigningSecret } from "../../../src/outbound/standard-webhooks.js";
import { contract } from "./contract.js";

const secrets = createSecretBox(Buffer.alloc(32, 7));
const subscription = { eventTypes: ["user.updated"], auditTypes: ["user.updated"], allTypes: false };
const WORKER = "the delivery worker's, by the id of a delivery it claimed: it serves every project";

const OPERATOR =
  "the operator's CLI on the server's machine: names the organization of an id the operator gave, then acts inside it as that organization's administrator";

// Endpoints are managed by their organization for one of its projects: another organization's
// id reaches none of them, and an endpoint cannot name a project of another organization
// (composite foreign key).
export default contract({
  repository: "webhookEndpoints",
  async seed(world) {
    return world.repos.webhookEndpoints.create(
      world.one.id,
      world.a.id,
      { url: "https://hooks.example.com/a", subscription, enabled: true, secret: newSigningSecret() },
      secrets,
    );
  },
  checks: {
    async create(world) {
      const input = { url: "https://hooks.example.com/x", subscription, enabled: true, secret: newSigningSecret() };
      await expect(world.repos.webhookEndpoints.create(world.two.id, world.a.id, input, secrets)).rejects.toThrow();
    },
    async count(world) {
      expect(await world.repos.webhookEndpoints.count(world.b.id)).toBe(0);
    },
    async list(world, seeded) {
      const page = { limit: 100 };
      const ids = async (org: string, project: string) =>
        (await world.repos.webhookEndpoints.list(org, project, page)).map((e) => e.id);
      expect(await ids(world.two.id, world.a.id)).not.toContain(seeded.id);
      expect(await ids(world.one.id, world.a2.id)).not.toContain(seeded.id);
    },
    async get(world, seeded) {
      expect(await world.repos.webhookEndpoints.get(world.two.id, seeded.id)).toBeNull();
    },
    async lock(world, seeded) {
      expect(await world.db.transaction((repos) => repos.webhookEndpoints.lock(world.two.id, seeded.id))).toBeNull();
    },
    async update(world, seeded) {
      await world.repos.webhookEndpoints.update(world.two.id, seeded.id, {
        url: "https://evil.example.com",
        enabled: false,
      });
    },
    async rotateSecret(world, seeded) {
      await expect(
        world.repos.webhookEndpoints.rotateSecret(
          world.two.id,
          seeded.id,
          newSigningSecret(),
          world.clock.now(),
          secrets,
        ),
      ).rejects.toThrow();
    },
    async delete(world, seeded) {
      expect(await world.repos.webhookEndpoints.delete(world.two.id, seeded.id)).toBe(false);
    },
  },
  exempt: {
    signingState: WORKER,
    recordSuccess: WORKER,
    recordFailure: WORKER,
    syncAllTypes: "start-up's: every `*` endpoint of every project follows the catalog of the running version",
    organizationOf: OPERATOR,
  },
  async intact(world, seeded) {
    expect(await world.repos.webhookEndpoints.get(world.one.id, seeded.id)).toEqual(seeded);
  },
});
