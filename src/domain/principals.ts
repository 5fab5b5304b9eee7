import type { Member } from "./account.js";

// Who acts for a request, as the flows need it: the credential interceptor puts it in the
// request's context (src/interceptors/context.ts), handlers hand it to flows.

/** The organization member behind a management token. */
export interface MemberPrincipal {
  member: Member;
  organizationId: string;
  /** The token's row id (`mtk_…`): Logout revokes it, ChangeMemberPassword keeps it. */
  tokenId: string;
}
