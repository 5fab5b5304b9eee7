import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Project } from "../../src/domain/account.js";
import type { AuthEvent } from "../../src/domain/usage.js";
import { accountFixture, expectError, type AccountFixture } from "../helpers/account.js";
import { connectReason, grpcCall, grpcClient, type HttpAnswer } from "../helpers/clients.js";
import { seedProject } from "../helpers/seed.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { injectConnect } from "../helpers/inject.js";

// Events are written through repos.authEvents.record, the write side the Authentication flows
// call. Threats: counting another organization's events, and miscounting what is billed.

const at = (iso: string) => new Date(iso);
const day = (d: Date) => d.toISOString().slice(0, 10);

interface Case {
  name: string;
  run(): Promise<HttpAnswer>;
  check(answer: HttpAnswer): void;
}

const fails = (status: number, reason: string) => (answer: HttpAnswer) => expectError(answer, status, reason);
const violates = (field: string) => (answer: HttpAnswer) => {
  expectError(answer, 400, "VALIDATION_FAILED");
  expect(answer.body.violations.map((v: { field: string }) => v.field)).toEqual([field]);
};
const counts = (period: { from: string; to: string }, c: Partial<Record<string, number>>) => ({
  period,
  mau: 0,
  total_logins: 0,
  tokens_issued: 0,
  passwordless_logins: 0,
  sso_logins: 0,
  passkey_logins: 0,
  ...c,
});

