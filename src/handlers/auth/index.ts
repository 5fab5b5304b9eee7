import type { ServiceImpl } from "@connectrpc/connect";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import type { HandlerDeps } from "../deps.js";
import { emailHandlers } from "./email.js";
import { signinHandlers } from "./signin.js";
import { tokenHandlers } from "./tokens.js";
import { userHandlers } from "./users.js";
import { sessionHandlers } from "./sessions.js";
import { passwordHandlers } from "./password.js";
import { passwordlessHandlers } from "./passwordless.js";
import { mfaHandlers } from "./mfa.js";
import { passkeyHandlers } from "./passkeys.js";
import { ssoHandlers } from "./sso.js";
import { botChallengeHandlers } from "./bot-challenge.js";
import { authorizedAppHandlers } from "./authorized-apps.js";
import { identityHandlers } from "./identities.js";

// Proto ⇄ flow translation, one file per group of RPCs. The map is the whole service: an RPC
// no group implements is a type error here, not an UNIMPLEMENTED found at run time.
export function authHandlers(deps: HandlerDeps): ServiceImpl<typeof AuthService> {
  return {
    ...signinHandlers(deps),
    ...tokenHandlers(deps),
    ...emailHandlers(deps),
    ...userHandlers(deps),
    ...sessionHandlers(deps),
    ...passwordHandlers(deps),
    ...passwordlessHandlers(deps),
    ...mfaHandlers(deps),
    ...passkeyHandlers(deps),
    ...ssoHandlers(deps),
    ...botChallengeHandlers(deps),
    ...authorizedAppHandlers(deps),
    ...identityHandlers(deps),
  };
}
