import { isIdOf } from "../../domain/ids.js";
import { pageRequest, toPage, type Page } from "../../domain/pagination.js";
import type { WebhookEndpoint } from "../../domain/webhooks.js";
import type { FlowDeps } from "../deps.js";
import { projectNotFound } from "../projects/not-found.js";

/** One page of a project's endpoints, newest first; never their secrets. */
export async function listWebhookEndpoints(
  deps: Pick<FlowDeps, "db" | "cursors">,
  organizationId: string,
  input: { projectId: string; limit?: number; cursor?: string },
): Promise<Page<WebhookEndpoint>> {
  if (!isIdOf("proj", input.projectId)) throw projectNotFound();
  const { repos } = deps.db;
  if (!(await repos.projects.get(organizationId, input.projectId))) throw projectNotFound();
  const list = `webhooks:${organizationId}:${input.projectId}`;
  const page = pageRequest(deps.cursors, list, input);
  const rows = await repos.webhookEndpoints.list(organizationId, input.projectId, page);
  return toPage(deps.cursors, list, rows, page.limit);
}
