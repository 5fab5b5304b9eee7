import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import { DomainError } from "../../domain/errors.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { listSessions, revokeAllSessions, revokeSession, type SessionOwner } from "../../flows/auth/sessions.js";
import { listUserSessions, revokeAllUserSessions, revokeUserSession } from "../../flows/auth/user-sessions.js";
import type { Session } from "../../domain/auth.js";
import type { Page } from "../../domain/pagination.js";
import { actorOf, projectOf, userOf } from "./principals.js";

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

/** A page of sessions, as ListSessions and ListUserSessions answer it. */
function sessionPage(page: Page<Session & { isCurrent: boolean }>) {
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
}

/**
 * ListSessions, RevokeAllSessions, RevokeSession: the signed-in user's own sessions; and the
 * admin's ListUserSessions, RevokeUserSession, RevokeAllUserSessions for the user named.
 */
export function sessionHandlers(deps: FlowDeps) {
  return {
    async listSessions(req, ctx) {
      return sessionPage(
        await listSessions(deps, projectOf(ctx), ownerOf(ctx), { limit: req.limit, cursor: req.cursor }),
      );
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
    async listUserSessions(req, ctx) {
      const input = { limit: req.limit, cursor: req.cursor };
      return sessionPage(await listUserSessions(deps, projectOf(ctx), actorOf(ctx), req.userId, input));
    },
    async revokeUserSession(req, ctx) {
      const origin = auditOriginOf(ctx.values);
      const { revoked } = await revokeUserSession(deps, projectOf(ctx), actorOf(ctx), req.userId, req.id, origin);
      return { revoked, sessionId: req.id };
    },
    async revokeAllUserSessions(req, ctx) {
      const origin = auditOriginOf(ctx.values);
      return { revokedCount: await revokeAllUserSessions(deps, projectOf(ctx), actorOf(ctx), req.userId, origin) };
    },
  } satisfies Partial<ServiceImpl<typeof AuthService>>;
}
