import { isIdOf } from "../../domain/ids.js";
import type { OAuthClient } from "../../domain/oauth-clients.js";
import { pageRequest, toPage, type Page } from "../../domain/pagination.js";
import type { FlowDeps } from "../deps.js";
import { projectNotFound } from "../projects/not-found.js";

/** One page of a project's OAuth clients, newest first; never their secrets. */
export async function listOAuthClients(
  deps: Pick<FlowDeps, "db" | "cursors">,
  organizationId: string,
  input: { projectId: string; limit?: number; cursor?: string },
): Promise<Page<OAuthClient>> {
  if (!isIdOf("proj", input.projectId)) throw projectNotFound();
  const { repos } = deps.db;
  if (!(await repos.projects.get(organizationId, input.projectId))) throw projectNotFound();
  const list = `oauth-clients:${organizationId}:${input.projectId}`;
  const page = pageRequest(deps.cursors, list, input);
  const rows = await repos.oauthClients.list(organizationId, input.projectId, page);
  return toPage(deps.cursors, list, rows, page.limit);
}
