import type { Project } from "../../domain/account.js";
import { pageRequest, toPage, type Page } from "../../domain/pagination.js";
import type { FlowDeps } from "../deps.js";

export interface ListProjectsInput {
  limit?: number;
  cursor?: string;
}

/** One page of the organization's projects, newest first. */
export async function listProjects(
  deps: Pick<FlowDeps, "db" | "cursors">,
  organizationId: string,
  input: ListProjectsInput,
): Promise<Page<Project>> {
  // Bound to the organization: a cursor replayed on another organization's list, or on
  // another kind of list, is INVALID_CURSOR.
  const list = `projects:${organizationId}`;
  const page = pageRequest(deps.cursors, list, input);
  const rows = await deps.db.repos.projects.list(organizationId, page);
  return toPage(deps.cursors, list, rows, page.limit);
}
