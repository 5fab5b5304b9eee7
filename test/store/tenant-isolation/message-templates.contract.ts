import { expect } from "vitest";
import { contract } from "./contract.js";

const source = { subject: "Your {{ project_name }} code", html: "<p>{{ code }}</p>", text: "Code: {{ code }}" };

// A project's message templates are set and read by its organization: a stranger neither reads,
// replaces nor removes them, and cannot set one on another's project (the upsert updates only a
// row of the same organization).
export default contract({
  repository: "messageTemplates",
  async seed(world) {
    return world.db.transaction((repos) =>
      repos.messageTemplates.set(world.one.id, world.a.id, "email_otp", "es", source),
    );
  },
  checks: {
    async set(world) {
      const evil = { subject: "x", html: "<p>{{ code }}</p>", text: "stolen {{ code }}" };
      await expect(
        world.db.transaction((repos) => repos.messageTemplates.set(world.two.id, world.a.id, "email_otp", "es", evil)),
      ).rejects.toThrow();
      await expect(
        world.db.transaction((repos) => repos.messageTemplates.set(world.two.id, world.a.id, "email_otp", "fr", evil)),
      ).rejects.toThrow();
    },
    async list(world) {
      expect(await world.repos.messageTemplates.list(world.two.id, world.a.id)).toEqual([]);
      expect(await world.repos.messageTemplates.list(world.one.id, world.a2.id)).toEqual([]);
    },
    async get(world) {
      expect(await world.repos.messageTemplates.get(world.two.id, world.a.id, "email_otp", "es")).toBeNull();
      expect(await world.repos.messageTemplates.get(world.one.id, world.a2.id, "email_otp", "es")).toBeNull();
    },
    async delete(world) {
      expect(await world.repos.messageTemplates.delete(world.two.id, world.a.id, "email_otp", "es")).toBe(false);
      expect(await world.repos.messageTemplates.delete(world.one.id, world.a2.id, "email_otp", "es")).toBe(false);
    },
  },
  async intact(world, seeded) {
    expect(await world.repos.messageTemplates.list(world.one.id, world.a.id)).toEqual([seeded]);
    expect(await world.repos.messageTemplates.list(world.one.id, world.b.id)).toEqual([]);
  },
});
