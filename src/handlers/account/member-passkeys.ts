import type { ServiceImpl } from "@connectrpc/connect";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import type { FlowDeps } from "../../flows/deps.js";
import { deleteMemberPasskey, listMemberPasskeys } from "../../flows/members/passkeys/manage.js";
import {
  finishMemberPasskeyRegistration,
  startMemberPasskeyRegistration,
} from "../../flows/members/passkeys/register.js";
import { finishMemberPasskeySignIn, startMemberPasskeySignIn } from "../../flows/members/passkeys/sign-in.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import { kRequest } from "../../interceptors/context.js";
import { listedPasskeyToProto, optionsStruct } from "../auth/mappers.js";
import { memberCaller, signedInFields } from "./member-mfa.js";
import { memberOf } from "./organization-of.js";

/** Members' passkeys: registration (signed in, or at an enrollment challenge), the challenge's answer, listing and deletion. */
export function memberPasskeysHandlers(deps: FlowDeps) {
  return {
    async startMemberPasskeyRegistration(req, ctx) {
      const started = await startMemberPasskeyRegistration(deps, memberCaller(ctx, req.mfaToken));
      return { challengeId: started.challengeId, options: optionsStruct(started.options) };
    },

    async finishMemberPasskeyRegistration(req, ctx) {
      const registered = await finishMemberPasskeyRegistration(
        deps,
        {
          ...memberCaller(ctx, req.mfaToken),
          challengeId: req.challengeId,
          credential: req.credential ?? {},
          name: req.name,
        },
        auditOriginOf(ctx.values),
      );
      return {
        passkey: listedPasskeyToProto(registered.passkey),
        recoveryCodes: registered.recoveryCodes,
        ...signedInFields(registered.signedIn),
      };
    },

    async startMemberPasskeySignIn(req) {
      const started = await startMemberPasskeySignIn(deps, req.mfaToken);
      return { challengeId: started.challengeId, options: optionsStruct(started.options) };
    },

    async finishMemberPasskeySignIn(req, ctx) {
      const signedIn = await finishMemberPasskeySignIn(
        deps,
        {
          challengeId: req.challengeId,
          credential: req.credential ?? {},
          mfaToken: req.mfaToken,
          ip: ctx.values.get(kRequest)?.ip ?? "",
        },
        auditOriginOf(ctx.values),
      );
      return signedInFields(signedIn);
    },

    async listMemberPasskeys(_req, ctx) {
      return { data: (await listMemberPasskeys(deps, memberOf(ctx))).map(listedPasskeyToProto) };
    },

    async deleteMemberPasskey(req, ctx) {
      return deleteMemberPasskey(deps, memberOf(ctx), req.id, auditOriginOf(ctx.values));
    },
  } satisfies Partial<ServiceImpl<typeof AccountService>>;
}
