import type { Member } from "../../domain/account.js";
import { pageRequest, toPage, type Page } from "../../domain/pagination.js";
import type { FlowDeps } from "../deps.js";

export interface ListMembersInput {
  organizationId: string;
  limit?: number;
  cursor?: string;
}

export async function listMembers(deps: FlowDeps, input: ListMembersInput): Promise<Page<Member>> {
  // The organization is part of the list's identity: its cursors do not work for another one.
  const list = `members:${input.organizationId}`;
  const page = pageRequest(deps.cursors, list, input);
  const rows = await deps.db.repos.members.list(input.organizationId, page);
  return toPage(deps.cursors, list, rows, page.limit);
}
