import type { ServiceImpl } from "@connectrpc/connect";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import type { FlowDeps } from "../../flows/deps.js";
import { login } from "../../flows/auth/login.js";
import { signup } from "../../flows/auth/signup.js";
import { signInResponse, structToObject } from "./mappers.js";
import { clientOf, isPublicCredential, projectOf } from "./principals.js";

/** Signup and Login with email and password. */
export function signinHandlers(deps: FlowDeps) {
  return {
    async signup(req, ctx) {
      const outcome = await signup(deps, projectOf(ctx), {
        email: req.email,
        password: req.password,
        metadata: structToObject(req.metadata),
        sendVerification: req.sendVerification,
        redirectUrl: req.redirectUrl,
        client: clientOf(ctx),
        publicCredential: isPublicCredential(ctx),
        locale: req.locale,
      });
      // Nothing but the flag: the same answer whether or not the address was registered.
      if ("confirmationRequired" in outcome) return { confirmationRequired: true };
      return signInResponse(outcome);
    },
    async login(req, ctx) {
      return signInResponse(
        await login(deps, projectOf(ctx), { email: req.email, password: req.password, client: clientOf(ctx) }),
      );
    },
  } satisfies Partial<ServiceImpl<typeof AuthService>>;
}
