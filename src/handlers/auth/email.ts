import type { ServiceImpl } from "@connectrpc/connect";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import type { FlowDeps } from "../../flows/deps.js";
import { verifyEmail } from "../../flows/auth/email-verification.js";
import { userToProto } from "./mappers.js";
import { clientOf, projectOf } from "./principals.js";

/** VerifyEmail: the token from the verification email → the verified user. */
export function emailHandlers(deps: FlowDeps) {
  return {
    async verifyEmail(req, ctx) {
      return userToProto(await verifyEmail(deps, projectOf(ctx), req.token, clientOf(ctx)));
    },
  } satisfies Partial<ServiceImpl<typeof AuthService>>;
}
