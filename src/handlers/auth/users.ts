import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import type { FlowDeps } from "../../flows/deps.js";
import { deleteUser } from "../../flows/auth/users/delete-user.js";
import { getUser } from "../../flows/auth/users/get-user.js";
import { listUsers } from "../../flows/auth/users/list-users.js";
import { updateUser, type UpdateActor } from "../../flows/auth/users/update-user.js";
import { userToProto } from "./mappers.js";
import { projectOf, userOf } from "./principals.js";

/** User administration: ListUsers, GetUser, UpdateUser (admin or self), DeleteUser. */
export function userHandlers(deps: FlowDeps): Partial<ServiceImpl<typeof AuthService>> {
  return {
    async listUsers(req, ctx) {
      const page = await listUsers(deps, projectOf(ctx), { limit: req.limit, cursor: req.cursor, search: req.search });
      return { data: page.data.map(userToProto), nextCursor: page.nextCursor, hasMore: page.hasMore };
    },
    async getUser(req, ctx) {
      const { user, identities } = await getUser(deps, projectOf(ctx), req.id);
      return {
        ...userToProto(user),
        identities: identities.map((i) => ({
          connectionId: i.connectionId,
          provider: i.issuer,
          subject: i.subject,
          email: i.email,
          linkedAt: timestampFromDate(i.linkedAt),
        })),
      };
    },
    async updateUser(req, ctx) {
      // The credential interceptor checked the scope: users:write as admin, auth:write with a user token.
      const principal = userOf(ctx);
      const actor: UpdateActor = principal ? { kind: "user", userId: principal.userId } : { kind: "admin" };
      const user = await updateUser(deps, projectOf(ctx), actor, {
        id: req.id,
        email: req.email,
        metadata: req.metadata,
        disabled: req.disabled,
      });
      return userToProto(user);
    },
    async deleteUser(req, ctx) {
      return deleteUser(deps, projectOf(ctx), req.id);
    },
  };
}
