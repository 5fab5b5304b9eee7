import type { ApiKey } from "../../domain/account.js";
import { isIdOf } from "../../domain/ids.js";
import { pageRequest, toPage, type Page } from "../../domain/pagination.js";
import type { FlowDeps } from "../deps.js";
import { projectNotFound } from "../projects/not-found.js";

export interface ListApiKeysInput {
  /** Empty or absent: every key of the organization. */
  projectId?: string;
  limit?: number;
  cursor?: string;
}

/** One page of unrevoked keys, newest first; never the raw keys, which are not stored. */
export async function listApiKeys(
  deps: Pick<FlowDeps, "cursors" | "db">,
  organizationId: string,
  input: ListApiKeysInput,
): Promise<Page<ApiKey>> {
  const projectId = input.projectId ? input.projectId : undefined;
  // Bound to the organization and the filter: replayed on another list it is INVALID_CURSOR.
  const list = `api-keys:${organizationId}:${projectId ?? "*"}`;
  const page = pageRequest(deps.cursors, list, input);
  const { repos } = deps.db;
  if (
    projectId !== undefined &&
    (!isIdOf("proj", projectId) || !(await repos.projects.get(organizationId, projectId)))
  ) {
    throw projectNotFound();
  }
  const rows = await repos.apiKeys.list(organizationId, { projectId }, page);
  return toPage(deps.cursors, list, rows, page.limit);
}
