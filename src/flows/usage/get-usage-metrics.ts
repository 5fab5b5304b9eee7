import { DomainError } from "../../domain/errors.js";
import { isIdOf } from "../../domain/ids.js";
import { resolvePeriod, type UsageCounts, type UsagePeriod } from "../../domain/usage.js";
import type { FlowDeps } from "../deps.js";

export interface GetUsageMetricsInput {
  /** Absent or empty: the whole organization. */
  projectId?: string;
  from?: string;
  to?: string;
}

export interface UsageMetrics extends UsageCounts {
  period: Pick<UsagePeriod, "from" | "to">;
}

/**
 * Counts a project's or the organization's auth events over whole UTC days. A deleted
 * project's events still count for the organization, but the project can no longer be
 * named (PROJECT_NOT_FOUND), like any project that is not the organization's.
 */
export async function getUsageMetrics(
  deps: Pick<FlowDeps, "db" | "clock">,
  organizationId: string,
  input: GetUsageMetricsInput,
): Promise<UsageMetrics> {
  const period = resolvePeriod(input, deps.clock.now());
  const projectId = input.projectId || undefined;
  const { repos } = deps.db;
  if (
    projectId !== undefined &&
    (!isIdOf("proj", projectId) || !(await repos.projects.get(organizationId, projectId)))
  ) {
    throw new DomainError("PROJECT_NOT_FOUND", "no such project in this organization");
  }
  const counts = await repos.authEvents.countUsage(organizationId, { projectId, start: period.start, end: period.end });
  return { period: { from: period.from, to: period.to }, ...counts };
}
