import { expect } from "vitest";
import { contract } from "./contract.js";

// Organizations are the account side's tenants themselves: reading one by id is how a member's
// credential, already bound to it, reaches it (credentials.ts), so the checks here are that an
// id names exactly one organization and a new one shares nothing with the others.
export default contract({
  repository: "organizations",
  async seed(world) {
    return { id: world.one.id, name: world.one.name };
  },
  checks: {
    async get(world, seeded) {
      expect((await world.repos.organizations.get(world.two.id))?.name).not.toBe(seeded.name);
    },
    async create(world) {
      const created = await world.repos.organizations.create({ name: "Three" });
      expect([world.one.id, world.two.id]).not.toContain(created.id);
    },
    async setRequireMemberMfa(world) {
      await world.repos.organizations.setRequireMemberMfa(world.two.id, true);
      expect((await world.repos.organizations.get(world.one.id))?.requireMemberMfa).toBe(false);
      await world.repos.organizations.setRequireMemberMfa(world.two.id, false);
    },
  },
  exempt: {
    listAll: "the operator's CLI lists every organization: no tenant's credential reaches it",
    requiresMemberMfaOf:
      "the policy of the organizations of the identity the caller has just proved, never of one it names",
  },
  async intact(world, seeded) {
    expect((await world.repos.organizations.get(seeded.id))?.name).toBe(seeded.name);
  },
});
