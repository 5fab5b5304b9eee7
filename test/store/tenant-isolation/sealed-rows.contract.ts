import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { contract } from "./contract.js";

// The start-up check (src/crypto/secret-check.ts) opens one sealed secret of the database,
// whoever's it is: it reads across tenants by design and answers no tenant's request.
export default contract({
  repository: "sealedRows",
  async seed(world) {
    return world.repos.signingKeys.create(world.one.id, {
      projectId: world.a.id,
      kid: `kid-${randomUUID()}`,
      algorithm: "ES256",
      publicJwk: { kty: "EC", crv: "P-256", x: "x", y: "y" },
      privateJwkSealed: "sealed",
    });
  },
  checks: {},
  exempt: {
    sample: "at start, before any request: one sealed secret of any tenant, to open with the key given",
  },
  async intact(world) {
    expect((await world.repos.sealedRows.sample())?.table).toBe("project_signing_keys");
  },
});
