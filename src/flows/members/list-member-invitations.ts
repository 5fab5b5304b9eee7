import type { Invitation } from "../../domain/account.js";
import { pageRequest, toPage, type Page } from "../../domain/pagination.js";
import type { FlowDeps } from "../deps.js";

export interface ListMemberInvitationsInput {
  organizationId: string;
  limit?: number;
  cursor?: string;
}

/** The organization's invitations still waiting for their invitee: not accepted, not expired (by the injected clock). */
export async function listMemberInvitations(
  deps: Pick<FlowDeps, "db" | "clock" | "cursors">,
  input: ListMemberInvitationsInput,
): Promise<Page<Invitation>> {
  // The organization is part of the list's identity: its cursors do not work for another one.
  const list = `invitations:${input.organizationId}`;
  const page = pageRequest(deps.cursors, list, input);
  const rows = await deps.db.repos.invitations.listPending(input.organizationId, deps.clock.now(), page);
  return toPage(deps.cursors, list, rows, page.limit);
}
