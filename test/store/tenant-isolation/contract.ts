import type { Organization, Project } from "../../../src/domain/account.js";
import type { Database, Repositories } from "../../../src/store/database.js";
import type { TestClock } from "../../helpers/clock.js";

/**
 * Two tenants side by side in one database: organization `one` with projects `a` and `a2`,
 * organization `two` with project `b`. Rows are seeded in `a` (or `one`); every check calls a
 * method as `a2` or `b` with the seeded row's identifiers and proves it neither reads, changes
 * nor consumes the row, then `intact` proves the row is still there for its own tenant.
 */
export interface TenantWorld {
  db: Database;
  repos: Repositories;
  clock: TestClock;
  one: Organization;
  two: Organization;
  a: Project;
  a2: Project;
  b: Project;
}

/**
 * One repository's part of the cross-tenant contract (tenant-isolation.test.ts). Every method
 * of the repository appears in `checks` or in `exempt` (with the reason it touches no tenant
 * data), so a method added later without a check fails the suite.
 */
export interface TenantContract<R extends keyof Repositories = keyof Repositories, Seeded = unknown> {
  repository: R;
  /** Writes the rows the checks aim at, in project `a` (organization `one`). */
  seed(world: TenantWorld): Promise<Seeded>;
  /** Per method: calls it as another tenant and asserts it saw, changed and consumed nothing. */
  checks: { [M in keyof Repositories[R]]?: (world: TenantWorld, seeded: Seeded) => Promise<void> };
  /** Methods that take no tenant's rows, and why. */
  exempt?: { [M in keyof Repositories[R]]?: string };
  /** After every check: the seeded rows are still there, unchanged, for their own tenant. */
  intact(world: TenantWorld, seeded: Seeded): Promise<void>;
}

export function contract<R extends keyof Repositories, Seeded>(
  c: TenantContract<R, Seeded>,
): TenantContract<R, Seeded> {
  return c;
}
