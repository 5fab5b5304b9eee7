import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import type { FailurePolicy, Hook, HookKind } from "../../domain/hooks.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { deleteHook, listHooks, setHook } from "../../flows/hooks/manage-hooks.js";
import { organizationOf } from "./organization-of.js";

/** SetHook, DeleteHook, ListHooks; `kind` and `failure_policy` are checked by their proto rules. */
export function hooksHandlers(deps: FlowDeps) {
  return {
    async setHook(req, ctx) {
      const { hook, secret } = await setHook(
        deps,
        organizationOf(ctx),
        {
          projectId: req.projectId,
          kind: req.kind as HookKind,
          url: req.url,
          failurePolicy: req.failurePolicy === "" ? undefined : (req.failurePolicy as FailurePolicy),
          rotateSecret: req.rotateSecret,
        },
        auditOriginOf(ctx.values),
      );
      return { ...hookProto(hook), secret };
    },

    async deleteHook(req, ctx) {
      return deleteHook(deps, organizationOf(ctx), req.projectId, req.kind as HookKind, auditOriginOf(ctx.values));
    },

    async listHooks(req, ctx) {
      return { data: (await listHooks(deps, organizationOf(ctx), req.projectId)).map(hookProto) };
    },
  } satisfies Partial<ServiceImpl<typeof AccountService>>;
}

export function hookProto(h: Hook) {
  return {
    kind: h.kind,
    url: h.url,
    failurePolicy: h.failurePolicy,
    createdAt: timestampFromDate(h.createdAt),
    updatedAt: timestampFromDate(h.updatedAt),
  };
}