describe("GetUsageMetrics", () => {
  let server: TestServer;
  let f: AccountFixture;
  let projectA: Project;
  let projectB: Project;
  let deletedProject: Project;
  let outsiderProject: Project;
  const MARCH = { from: "2025-03-01", to: "2025-03-31" };
  const usage = (query: string, headers = f.admin.headers) => f.rest("GET", `/v1/usage${query}`, headers);

  beforeAll(async () => {
    server = await sharedTestServer();
    f = await accountFixture(server);
    const deps = server.deps;
    projectA = await seedProject(deps, f.organization);
    projectB = await seedProject(deps, f.organization);
    deletedProject = await seedProject(deps, f.organization);
    outsiderProject = await seedProject(deps, f.outsider.organization);
    const org = f.organization.id;
    const other = f.outsider.organization.id;
    const a = (
      userId: string,
      kind: AuthEvent["kind"],
      method: AuthEvent["method"],
      when: string,
      extra: Partial<AuthEvent> = {},
    ): AuthEvent => ({
      organizationId: org,
      projectId: projectA.id,
      userId,
      kind,
      method,
      at: at(when),
      ...extra,
    });
    const events: AuthEvent[] = [
      // Project A, March 2025: both edge instants of the period are in.
      a("usr_1", "signup", "password", "2025-03-01T00:00:00.000Z"),
      a("usr_1", "login", "password", "2025-03-05T10:00:00Z"),
      a("usr_2", "login", "otp", "2025-03-10T10:00:00Z"),
      a("usr_3", "login", "magic_link", "2025-03-11T10:00:00Z"),
      a("usr_4", "login", "sso", "2025-03-12T10:00:00Z"),
      a("usr_5", "login", "mfa", "2025-03-13T10:00:00Z"),
      a("usr_2", "refresh", "refresh", "2025-03-14T10:00:00Z"),
      a("usr_2", "refresh", "refresh", "2025-03-14T11:00:00Z"),
      // Only refreshed: a token, but not an active user by the counting rules.
      a("usr_6", "refresh", "refresh", "2025-03-15T10:00:00Z"),
      // Signed up through SSO into an MFA enrollment challenge: active, no token, no login.
      a("usr_7", "signup", "sso", "2025-03-31T23:59:59.999Z", { tokensIssued: 0 }),
      // Just outside the period on each side.
      a("usr_8", "login", "password", "2025-02-28T23:59:59.999Z"),
      a("usr_8", "login", "password", "2025-04-01T00:00:00.000Z"),
      // Project B: one user twice.
      a("usr_9", "login", "password", "2025-03-20T10:00:00Z", { projectId: projectB.id }),
      a("usr_9", "login", "password", "2025-03-21T10:00:00Z", { projectId: projectB.id }),
      // A project deleted since: its events remain the organization's usage.
      a("usr_10", "login", "otp", "2025-03-22T10:00:00Z", { projectId: deletedProject.id }),
      // Another organization, including a row naming our project: never ours.
      a("usr_20", "login", "sso", "2025-03-10T10:00:00Z", { organizationId: other, projectId: outsiderProject.id }),
      a("usr_21", "login", "otp", "2025-03-11T10:00:00Z", { organizationId: other, projectId: outsiderProject.id }),
      a("usr_22", "login", "password", "2025-03-12T10:00:00Z", { organizationId: other, projectId: projectA.id }),
    ];
    await deps.db.transaction(async (repos) => {
      for (const event of events) await repos.authEvents.record(event);
    });
    await deps.db.repos.projects.delete(org, deletedProject.id);
  });
  afterAll(() => server?.stop());

  const cases: Case[] = [
    { name: "no credential", run: () => f.rest("GET", "/v1/usage", {}), check: fails(401, "MISSING_MANAGEMENT_TOKEN") },
    {
      name: "expired token",
      run: () => f.rest("GET", "/v1/usage", f.expiredHeaders),
      check: fails(401, "INVALID_MANAGEMENT_TOKEN"),
    },
    {
      name: "another organization's project",
      run: () => usage(`?project_id=${outsiderProject.id}&from=2025-03-01&to=2025-03-31`),
      check: fails(404, "PROJECT_NOT_FOUND"),
    },
    {
      name: "our project asked by another organization",
      run: () => usage(`?project_id=${projectA.id}`, f.outsider.headers),
      check: fails(404, "PROJECT_NOT_FOUND"),
    },
    {
      name: "project id of the wrong shape",
      run: () => usage("?project_id=proj_x"),
      check: fails(404, "PROJECT_NOT_FOUND"),
    },
    {
      name: "a deleted project can no longer be named",
      run: () => usage(`?project_id=${deletedProject.id}`),
      check: fails(404, "PROJECT_NOT_FOUND"),
    },
    { name: "from after to", run: () => usage("?from=2025-03-10&to=2025-03-09"), check: violates("from") },
    {
      name: "from in the future with to defaulting to today",
      run: () => usage("?from=2999-01-01"),
      check: violates("from"),
    },
    { name: "span over one year", run: () => usage("?from=2024-03-01&to=2025-03-01"), check: violates("from") },
    { name: "a date that does not exist", run: () => usage("?from=2025-02-30&to=2025-03-31"), check: violates("from") },
    { name: "not a date", run: () => usage("?to=March"), check: violates("to") },
    {
      name: "one project: every counter",
      run: () => usage(`?project_id=${projectA.id}&from=2025-03-01&to=2025-03-31`, f.developer.headers),
      check: (res) =>
        expect({ status: res.status, body: res.body }).toEqual({
          status: 200,
          // usr_1..5 and usr_7; five logins (otp, magic link passwordless; one sso); tokens
          // 1 + 5 + 3 refreshes + 0.
          body: counts(MARCH, { mau: 6, total_logins: 5, tokens_issued: 9, passwordless_logins: 2, sso_logins: 1 }),
        }),
    },
    {
      name: "another project: a user counted once",
      run: () => usage(`?project_id=${projectB.id}&from=2025-03-01&to=2025-03-31`),
      check: (res) => expect(res.body).toEqual(counts(MARCH, { mau: 1, total_logins: 2, tokens_issued: 2 })),
    },
    {
      name: "whole organization: every project, deleted ones included, no other organization's rows",
      run: () => usage("?from=2025-03-01&to=2025-03-31"),
      check: (res) =>
        expect(res.body).toEqual(
          counts(MARCH, { mau: 8, total_logins: 8, tokens_issued: 12, passwordless_logins: 3, sso_logins: 1 }),
        ),
    },
    {
      name: "the other organization sees only its own",
      run: () => usage("?from=2025-03-01&to=2025-03-31", f.outsider.headers),
      check: (res) =>
        expect(res.body).toEqual(
          counts(MARCH, { mau: 3, total_logins: 3, tokens_issued: 3, passwordless_logins: 1, sso_logins: 1 }),
        ),
    },
    {
      name: "one day, both ends included",
      run: () => usage(`?project_id=${projectA.id}&from=2025-03-31&to=2025-03-31`),
      check: (res) => expect(res.body).toEqual(counts({ from: "2025-03-31", to: "2025-03-31" }, { mau: 1 })),
    },
    {
      name: "to alone: from is the first of its month",
      run: () => usage(`?project_id=${projectA.id}&to=2025-03-10`),
      check: (res) =>
        expect(res.body).toEqual(
          counts(
            { from: "2025-03-01", to: "2025-03-10" },
            { mau: 2, total_logins: 2, tokens_issued: 3, passwordless_logins: 1 },
          ),
        ),
    },
    {
      name: "a span of just under a year is allowed",
      run: () => usage("?from=2024-04-01&to=2025-03-31"),
      check: (res) => expect(res.body.period).toEqual({ from: "2024-04-01", to: "2025-03-31" }),
    },
  ];
  for (const c of cases) it(c.name, async () => c.check(await c.run()));

  it("default period: the first of this month (UTC) to today, nothing before or after", async () => {
    const now = new Date();
    const firstOfMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const project = await seedProject(server.deps, f.organization);
    const event = (userId: string, when: Date): AuthEvent => ({
      organizationId: f.organization.id,
      projectId: project.id,
      userId,
      kind: "login",
      method: "password",
      at: when,
    });
    await server.deps.db.transaction(async (repos) => {
      await repos.authEvents.record(event("usr_a", firstOfMonth));
      await repos.authEvents.record(event("usr_b", now));
      await repos.authEvents.record(event("usr_c", new Date(firstOfMonth.getTime() - 1)));
      await repos.authEvents.record(
        event("usr_d", new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))),
      );
    });
    const res = await usage(`?project_id=${project.id}`);
    expect(res.body).toEqual(
      counts({ from: day(firstOfMonth), to: day(now) }, { mau: 2, total_logins: 2, tokens_issued: 2 }),
    );
  });

  it("over gRPC", async () => {
    const answer = await grpcCall(
      grpcClient(server.port, "account"),
      "GetUsageMetrics",
      { project_id: projectA.id, from: "2025-03-01", to: "2025-03-31" },
      f.admin.headers,
    );
    expect(answer.response).toEqual(
      counts(MARCH, { mau: 6, total_logins: 5, tokens_issued: 9, passwordless_logins: 2, sso_logins: 1 }),
    );
    const denied = await grpcCall(
      grpcClient(server.port, "account"),
      "GetUsageMetrics",
      { project_id: outsiderProject.id },
      f.admin.headers,
    );
    expect({ code: denied.error?.code, reason: denied.reason }).toEqual({ code: 5, reason: "PROJECT_NOT_FOUND" });
  });

  it("over Connect", async () => {
    const ok = await injectConnect(
      server.handle,
      "account",
      "GetUsageMetrics",
      { from: "2025-03-01", to: "2025-03-31" },
      f.admin.headers,
    );
    expect(ok.body).toEqual(
      counts(MARCH, { mau: 8, total_logins: 8, tokens_issued: 12, passwordless_logins: 3, sso_logins: 1 }),
    );
    const bad = await injectConnect(
      server.handle,
      "account",
      "GetUsageMetrics",
      { from: "2025-04-01", to: "2025-03-01" },
      f.admin.headers,
    );
    expect({ status: bad.status, reason: connectReason(bad.body) }).toEqual({
      status: 400,
      reason: "VALIDATION_FAILED",
    });
  });
});
