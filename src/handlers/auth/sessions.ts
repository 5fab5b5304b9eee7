import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import { DomainError } from "../../domain/errors.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { listSessions, revokeAllSessions, revokeSession, type SessionOwner } from "../../flows/auth/sessions.js";
import { projectOf, userOf } from "./principals.js";

/** The access-token principal; the credential interceptor requires it for these RPCs. */
export function ownerOf(ctx: HandlerContext): SessionOwner {
  const user = userOf(ctx);
  if (!user)
    throw new DomainError(
      "MISSING_ACCESS_TOKEN",
      "this operation needs the user's access token in Authorization: Bearer",
    );
  return { userId: user.userId, sessionId: user.sessionId };
}

/** ListSessions, RevokeAllSessions, RevokeSession: the signed-in user's own sessions. */
export function sessionHandlers(deps: FlowDeps) {
  return {
    async listSessions(req, ctx) {
      const page = await listSessions(deps, projectOf(ctx), ownerOf(ctx), { limit: req.limit, cursor: req.cursor });
      return {
        data: page.data.map((s) => ({
          id: s.id,
          ipAddress: s.ipAddress,
          userAgent: s.userAgent,
          createdAt: timestampFromDate(s.createdAt),
          lastActiveAt: timestampFromDate(s.lastActiveAt),
          isCurrent: s.isCurrent,
        })),
        nextCursor: page.nextCursor,
        hasMore: page.hasMore,
      };
    },
    async revokeAllSessions(req, ctx) {
      return {
        revokedCount: await revokeAllSessions(
          deps,
          projectOf(ctx),
          ownerOf(ctx),
          req.keepCurrent,
          auditOriginOf(ctx.values),
        ),
      };
    },
    async revokeSession(req, ctx) {
      const { revoked } = await revokeSession(deps, projectOf(ctx), ownerOf(ctx), req.id, auditOriginOf(ctx.values));
      return { revoked, sessionId: req.id };
    },
  } satisfies Partial<ServiceImpl<typeof AuthService>>;
}
