import { expect } from "vitest";
import { newId } from "../../../src/crypto/ids.js";
import { contract } from "./contract.js";
import {
  expectSignedInUserIntact,
  organizationOf,
  seedSignedInUser,
  signInWrite,
  strangers,
} from "./signed-in-user.js";

// A sign-in names its user by (project, id): another project's sign-in cannot reach a user,
// its sessions (the cap) or its last_login_at, and a signup there is a user of its own.
export default contract({
  repository: "signIns",
  seed: seedSignedInUser,
  checks: {
    async record(world, s) {
      for (const p of strangers(world)) {
        // The cap of 1 would end the seeded session if the statement reached it.
        await expect(
          world.repos.signIns.record(p, signInWrite(world, s.userId, { projectId: p, max: 1 })),
        ).rejects.toThrow();
      }
    },
    async recordSignup(world, s) {
      for (const p of strangers(world)) {
        const id = newId("usr");
        const user = await world.repos.signIns.recordSignup(
          p,
          {
            id,
            organizationId: organizationOf(world, p),
            email: s.email,
            phone: s.phone,
            emailVerified: false,
            phoneVerified: false,
            passwordHash: null,
            metadata: {},
          },
          signInWrite(world, id, { projectId: p, max: 1 }),
        );
        expect(user).toMatchObject({ id, projectId: p, email: s.email });
      }
    },
    async recordSignupWithoutSession(world, s) {
      for (const p of strangers(world)) {
        const id = newId("usr");
        const user = await world.repos.signIns.recordSignupWithoutSession(
          p,
          {
            id,
            organizationId: organizationOf(world, p),
            email: s.email,
            phone: s.phone,
            emailVerified: false,
            phoneVerified: false,
            passwordHash: null,
            metadata: {},
          },
          { kind: "signup", method: "otp", at: world.clock.now() },
          signInWrite(world, id, { projectId: p }).audit,
        );
        expect(user).toMatchObject({ id, projectId: p, lastLoginAt: null });
      }
    },
  },
  intact: expectSignedInUserIntact,
});
