import { isIdOf } from "../../domain/ids.js";
import { pageRequest, toPage, type Page } from "../../domain/pagination.js";
import type { SsoConnection } from "../../domain/sso.js";
import type { FlowDeps } from "../deps.js";
import { projectNotFound } from "./create-sso-connection.js";

export interface ListSsoConnectionsInput {
  projectId: string;
  limit?: number;
  cursor?: string;
}

/** One page of a project's connections, newest first; never their secrets. */
export async function listSsoConnections(
  deps: Pick<FlowDeps, "db" | "cursors">,
  organizationId: string,
  input: ListSsoConnectionsInput,
): Promise<Page<SsoConnection>> {
  if (!isIdOf("proj", input.projectId)) throw projectNotFound();
  const { repos } = deps.db;
  if (!(await repos.projects.get(organizationId, input.projectId))) throw projectNotFound();
  // The cursor is bound to the organization and the project: replayed on another list it is INVALID_CURSOR.
  const list = `sso-connections:${organizationId}:${input.projectId}`;
  const page = pageRequest(deps.cursors, list, input);
  const rows = await repos.ssoConnections.list(organizationId, input.projectId, page);
  return toPage(deps.cursors, list, rows, page.limit);
}
