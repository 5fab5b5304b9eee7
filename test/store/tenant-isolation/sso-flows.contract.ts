import { expect } from "vitest";
import type { SsoFlow } from "../../../src/domain/sso.js";
import { contract } from "./contract.js";
import { seedSsoConnection, unique } from "./seed-rows.js";

// A flow is stored in the project that started it, whatever the flow object says.
export default contract({
  repository: "ssoFlows",
  async seed(world) {
    const connectionId = await seedSsoConnection(world, world.a);
    const stateHash = unique("state");
    const flow: SsoFlow = {
      id: unique("ssof"),
      projectId: world.a.id,
      connectionId,
      nonceSealed: "nonce",
      verifierSealed: "verifier",
      redirectUrl: "https://app.example.com/callback",
      codeChallenge: null,
      expiresAt: new Date(world.clock.now().getTime() + 600_000),
    };
    await world.repos.ssoFlows.create(world.a.id, stateHash, flow, world.clock.now());
    return { stateHash, flow };
  },
  checks: {
    async create(world, seeded) {
      for (const other of [world.a2, world.b]) {
        const state = unique("state");
        await world.repos.ssoFlows.create(other.id, state, { ...seeded.flow, id: unique("ssof") }, world.clock.now());
        expect((await world.repos.ssoFlows.consume(state, world.clock.now()))?.projectId).toBe(other.id);
      }
    },
  },
  exempt: {
    consume:
      "the callback knows nothing but the state (256 random bits, the credential itself); the flow it spends names its project, which the callback then uses",
  },
  async intact(world, seeded) {
    expect(await world.repos.ssoFlows.consume(seeded.stateHash, world.clock.now())).toEqual(seeded.flow);
  },
});
