import type { ServiceImpl } from "@connectrpc/connect";
import type { AuthService } from "../../gen/gatehouse/auth/v1/auth_pb.js";
import type { FlowDeps } from "../flows/deps.js";

// The Authentication interface's flows land in later issues; until then every RPC passes
// the credential and validation interceptors and answers UNIMPLEMENTED (NOT_IMPLEMENTED).
export function authHandlers(_deps: FlowDeps): Partial<ServiceImpl<typeof AuthService>> {
  return {};
}
