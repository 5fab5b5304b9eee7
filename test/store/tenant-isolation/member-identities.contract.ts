import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { contract } from "./contract.js";

// Identities are global (an email signs in first, then chooses among its organizations): what an
// organization may see of one goes through its membership. The one method that names an
// organization answers only for a membership of that organization.
export default contract({
  repository: "memberIdentities",
  async seed(world) {
    const identity = await world.repos.memberIdentities.create({
      email: `idn-${randomUUID()}@example.com`,
      passwordHash: "seeded-hash",
    });
    const member = await world.repos.members.create(world.one.id, { identity, role: "developer" });
    return { identity, member };
  },
  checks: {
    async credentialsOfMember(world, seeded) {
      expect(await world.repos.memberIdentities.credentialsOfMember(world.two.id, seeded.member.id)).toBeNull();
    },
  },
  exempt: {
    create: "makes a new global identity; no organization's rows",
    findCredentialsByEmail: "sign-in by email, before any organization is chosen (Login)",
    findByEmail: "the global identity of an email (invitations, sign-up of an organization)",
    lockPasswordHash: "the identity the caller has just proved (its id comes from its own credentials)",
    updatePasswordHash: "the identity the caller has just proved (its id comes from its own credentials or reset link)",
    rehashPassword: "the identity that has just signed in, and only while its old hash is stored",
  },
  async intact(world, seeded) {
    const found = await world.repos.memberIdentities.credentialsOfMember(world.one.id, seeded.member.id);
    expect(found).toEqual({ identity: seeded.identity, passwordHash: "seeded-hash" });
  },
});
