import { expect } from "vitest";
import { contract } from "./contract.js";

const input = {
  name: "Elsewhere",
  tokenExpiry: 3600,
  refreshTokenExpiry: 2592000,
  mfaRequired: false,
  sendVerification: false,
  allowedOrigins: ["https://elsewhere.example.com"],
  redirectUrl: "https://elsewhere.example.com/callback",
};

// Projects are named by their organization on the Account side: another organization's id
// reads, locks, lists, changes and deletes none of them. The Authentication side reaches a
// project through its API key or public login id instead (getByLoginId, getByIdForFlow).
export default contract({
  repository: "projects",
  async seed(world) {
    return (await world.repos.projects.get(world.one.id, world.a.id))!;
  },
  checks: {
    async create(world, seeded) {
      const created = await world.repos.projects.create(world.two.id, input);
      expect(created.organizationId).toBe(world.two.id);
      expect(created.loginId).not.toBe(seeded.loginId);
    },
    async get(world, seeded) {
      expect(await world.repos.projects.get(world.two.id, seeded.id)).toBeNull();
    },
    async getForShare(world, seeded) {
      expect(await world.db.transaction((repos) => repos.projects.getForShare(world.two.id, seeded.id))).toBeNull();
    },
    async list(world, seeded) {
      const ids = (await world.repos.projects.list(world.two.id, { limit: 100 })).map((p) => p.id);
      expect(ids).not.toContain(seeded.id);
    },
    async update(world, seeded) {
      expect(
        await world.repos.projects.update(world.two.id, seeded.id, { name: "Taken", rateLimits: { failuresPerIp: 1 } }),
      ).toBeNull();
    },
    async delete(world, seeded) {
      expect(await world.repos.projects.delete(world.two.id, seeded.id)).toBe(false);
    },
  },
  exempt: {
    getByIdForFlow:
      "a row that already names its project (the SSO callback's flow) reads it; no credential names a tenant yet",
    getByLoginId: "the public login id is how the Authentication side finds its tenant (JWKS, the browser SSO entry)",
  },
  async intact(world, seeded) {
    expect(await world.repos.projects.get(world.one.id, seeded.id)).toEqual(seeded);
  },
});
