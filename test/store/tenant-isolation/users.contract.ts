import { expect } from "vitest";
import { contract } from "./contract.js";
import { expectSignedInUserIntact, seedSignedInUser, strangers } from "./signed-in-user.js";

// A user's id, email and phone number name it in its own project only.
export default contract({
  repository: "users",
  seed: seedSignedInUser,
  checks: {
    async get(world, s) {
      for (const p of strangers(world)) expect(await world.repos.users.get(p, s.userId)).toBeNull();
    },
    async findCredentials(world, s) {
      for (const p of strangers(world)) expect(await world.repos.users.findCredentials(p, s.email)).toBeNull();
    },
    async findByPhone(world, s) {
      for (const p of strangers(world)) expect(await world.repos.users.findByPhone(p, s.phone)).toBeNull();
    },
    async recipientAt(world, s) {
      expect(await world.repos.users.recipientAt(world.a.id, s.email.toUpperCase())).toEqual({
        email: s.email,
        locale: "",
      });
      for (const p of strangers(world)) expect(await world.repos.users.recipientAt(p, s.email)).toBeNull();
    },
    async emailTaken(world, s) {
      for (const p of strangers(world)) expect(await world.repos.users.emailTaken(p, s.email)).toBe(false);
    },
    async passwordHash(world, s) {
      for (const p of strangers(world)) expect(await world.repos.users.passwordHash(p, s.userId)).toBeNull();
    },
    async update(world, s) {
      for (const p of strangers(world)) {
        expect(
          await world.repos.users.update(p, s.userId, {
            disabled: true,
            metadata: {},
            passwordHash: null,
            email: `x.${s.email}`,
          }),
        ).toBeNull();
      }
    },
    async importMany(world, s) {
      const origin = { actor: { type: "operator" as const, id: "contract" }, ip: "", userAgent: "" };
      const same = {
        id: s.userId,
        email: s.email,
        phone: s.phone,
        emailVerified: false,
        phoneVerified: false,
        passwordHash: null,
        metadata: {},
        appMetadata: {},
        locale: "",
        auditDetails: {},
      };
      // The seeded id is taken (ids are global), so nothing is written; nor is the email reported
      // as taken, since another project's users are not this project's.
      expect(await world.repos.users.importMany(world.a2.id, world.one.id, [same], origin)).toEqual([
        { id: s.userId, inserted: false, emailTaken: false },
      ]);
      expect(await world.repos.users.importMany(world.b.id, world.two.id, [same], origin)).toEqual([
        { id: s.userId, inserted: false, emailTaken: false },
      ]);
    },
    async create(world, s) {
      // The seeded user's email in another project is another user: the seeded one is untouched
      // (intact), and a project of another organization cannot be named (composite foreign key).
      const made = await world.repos.users.create(world.a2.id, {
        organizationId: world.one.id,
        email: s.email,
        emailVerified: false,
        passwordHash: null,
        metadata: {},
        appMetadata: {},
      });
      expect(made.id).not.toBe(s.userId);
      await world.repos.users.delete(world.a2.id, made.id);
      await expect(
        world.repos.users.create(world.a.id, {
          organizationId: world.two.id,
          email: `other.${s.email}`,
          emailVerified: false,
          passwordHash: null,
          metadata: {},
          appMetadata: {},
        }),
      ).rejects.toThrow();
    },
    async delete(world, s) {
      for (const p of strangers(world)) expect(await world.repos.users.delete(p, s.userId)).toBe(false);
    },
    async list(world, s) {
      for (const p of strangers(world)) {
        expect((await world.repos.users.list(p, { limit: 100 })).map((u) => u.id)).not.toContain(s.userId);
        expect(await world.repos.users.list(p, { limit: 100 }, s.email)).toEqual([]);
      }
    },
  },
  intact: expectSignedInUserIntact,
});
