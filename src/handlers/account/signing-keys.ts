import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { rotateSigningKey } from "../../flows/projects/rotate-signing-key.js";
import { organizationOf } from "./organization-of.js";

/** RotateSigningKey: public facts of the new key only. */
export function signingKeysHandlers(deps: FlowDeps) {
  return {
    async rotateSigningKey(req, ctx) {
      const key = await rotateSigningKey(deps, organizationOf(ctx), req.id, auditOriginOf(ctx.values));
      return { id: key.projectId, kid: key.kid, algorithm: key.algorithm, createdAt: timestampFromDate(key.createdAt) };
    },
  } satisfies Partial<ServiceImpl<typeof AccountService>>;
}
