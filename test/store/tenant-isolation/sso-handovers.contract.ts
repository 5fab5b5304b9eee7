import { expect } from "vitest";
import type { SsoHandover } from "../../../src/domain/sso.js";
import { contract } from "./contract.js";
import { seedSsoConnection, unique } from "./seed-rows.js";

// A handover code is traded only by the project it was issued for.
export default contract({
  repository: "ssoHandovers",
  async seed(world) {
    const codeHash = unique("code");
    const handover: SsoHandover = {
      connectionId: await seedSsoConnection(world, world.a),
      codeChallenge: "challenge",
      issuer: "https://idp.example.com",
      subject: unique("sub"),
      email: "person@example.com",
      newUserMetadataSealed: null,
      expiresAt: new Date(world.clock.now().getTime() + 60_000),
    };
    await world.repos.ssoHandovers.create(world.a.id, codeHash, handover, world.clock.now());
    return { codeHash, handover };
  },
  checks: {
    async create(world, seeded) {
      // The code is the primary key: it cannot be issued again elsewhere.
      for (const other of [world.a2, world.b])
        await expect(
          world.repos.ssoHandovers.create(other.id, seeded.codeHash, seeded.handover, world.clock.now()),
        ).rejects.toThrow();
    },
    async consume(world, seeded) {
      for (const other of [world.a2, world.b])
        expect(await world.repos.ssoHandovers.consume(other.id, seeded.codeHash, world.clock.now())).toBeNull();
    },
  },
  async intact(world, seeded) {
    expect(await world.repos.ssoHandovers.consume(world.a.id, seeded.codeHash, world.clock.now())).toEqual(
      seeded.handover,
    );
  },
});
