import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { CreateSigningKeyInput } from "../../../src/store/repositories/signing-keys.js";
import { contract } from "./contract.js";
import type { TenantWorld } from "./contract.js";

const keyFor = (projectId: string): CreateSigningKeyInput => ({
  projectId,
  kid: `kid-${randomUUID()}`,
  algorithm: "ES256",
  publicJwk: { kty: "EC", crv: "P-256", x: "x", y: "y" },
  privateJwkSealed: "sealed",
});

const publicOf = async (world: TenantWorld, projectId: string) =>
  (await world.repos.signingKeys.listPublic(projectId)).map((k) => k.kid);

// Signing keys are written by the organization, for one of its projects, and read by the
// project: another project's id neither sees nor retires them, and a key cannot name a project
// of another organization (composite foreign key).
export default contract({
  repository: "signingKeys",
  async seed(world) {
    return world.repos.signingKeys.create(world.one.id, keyFor(world.a.id));
  },
  checks: {
    async create(world) {
      await expect(world.repos.signingKeys.create(world.two.id, keyFor(world.a.id))).rejects.toThrow();
    },
    async active(world, seeded) {
      for (const project of [world.a2, world.b]) {
        expect((await world.repos.signingKeys.active(project.id))?.kid).not.toBe(seeded.kid);
      }
    },
    async listPublic(world, seeded) {
      for (const project of [world.a2, world.b]) {
        expect(await publicOf(world, project.id)).not.toContain(seeded.kid);
        expect((await world.repos.signingKeys.listPublic(project.id, new Date(0))).map((k) => k.kid)).not.toContain(
          seeded.kid,
        );
      }
    },
    async retire(world) {
      for (const project of [world.a2, world.b]) {
        await world.db.transaction((repos) => repos.signingKeys.retire(project.id, world.clock.now()));
      }
    },
  },
  async intact(world, seeded) {
    const [mine] = (await world.repos.signingKeys.listPublic(world.a.id)).filter((k) => k.kid === seeded.kid);
    expect(mine).toEqual(seeded);
  },
});
