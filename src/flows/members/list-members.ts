import type { Member } from "../../domain/account.js";
import { pageRequest, toPage, type Page } from "../../domain/pagination.js";
import type { FlowDeps } from "../deps.js";

export interface ListMembersInput {
  organizationId: string;
  limit?: number;
  cursor?: string;
}

/** A member as ListMembers shows it: with whether its identity has a second factor. */
export type ListedMember = Member & { mfaEnabled: boolean };

export async function listMembers(
  deps: Pick<FlowDeps, "db" | "cursors">,
  input: ListMembersInput,
): Promise<Page<ListedMember>> {
  // The organization is part of the list's identity: its cursors do not work for another one.
  const list = `members:${input.organizationId}`;
  const page = pageRequest(deps.cursors, list, input);
  const rows = await deps.db.repos.members.list(input.organizationId, page);
  const withFactor = await deps.db.repos.memberMfaFactors.withSecondFactor(
    input.organizationId,
    rows.map((m) => m.id),
  );
  const listed = rows.map((m) => ({ ...m, mfaEnabled: withFactor.has(m.id) }));
  return toPage(deps.cursors, list, listed, page.limit);
}

/** One member as ListMembers would show it (UpdateMember's and GetCurrentMember's answers). */
export async function withMfaFlag(deps: Pick<FlowDeps, "db">, member: Member): Promise<ListedMember> {
  const withFactor = await deps.db.repos.memberMfaFactors.withSecondFactor(member.organizationId, [member.id]);
  return { ...member, mfaEnabled: withFactor.has(member.id) };
}
