import type { ServiceImpl } from "@connectrpc/connect";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import type { FlowDeps } from "../../flows/deps.js";
import { sendMagicLink, verifyMagicLink } from "../../flows/auth/magic-link.js";
import { sendOtp, verifyOtp } from "../../flows/auth/otp.js";
import { signInResponse } from "./mappers.js";
import { clientOf, projectOf } from "./principals.js";

/** SendOtp, VerifyOtp, SendMagicLink, VerifyMagicLink. */
export function passwordlessHandlers(deps: FlowDeps) {
  return {
    async sendOtp(req, ctx) {
      return sendOtp(deps, projectOf(ctx), {
        email: req.email,
        phone: req.phone,
        channel: req.channel,
        ip: clientOf(ctx).ipAddress,
        createUser: req.createUser,
        acceptLanguage: clientOf(ctx).acceptLanguage,
      });
    },
    async verifyOtp(req, ctx) {
      return signInResponse(
        await verifyOtp(deps, projectOf(ctx), {
          email: req.email,
          phone: req.phone,
          otp: req.otp,
          client: clientOf(ctx),
        }),
      );
    },
    async sendMagicLink(req, ctx) {
      return sendMagicLink(deps, projectOf(ctx), {
        email: req.email,
        redirectUrl: req.redirectUrl,
        ip: clientOf(ctx).ipAddress,
        createUser: req.createUser,
        acceptLanguage: clientOf(ctx).acceptLanguage,
      });
    },
    async verifyMagicLink(req, ctx) {
      return signInResponse(await verifyMagicLink(deps, projectOf(ctx), { token: req.token, client: clientOf(ctx) }));
    },
  } satisfies Partial<ServiceImpl<typeof AuthService>>;
}
