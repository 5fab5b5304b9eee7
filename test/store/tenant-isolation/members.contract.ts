import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { contract } from "./contract.js";

// Memberships belong to their organization: another organization's id finds, counts and
// removes none of them. listForIdentity serves Login, whose identity has just proved itself.
export default contract({
  repository: "members",
  async seed(world) {
    const email = `mem-${randomUUID()}@example.com`;
    const identity = await world.repos.memberIdentities.create({ email, passwordHash: "h" });
    const member = await world.repos.members.create(world.one.id, { identity, role: "admin" });
    return { email, identity, member };
  },
  checks: {
    async create(world, seeded) {
      const elsewhere = await world.repos.members.create(world.two.id, {
        identity: seeded.identity,
        role: "developer",
      });
      expect(elsewhere.organizationId).toBe(world.two.id);
      expect(elsewhere.id).not.toBe(seeded.member.id);
      expect((await world.repos.members.findByEmail(world.one.id, seeded.email))?.role).toBe("admin");
    },
    async findByEmail(world, seeded) {
      expect(await world.repos.members.findByEmail(world.two.id, seeded.email)).toBeNull();
    },
    async get(world, seeded) {
      expect(await world.repos.members.get(world.two.id, seeded.member.id)).toBeNull();
    },
    async list(world, seeded) {
      const ids = (await world.repos.members.list(world.two.id, { limit: 100 })).map((m) => m.id);
      expect(ids).not.toContain(seeded.member.id);
    },
    async lockAdmins(world) {
      // Organization two has no admin of its own; one's admins are not counted there.
      expect(await world.db.transaction((repos) => repos.members.lockAdmins(world.two.id))).toBe(0);
    },
    async remove(world, seeded) {
      expect(await world.repos.members.remove(world.two.id, seeded.member.id)).toBe(false);
    },
    async setRole(world, seeded) {
      expect(await world.repos.members.setRole(world.two.id, seeded.member.id, "developer")).toBe(false);
    },
  },
  exempt: { listForIdentity: "Login: the identity has just proved its password and lists its own memberships" },
  async intact(world, seeded) {
    expect(await world.repos.members.get(world.one.id, seeded.member.id)).toEqual(seeded.member);
  },
});
