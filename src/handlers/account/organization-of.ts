import type { HandlerContext } from "@connectrpc/connect";
import type { MemberPrincipal } from "../../domain/principals.js";
import { kMember } from "../../interceptors/context.js";

/** The calling member, set by the credential interceptor for every management-token RPC. */
export function memberOf(ctx: HandlerContext): MemberPrincipal {
  const principal = ctx.values.get(kMember);
  if (!principal) throw new Error("no member in context: credential interceptor missing");
  return principal;
}

/** The caller's organization: the tenant of every Account RPC behind a management token. */
export function organizationOf(ctx: HandlerContext): string {
  return memberOf(ctx).organizationId;
}
