import { expect } from "vitest";
import { createSecretBox } from "../../../src/crypto/secret-box.js";
import { newSigningSecret } from "../../../src/outbound/standard-webhooks.js";
import { contract } from "./contract.js";
import { seedSignedInUser, strangers } from "./signed-in-user.js";

const secrets = createSecretBox(Buffer.alloc(32, 7));
const WORKER = "the delivery worker's, by the id of a delivery it claimed: it serves every project";
const origin = { actor: { type: "api_key" as const, id: "key_contract" }, ip: "", userAgent: "" };

const OPERATOR =
  "the operator's CLI on the server's machine: names the organization of an id the operator gave, then acts inside it as that organization's administrator";

// A project's deliveries are read through its organization's endpoint; an event names its
// project, and a stranger's calls neither list, replay nor strip the user from them.
export default contract({
  repository: "webhookDeliveries",
  async seed(world) {
    const user = await seedSignedInUser(world);
    const endpoint = await world.repos.webhookEndpoints.create(
      world.one.id,
      world.a.id,
      {
        url: "https://hooks.example.com/a",
        subscription: { eventTypes: ["user.updated"], auditTypes: ["user.updated"], allTypes: false },
        enabled: true,
        secret: newSigningSecret(),
      },
      secrets,
    );
    // The audit row's trigger writes the event (with the user's snapshot) and its delivery.
    await world.repos.auditEvents.record({
      type: "user.updated",
      organizationId: world.one.id,
      projectId: world.a.id,
      userId: user.userId,
      origin,
    });
    const [delivery] = await world.repos.webhookDeliveries.list(world.a.id, endpoint.id, undefined, { limit: 10 });
    expect(delivery).toBeDefined();
    return { ...user, endpointId: endpoint.id, delivery: delivery };
  },
  checks: {
    async list(world, s) {
      for (const p of strangers(world))
        expect(await world.repos.webhookDeliveries.list(p, s.endpointId, undefined, { limit: 10 })).toEqual([]);
    },
    async get(world, s) {
      expect(await world.repos.webhookDeliveries.get(world.two.id, s.delivery.id)).toBeNull();
    },
    async replay(world, s) {
      expect(await world.repos.webhookDeliveries.replay(world.two.id, s.delivery.id)).toBe(false);
    },
    async enqueueTest(world, s) {
      expect(await world.repos.webhookDeliveries.enqueueTest(world.two.id, s.endpointId)).toBeNull();
    },
    async enqueueUserDeleted(world, s) {
      // Another project's deletion of an id reaches that project's endpoints only.
      for (const p of strangers(world))
        await world.repos.webhookDeliveries.enqueueUserDeleted(world.two.id, p, s.userId, origin.actor);
    },
    async forgetUser(world, s) {
      for (const p of strangers(world)) await world.repos.webhookDeliveries.forgetUser(p, s.userId);
    },
  },
  exempt: {
    claimDue: WORKER,
    recordAttempt: WORKER,
    abandon: WORKER,
    deleteOlderThan: "the retention sweep's: events past the audit retention of every project",
    organizationOf: OPERATOR,
  },
  async intact(world, s) {
    const listed = await world.repos.webhookDeliveries.list(world.a.id, s.endpointId, undefined, { limit: 10 });
    expect(listed).toEqual([s.delivery]);
    const event = await world.db.dataSource.query(`SELECT user_snapshot FROM webhook_events WHERE id = $1`, [
      s.delivery.eventId,
    ]);
    expect(event[0].user_snapshot).toMatchObject({ id: s.userId });
  },
});
