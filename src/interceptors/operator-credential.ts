import { createContextKey } from "@connectrpc/connect";

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
