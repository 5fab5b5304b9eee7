import { createContextKey, type ContextValues } from "@connectrpc/connect";
import { Credential, type Access } from "../../gen/gatehouse/options/v1/options_pb.js";
import { DomainError } from "../domain/errors.js";

/**
 * The operator on the server's machine (the CLI, docs/cli.md), acting as the administrator of
 * one organization: `account` is the operating-system account that ran the command (proved to
 * the server on its operator channel), `organizationId` the organization the command names.
 */
export interface OperatorPrincipal {
  account: string;
  organizationId: string;
}

/**
 * Set only by the CLI's in-process transport (src/operator-api.ts), before the interceptor
 * chain: a request from the network starts with none (transport/http-handler.ts), and no header
 * can put one there.
 */
export const kOperator = createContextKey<OperatorPrincipal | undefined>(undefined, { description: "operator" });

/**
 * The operator's credential, checked first by the credential interceptor: true when the caller
 * is the operator and the RPC is one an organization's administrator calls with a management
 * token, whatever its role (whoever runs the CLI there can read the database anyway). An RPC
 * about the calling member itself, or of another credential kind, is refused: the operator is
 * no member and holds no API key.
 */
export function operatorCredential(values: ContextValues, access: Access): boolean {
  if (values.get(kOperator) === undefined) return false;
  if (access.credential !== Credential.MANAGEMENT_TOKEN) {
    throw new DomainError(
      "MISSING_MANAGEMENT_TOKEN",
      "the operator acts as an organization's administrator: this operation needs a member's or a project's own credential",
    );
  }
  return true;
}
