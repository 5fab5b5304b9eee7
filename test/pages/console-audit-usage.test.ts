import { beforeAll, expect, it } from "vitest";
import type { AuthEvent } from "../../src/domain/usage.js";
import { describeInChromium } from "../helpers/browser.js";
import {
  consoleOrganization,
  recordAuditEvents,
  signIn,
  tableRows,
  type ConsoleOrganization,
} from "../helpers/console.js";
import { button, checkState, field, heading, see, usePagesWorld, WAIT } from "../helpers/pages.js";

// The audit log's filters and pages, and usage as charts: drawn by chart.js under the pages'
// CSP (the world fails a test on any CSP report), from usage rows written as the sign-in flows
// write them, with a table beside each chart holding the same numbers and a sentence summing
// it up.

describeInChromium("console: audit log and usage", () => {
  const world = usePagesWorld();
  let org: ConsoleOrganization;
  const DAY = 86_400_000;
  const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

  beforeAll(async () => {
    org = await consoleOrganization(world);
  });

  it("filters by user, type and time, and pages through the events", async () => {
    await recordAuditEvents(world, org, 27, { type: "user.updated", userId: "usr_audited" });
    const made = await org.api(org.admin, "POST", "/v1/api-keys", { project_id: org.project.id, label: "audited" });
    expect(made.status, JSON.stringify(made.body)).toBe(200);

    const { page } = await world.tab();
    await signIn(world, page, org.admin, { fragment: "#section=audit" });
    await heading(page, "Audit log").waitFor();
    await page.getByRole("cell", { name: "member.login.succeeded" }).first().waitFor();
    await field(page, "User id").fill("usr_audited");
    await button(page, "Show events").click();
    // The unfiltered list has a Next page too: the filtered one is there once the admin's own
    // sign-in, the newest event, has left the table.
    await page.getByRole("cell", { name: "member.login.succeeded" }).first().waitFor({ state: "detached" });
    await button(page, "Next page").waitFor();
    const first = await tableRows(page, "Audit log");
    expect(first).toHaveLength(25);
    expect(new Set(first.map((row) => `${row[1]} ${row[3]}`))).toEqual(new Set(["user.updated usr_audited"]));
    await checkState(page, "console-audit");
    await button(page, "Next page").click();
    await button(page, "Previous page").waitFor();
    expect(await tableRows(page, "Audit log")).toHaveLength(2);
    await button(page, "Previous page").click();
    await button(page, "Next page").waitFor();

    await field(page, "User id").fill("");
    await field(page, "Event type").selectOption("api_key.created");
    await button(page, "Show events").click();
    await page.getByRole("cell", { name: "api_key.created" }).first().waitFor();
    const keys = await tableRows(page, "Audit log");
    expect(keys.map((row) => row[1])).toEqual(["api_key.created"]);
    expect(keys[0][2]).toMatch(/^member mem_/);

    const tomorrow = new Date(world.clock.now().getTime() + DAY);
    await field(page, "From").fill(`${dayOf(tomorrow.getTime())}T00:00`);
    await button(page, "Show events").click();
    await see(page, "No events match.");
  });

  it("draws usage per day as charts with tables of the same numbers", async () => {
    const now = world.clock.now().getTime();
    const at = (daysAgo: number) => new Date(now - daysAgo * DAY);
    const event = (
      userId: string,
      kind: AuthEvent["kind"],
      method: AuthEvent["method"],
      daysAgo: number,
    ): AuthEvent => ({
      organizationId: org.organization.id,
      projectId: org.project.id,
      userId,
      kind,
      method,
      at: at(daysAgo),
    });
    await world.server.deps.db.transaction(async (repos) => {
      for (const e of [
        event("usr_a", "login", "password", 0),
        event("usr_b", "login", "otp", 0),
        event("usr_a", "login", "sso", 1),
        event("usr_c", "signup", "password", 1),
        event("usr_d", "login", "passkey", 3),
      ])
        await repos.authEvents.record(e);
    });
    await recordAuditEvents(world, org, 2, { type: "user.login.failed", userId: "usr_a" });

    const { page } = await world.tab();
    await signIn(world, page, org.developer, { fragment: "#section=usage" });
    await heading(page, "Usage").waitFor();
    await page.locator("#usage-tokens-table").waitFor();

    const byDay = async (caption: string) => {
      const rows = await tableRows(page, caption);
      expect(rows).toHaveLength(14);
      return Object.fromEntries(rows.map(([day, ...values]) => [day, values.map(Number)]));
    };
    const [today, yesterday, threeAgo] = [0, 1, 3].map((d) => dayOf(at(d).getTime()));
    const mau = await byDay("Active users");
    expect([mau[today], mau[yesterday], mau[threeAgo]]).toEqual([[2], [2], [1]]);
    // Columns: password, passwordless, SSO, passkey.
    const signIns = await byDay("Sign-ins by method");
    expect([signIns[today], signIns[yesterday], signIns[threeAgo]]).toEqual([
      [1, 1, 0, 0],
      [0, 0, 1, 0],
      [0, 0, 0, 1],
    ]);
    const failures = await byDay("Failed sign-ins");
    expect(failures[today]).toEqual([2]);
    const tokens = await byDay("Tokens issued");
    expect([tokens[today], tokens[yesterday], tokens[threeAgo]]).toEqual([[2], [2], [1]]);
    const total = (table: Record<string, number[]>) =>
      Object.values(table).reduce((sum, values) => sum + values.reduce((a, b) => a + b, 0), 0);
    expect(total(signIns)).toBe(4);
    await see(page, /^4 sign-ins from .*: 1 with a password, 1 passwordless, 1 with SSO, 1 with a passkey\.$/);
    await see(page, /^5 access tokens issued from /);

    // Each canvas was drawn on (chart.js ran under the CSP), and names its summary.
    for (const id of ["usage-mau", "usage-sign-ins", "usage-failures", "usage-tokens"]) {
      const canvas = page.locator(`#${id}-canvas`);
      expect(await canvas.getAttribute("aria-label")).toBeTruthy();
      const inked = await canvas.evaluate((c: any) => {
        const data: Uint8ClampedArray = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
        return n;
      });
      expect(inked, `${id} has pixels drawn`).toBeGreaterThan(100);
    }
    await checkState(page, "console-usage");

    await field(page, "Per").selectOption("month");
    await button(page, "Show usage").click();
    // Six months, the last from the 1st to today: the charts are drawn anew.
    await expect.poll(async () => (await tableRows(page, "Tokens issued")).length, { timeout: WAIT }).toBe(6);
    const months = await tableRows(page, "Tokens issued");
    expect(months[5][0]).toMatch(new RegExp(`^${dayOf(now).slice(0, 8)}01`));
    expect(months.reduce((sum, row) => sum + Number(row[1]), 0)).toBe(5);
  });
});
