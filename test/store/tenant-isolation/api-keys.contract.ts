import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { CreateApiKeyInput } from "../../../src/store/repositories/api-keys.js";
import { contract } from "./contract.js";

const keyFor = (projectId: string): CreateApiKeyInput => ({
  projectId,
  label: "contract",
  kind: "secret",
  keyHash: `key-hash-${randomUUID()}`,
  keyHint: "abcd",
  scopes: ["auth:read"],
  expiresAt: null,
});

// API keys are managed by their organization, for one of its projects: another organization's
// id lists, revokes and finds none, and a key cannot name a project of another organization
// (composite foreign key). findActive is the credential check: the key names its project.
export default contract({
  repository: "apiKeys",
  async seed(world) {
    const input = keyFor(world.a.id);
    const key = await world.repos.apiKeys.create(world.one.id, input);
    return { key, keyHash: input.keyHash };
  },
  checks: {
    async create(world) {
      await expect(world.repos.apiKeys.create(world.two.id, keyFor(world.a.id))).rejects.toThrow();
      await expect(world.repos.apiKeys.create(world.one.id, keyFor(world.b.id))).rejects.toThrow();
    },
    async list(world, seeded) {
      const page = { limit: 100 };
      expect((await world.repos.apiKeys.list(world.two.id, {}, page)).map((k) => k.id)).not.toContain(seeded.key.id);
      expect(
        (await world.repos.apiKeys.list(world.two.id, { projectId: world.a.id }, page)).map((k) => k.id),
      ).not.toContain(seeded.key.id);
      expect(
        (await world.repos.apiKeys.list(world.one.id, { projectId: world.a2.id }, page)).map((k) => k.id),
      ).not.toContain(seeded.key.id);
    },
    async revokeActive(world, seeded) {
      expect(await world.repos.apiKeys.revokeActive(world.two.id, seeded.key.id, world.clock.now())).toBe(false);
    },
    async projectOf(world, seeded) {
      expect(await world.repos.apiKeys.projectOf(world.two.id, seeded.key.id)).toBeUndefined();
    },
    async exists(world, seeded) {
      expect(await world.repos.apiKeys.exists(world.two.id, seeded.key.id)).toBe(false);
    },
  },
  exempt: { findActive: "the credential check of every Auth request: the key is the credential and names its project" },
  async intact(world, seeded) {
    const found = await world.repos.apiKeys.findActive(seeded.keyHash, world.clock.now());
    expect(found?.apiKey).toEqual(seeded.key);
    expect(found?.project.id).toBe(world.a.id);
  },
});
