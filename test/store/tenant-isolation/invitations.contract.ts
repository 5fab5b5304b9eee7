import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { contract } from "./contract.js";

const HOUR = 3_600_000;

// An invitation is pending in one organization: inviting the same email elsewhere is another
// invitation and leaves this link working. The link itself is the invitee's only credential.
export default contract({
  repository: "invitations",
  async seed(world) {
    const email = `inv-${randomUUID()}@example.com`;
    const tokenHash = `inv-hash-${randomUUID()}`;
    const invitation = await world.repos.invitations.replacePending(world.one.id, {
      email,
      role: "developer",
      tokenHash,
      invitedBy: null,
      expiresAt: new Date(world.clock.now().getTime() + HOUR),
    });
    return { email, tokenHash, invitation };
  },
  checks: {
    async listPending(world, seeded) {
      const ids = (await world.repos.invitations.listPending(world.two.id, world.clock.now(), { limit: 100 })).map(
        (v) => v.id,
      );
      expect(ids).not.toContain(seeded.invitation.id);
    },
    async replacePending(world, seeded) {
      const elsewhere = await world.repos.invitations.replacePending(world.two.id, {
        email: seeded.email,
        role: "admin",
        tokenHash: `inv-hash-${randomUUID()}`,
        invitedBy: null,
        expiresAt: new Date(world.clock.now().getTime() + HOUR),
      });
      expect(elsewhere.organizationId).toBe(world.two.id);
      expect(elsewhere.id).not.toBe(seeded.invitation.id);
    },
  },
  exempt: {
    findPending: "the invitee's link is the credential; the row names its organization",
    consume: "the invitee's link is the credential; the row names its organization",
  },
  async intact(world, seeded) {
    expect(await world.repos.invitations.findPending(seeded.tokenHash, world.clock.now())).toEqual(seeded.invitation);
  },
});
