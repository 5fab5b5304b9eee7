/// <reference types="vite/client" />
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestClock } from "../helpers/clock.js";
import { openTestDatabase } from "../helpers/database.js";
import type { TenantContract, TenantWorld } from "./tenant-isolation/contract.js";

// The cross-tenant contract: every repository that holds a tenant's rows proves, method by
// method, that another tenant's identifiers reach nothing (tenant-isolation/contract.ts). Each
// repository's part is a *.contract.ts file beside this one, found here by name.
const modules = import.meta.glob<{ default: TenantContract }>("./tenant-isolation/*.contract.ts", { eager: true });
const contracts = Object.values(modules).map((m) => m.default);

const projectInput = (name: string) => ({
  name,
  description: "",
  tokenExpiry: 3600,
  refreshTokenExpiry: 2592000,
  mfaRequired: false,
  sendVerification: false,
  allowedOrigins: ["https://app.example.com"],
  redirectUrl: "https://app.example.com/callback",
});

let opened: Awaited<ReturnType<typeof openTestDatabase>>;
const world = {} as TenantWorld;

beforeAll(async () => {
  world.clock = createTestClock();
  opened = await openTestDatabase(world.clock);
  world.db = opened.db;
  world.repos = world.db.repos;
  world.one = await world.repos.organizations.create({ name: "One" });
  world.two = await world.repos.organizations.create({ name: "Two" });
  world.a = await world.repos.projects.create(world.one.id, projectInput("A"));
  world.a2 = await world.repos.projects.create(world.one.id, projectInput("A2"));
  world.b = await world.repos.projects.create(world.two.id, projectInput("B"));
});

afterAll(async () => {
  await opened?.close();
});

it("has a part for every repository", () => {
  // The repositories, not the transaction's afterCommit beside them.
  const repositories = Object.keys(world.repos)
    .filter((key) => typeof world.repos[key as keyof typeof world.repos] === "object")
    .sort();
  expect(contracts.map((c) => c.repository).sort()).toEqual(repositories);
});

for (const c of contracts) {
  describe(`${c.repository} keeps each tenant's rows to itself`, () => {
    it("checks or exempts every method", () => {
      const methods = Object.keys(world.repos[c.repository]).sort();
      const covered = [...Object.keys(c.checks), ...Object.keys(c.exempt ?? {})].sort();
      expect(covered).toEqual(methods);
    });

    for (const [method, check] of Object.entries<(w: TenantWorld, s: unknown) => Promise<void>>(c.checks)) {
      it(`${method} reaches no other tenant's rows`, async () => {
        const seeded = await c.seed(world);
        await check(world, seeded);
        await c.intact(world, seeded);
      });
    }
  });
}
