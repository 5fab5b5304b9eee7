import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { deletePasskey, listPasskeys, renamePasskey } from "../../flows/auth/passkeys/manage.js";
import { finishPasskeyRegistration, startPasskeyRegistration } from "../../flows/auth/passkeys/register.js";
import { finishPasskeySignIn, startPasskeySignIn } from "../../flows/auth/passkeys/sign-in.js";
import { optionsStruct, passkeyToProto, signInResponse, structToObject } from "./mappers.js";
import { actorOf, clientOf, projectOf, userOf } from "./principals.js";

/** The passkey RPCs: the two ceremonies (registration, sign-in) and the user's list of passkeys. */
export function passkeyHandlers(deps: FlowDeps) {
  return {
    async startPasskeyRegistration(req, ctx) {
      const started = await startPasskeyRegistration(deps, projectOf(ctx), {
        mfaToken: req.mfaToken,
        userId: userOf(ctx)?.userId,
        origin: originOf(ctx),
      });
      return { challengeId: started.challengeId, options: optionsStruct(started.options) };
    },
    async finishPasskeyRegistration(req, ctx) {
      const registered = await finishPasskeyRegistration(deps, projectOf(ctx), {
        challengeId: req.challengeId,
        credential: structToObject(req.credential),
        name: req.name,
        mfaToken: req.mfaToken,
        userId: userOf(ctx)?.userId,
        client: clientOf(ctx),
      });
      return {
        ...(registered.outcome && signInResponse(registered.outcome)),
        passkey: passkeyToProto(registered.passkey),
        recoveryCodes: registered.recoveryCodes,
      };
    },
    async startPasskeySignIn(req, ctx) {
      const started = await startPasskeySignIn(deps, projectOf(ctx), {
        email: req.email,
        mfaToken: req.mfaToken,
        origin: originOf(ctx),
      });
      return { challengeId: started.challengeId, options: optionsStruct(started.options) };
    },
    async finishPasskeySignIn(req, ctx) {
      const outcome = await finishPasskeySignIn(deps, projectOf(ctx), {
        challengeId: req.challengeId,
        credential: structToObject(req.credential),
        mfaToken: req.mfaToken,
        client: clientOf(ctx),
      });
      return signInResponse(outcome);
    },
    async listPasskeys(req, ctx) {
      const passkeys = await listPasskeys(deps, projectOf(ctx), actorOf(ctx), req.userId);
      return { data: passkeys.map(passkeyToProto) };
    },
    async renamePasskey(req, ctx) {
      const passkey = await renamePasskey(deps, projectOf(ctx), actorOf(ctx), { id: req.id, name: req.name });
      return { passkey: passkeyToProto(passkey) };
    },
    async deletePasskey(req, ctx) {
      return deletePasskey(deps, projectOf(ctx), actorOf(ctx), req.id, auditOriginOf(ctx.values));
    },
  } satisfies Partial<ServiceImpl<typeof AuthService>>;
}

/** The page's origin picks the relying party when the project sets none (domain/relying-party.ts). */
function originOf(ctx: HandlerContext): string | undefined {
  return ctx.requestHeader.get("origin") ?? undefined;
}
