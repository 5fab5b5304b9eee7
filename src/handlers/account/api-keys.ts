import type { ServiceImpl } from "@connectrpc/connect";
import { NullValue, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import type { ApiKey } from "../../domain/account.js";
import { createApiKey } from "../../flows/api-keys/create-api-key.js";
import { listApiKeys } from "../../flows/api-keys/list-api-keys.js";
import { revokeApiKey } from "../../flows/api-keys/revoke-api-key.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import { organizationOf } from "./organization-of.js";

/** ListApiKeys, CreateApiKey, RevokeApiKey. The raw key goes out once, from CreateApiKey. */
export function apiKeysHandlers(deps: FlowDeps) {
  return {
    async listApiKeys(req, ctx) {
      const page = await listApiKeys(deps, organizationOf(ctx), {
        projectId: req.projectId,
        limit: req.limit,
        cursor: req.cursor,
      });
      return { data: page.data.map(toProto), nextCursor: page.nextCursor, hasMore: page.hasMore };
    },

    async createApiKey(req, ctx) {
      const { apiKey, key } = await createApiKey(
        deps,
        organizationOf(ctx),
        {
          projectId: req.projectId,
          label: req.label,
          scopes: req.scopes,
          expiresAt: req.expiresAt,
          kind: req.kind,
        },
        auditOriginOf(ctx.values),
      );
      return { ...toProto(apiKey), key };
    },

    async revokeApiKey(req, ctx) {
      return revokeApiKey(deps, organizationOf(ctx), req.id, auditOriginOf(ctx.values));
    },
  } satisfies Partial<ServiceImpl<typeof AccountService>>;
}

// Field by field: the hash and the organization id never reach the wire.
export function toProto(k: ApiKey) {
  return {
    id: k.id,
    label: k.label,
    projectId: k.projectId,
    scopes: k.scopes,
    // A google.protobuf.Value, so JSON writes `null` for a key that never expires (API.md §1).
    expiresAt: k.expiresAt
      ? { kind: { case: "stringValue" as const, value: k.expiresAt.toISOString() } }
      : { kind: { case: "nullValue" as const, value: NullValue.NULL_VALUE } },
    createdAt: timestampFromDate(k.createdAt),
    keyHint: k.keyHint,
    kind: k.kind,
  };
}
