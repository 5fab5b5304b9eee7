import type { ServiceImpl } from "@connectrpc/connect";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import type { HandlerDeps } from "../deps.js";
import { projectOf } from "./principals.js";

/** GetBotChallenge: a challenge of the caller's project, in the fields the ALTCHA widget reads. */
export function botChallengeHandlers(deps: HandlerDeps) {
  return {
    async getBotChallenge(_req, ctx) {
      const challenge = await deps.bot.challenge(projectOf(ctx));
      return {
        algorithm: challenge.algorithm,
        challenge: challenge.challenge,
        maxnumber: challenge.maxnumber ?? 0,
        salt: challenge.salt,
        signature: challenge.signature,
      };
    },
  } satisfies Partial<ServiceImpl<typeof AuthService>>;
}
