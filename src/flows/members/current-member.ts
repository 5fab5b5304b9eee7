import type { Member } from "../../domain/account.js";
import type { FlowDeps } from "../deps.js";

export interface CurrentMember {
  member: Member;
  organizationId: string;
  organizationName: string;
}

/**
 * Who a management token acts as, and its organization's name: what the console shows after a
 * reload, where Login's answer (which names the organization only when the member chose among
 * several) is no longer at hand.
 */
export async function currentMember(deps: Pick<FlowDeps, "db">, member: Member): Promise<CurrentMember> {
  const organization = await deps.db.repos.organizations.get(member.organizationId);
  // The token's membership cascades with its organization: a token read this request has one.
  return { member, organizationId: member.organizationId, organizationName: organization?.name ?? "" };
}
