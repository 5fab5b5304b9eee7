import { describe, expect, it } from "vitest";
import { createTestClock } from "../helpers/clock.js";
import { eventually } from "../helpers/eventually.js";
import { auditApp, useAuditServer } from "./helpers.js";

const DAY_MS = 24 * 60 * 60 * 1000;

// Threat: personal data (addresses, agents) kept forever; or a sweep that deletes what is
// still within retention.
describe("audit: retention", () => {
  const clock = createTestClock();
  const box = useAuditServer({ AUDIT_RETENTION_DAYS: "30", AUDIT_SWEEP_INTERVAL_MS: "100" }, { clock });

  it("the periodic sweep deletes events older than AUDIT_RETENTION_DAYS by the service's clock, and only those", async () => {
    const app = await auditApp(box.server);
    const old = await app.signup();
    clock.advance(20 * DAY_MS);
    const recent = await app.signup();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await app.events({ user_id: old.body.user.id }, await app.admin())).toHaveLength(1);

    clock.advance(11 * DAY_MS);
    // Management tokens live 12 hours: sign in again on the moved clock.
    const headers = await app.admin();
    await eventually(
      "the old signup swept",
      async () => (await app.events({ user_id: old.body.user.id }, headers)).length === 0,
    );
    expect(await app.events({ user_id: recent.body.user.id }, headers)).toHaveLength(1);
  });
});
