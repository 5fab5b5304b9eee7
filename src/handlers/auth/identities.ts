import type { ServiceImpl } from "@connectrpc/connect";
import type { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import { DomainError } from "../../domain/errors.js";
import type { FlowDeps } from "../../flows/deps.js";

// PLACEHOLDER (issue 29, being built): replaced by the identities helper.
export function identityHandlers(_deps: FlowDeps) {
  return {
    async listIdentities() {
      throw new DomainError("NOT_IMPLEMENTED", "ListIdentities is not built yet");
    },
    async unlinkIdentity() {
      throw new DomainError("NOT_IMPLEMENTED", "UnlinkIdentity is not built yet");
    },
  } satisfies Partial<ServiceImpl<typeof AuthService>>;
}
