import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { deleteUser } from "../../flows/auth/users/delete-user.js";
import { getUser } from "../../flows/auth/users/get-user.js";
import { listUsers } from "../../flows/auth/users/list-users.js";
import { updateUser } from "../../flows/auth/users/update-user.js";
import { createUser } from "../../flows/auth/users/create-user.js";
import { inviteUser } from "../../flows/auth/users/invite-user.js";
import { identityToProto, passkeyToProto, userToProto } from "./mappers.js";
import { actorOf, clientOf, projectOf } from "./principals.js";

/**
 * User administration: ListUsers, CreateUser and InviteUser (admin only); GetUser, UpdateUser
 * and DeleteUser (admin, or a user token acting on its own id). The credential interceptor has already refused any
 * Authorization header that is not a valid access token, so "no user" here means admin.
 */
export function userHandlers(deps: FlowDeps) {
  return {
    async listUsers(req, ctx) {
      const page = await listUsers(deps, projectOf(ctx), actorOf(ctx), {
        limit: req.limit,
        cursor: req.cursor,
        search: req.search,
        filters: { disabled: req.disabled, emailVerified: req.emailVerified, mfaEnabled: req.mfaEnabled },
      });
      return { data: page.data.map(userToProto), nextCursor: page.nextCursor, hasMore: page.hasMore };
    },
    async getUser(req, ctx) {
      const { user, identities, passkeys } = await getUser(deps, projectOf(ctx), actorOf(ctx), req.id);
      return {
        ...userToProto(user),
        identities: identities.map(identityToProto),
        passkeys: passkeys.map(passkeyToProto),
      };
    },
    async updateUser(req, ctx) {
      // The credential interceptor checked the scope: users:write as admin, auth:write with a user token.
      const user = await updateUser(
        deps,
        projectOf(ctx),
        actorOf(ctx),
        {
          id: req.id,
          email: req.email,
          metadata: req.metadata,
          appMetadata: req.appMetadata,
          disabled: req.disabled,
          locale: req.locale,
          acceptLanguage: clientOf(ctx).acceptLanguage,
        },
        auditOriginOf(ctx.values),
      );
      return userToProto(user);
    },
    async createUser(req, ctx) {
      const user = await createUser(
        deps,
        projectOf(ctx),
        actorOf(ctx),
        {
          email: req.email,
          password: req.password,
          emailVerified: req.emailVerified,
          metadata: req.metadata,
          appMetadata: req.appMetadata,
          locale: req.locale,
        },
        auditOriginOf(ctx.values),
      );
      return userToProto(user);
    },
    async inviteUser(req, ctx) {
      const { user, invitationExpiresAt } = await inviteUser(
        deps,
        projectOf(ctx),
        actorOf(ctx),
        { email: req.email, redirectUrl: req.redirectUrl, metadata: req.metadata, appMetadata: req.appMetadata },
        auditOriginOf(ctx.values),
      );
      return { ...userToProto(user), invitationExpiresAt: timestampFromDate(invitationExpiresAt) };
    },
    async deleteUser(req, ctx) {
      return deleteUser(deps, projectOf(ctx), actorOf(ctx), req.id, auditOriginOf(ctx.values));
    },
  } satisfies Partial<ServiceImpl<typeof AuthService>>;
}
