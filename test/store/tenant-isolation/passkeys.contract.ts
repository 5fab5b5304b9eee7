import { expect } from "vitest";
import type { Passkey, PasskeyChallenge } from "../../../src/domain/passkeys.js";
import { contract } from "./contract.js";
import { seedUser, unique } from "./seed-rows.js";

// A passkey, its credential id and a ceremony's challenge, named from another project, are
// neither listed, read, locked, used, renamed, removed nor spent there; and neither a passkey
// nor a challenge can be made there for this project's user.
export default contract({
  repository: "passkeys",
  async seed(world) {
    const userId = await seedUser(world, world.a);
    const now = world.clock.now();
    const passkey: Passkey = {
      id: unique("pk"),
      userId,
      credentialId: unique("cred"),
      publicKey: "pQECAyYgASFYIA",
      counter: 3,
      transports: ["internal"],
      backupEligible: false,
      backedUp: false,
      aaguid: null,
      name: "Laptop",
      createdAt: now,
      lastUsedAt: null,
    };
    await world.repos.passkeys.create(world.a.id, passkey);
    const challenge: PasskeyChallenge = {
      id: unique("pkc"),
      userId,
      namedUserId: null,
      purpose: "sign_in",
      challengeHash: "hash",
      rpId: "app.example.com",
      origins: ["https://app.example.com"],
      mfaTokenHash: null,
      expiresAt: new Date(now.getTime() + 300_000),
    };
    await world.repos.passkeys.createChallenge(world.a.id, challenge, now);
    const email = `${userId}@example.com`;
    return { userId, passkey, challenge, email };
  },
  checks: {
    async listOfUser(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.passkeys.listOfUser(other.id, seeded.userId)).toEqual([]);
    },
    async ofEmail(world, seeded) {
      for (const other of [world.a2, world.b])
        // Nor does a made-up answer there copy this project's passkey's shape.
        expect(await world.repos.passkeys.ofEmail(other.id, seeded.email)).toEqual({
          userId: null,
          passkeys: [],
          template: [],
        });
    },
    async get(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.passkeys.get(other.id, seeded.passkey.id)).toBeNull();
    },
    async lockByCredential(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.passkeys.lockByCredential(other.id, seeded.passkey.credentialId)).toBeNull();
    },
    async create(world, seeded) {
      for (const other of [world.a2, world.b]) {
        // The passkey's user must be of the passkey's project (passkeys_user_fkey).
        await expect(
          world.repos.passkeys.create(other.id, { ...seeded.passkey, id: unique("pk"), credentialId: unique("cred") }),
        ).rejects.toThrow();
      }
    },
    async recordUse(world, seeded) {
      for (const other of [world.a2, world.b])
        await world.repos.passkeys.recordUse(other.id, seeded.passkey.id, {
          counter: 99,
          backedUp: true,
          at: world.clock.now(),
        });
    },
    async rename(world, seeded) {
      for (const other of [world.a2, world.b]) {
        expect(await world.repos.passkeys.rename(other.id, seeded.passkey.id, "stolen")).toBeNull();
        expect(await world.repos.passkeys.rename(other.id, seeded.passkey.id, "stolen", seeded.userId)).toBeNull();
      }
    },
    async remove(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.passkeys.remove(other.id, seeded.passkey, world.clock.now())).toBe(false);
    },
    async createChallenge(world, seeded) {
      for (const other of [world.a2, world.b]) {
        // The same id (the primary key), or this user's challenge in another project: refused.
        await expect(
          world.repos.passkeys.createChallenge(other.id, seeded.challenge, world.clock.now()),
        ).rejects.toThrow();
        await expect(
          world.repos.passkeys.createChallenge(other.id, { ...seeded.challenge, id: unique("pkc") }, world.clock.now()),
        ).rejects.toThrow();
      }
    },
    async spendChallenge(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(
          await world.repos.passkeys.spendChallenge(other.id, seeded.challenge.id, "sign_in", world.clock.now()),
        ).toBeNull();
    },
  },
  async intact(world, seeded) {
    expect(await world.repos.passkeys.get(world.a.id, seeded.passkey.id)).toEqual(seeded.passkey);
    expect(await world.repos.passkeys.ofEmail(world.a.id, seeded.email)).toEqual({
      userId: seeded.userId,
      passkeys: [{ credentialId: seeded.passkey.credentialId, transports: ["internal"] }],
      template: [{ idLength: Math.floor((seeded.passkey.credentialId.length * 3) / 4), transports: ["internal"] }],
    });
    expect(
      await world.repos.passkeys.spendChallenge(world.a.id, seeded.challenge.id, "sign_in", world.clock.now()),
    ).toEqual(seeded.challenge);
  },
});
