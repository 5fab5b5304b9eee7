import type { HandlerContext } from "@connectrpc/connect";
import { DomainError } from "../../domain/errors.js";
import type { MemberPrincipal } from "../../domain/principals.js";
import type { Inviter } from "../../flows/members/invite-member.js";
import { kMember } from "../../interceptors/context.js";
import { kOperator } from "../../interceptors/operator-credential.js";

/** The calling member, set by the credential interceptor for every management-token RPC. */
export function memberOf(ctx: HandlerContext): MemberPrincipal {
  const principal = ctx.values.get(kMember);
  if (principal) return principal;
  // The operator (the CLI) administers an organization but is none of its members.
  if (ctx.values.get(kOperator))
    throw new DomainError(
      "MISSING_MANAGEMENT_TOKEN",
      "this operation is a member's own: it needs their management token",
    );
  throw new Error("no member in context: credential interceptor missing");
}

/** The caller's organization: the tenant of every Account RPC behind a management token (or the operator's). */
export function organizationOf(ctx: HandlerContext): string {
  return ctx.values.get(kOperator)?.organizationId ?? memberOf(ctx).organizationId;
}

/** Who invites: the calling member, or the operator, whom the invitation does not name (no id, no email). */
export function inviterOf(ctx: HandlerContext): Inviter {
  const operator = ctx.values.get(kOperator);
  return operator ? { organizationId: operator.organizationId, id: null, email: null } : memberOf(ctx).member;
}
