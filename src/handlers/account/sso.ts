import type { ServiceImpl } from "@connectrpc/connect";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import type { FlowDeps } from "../../flows/deps.js";

export function ssoHandlers(_deps: FlowDeps): Partial<ServiceImpl<typeof AccountService>> {
  return {};
}
