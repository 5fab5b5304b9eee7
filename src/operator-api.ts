import { randomUUID } from "node:crypto";
import { toJson } from "@bufbuild/protobuf";
import { createClient, createRouterTransport, type Interceptor } from "@connectrpc/connect";
import { AccountService } from "../gen/gatehouse/account/v1/account_pb.js";
import { apiRouter, JSON_OPTIONS, type ServerDeps } from "./api-router.js";
import type { AccountClient, OperatorApi } from "./cli/api.js";
import { kRequest, type RequestRecord } from "./interceptors/context.js";
import { kOperator } from "./interceptors/operator-credential.js";

/** The user agent the audit log names for what the CLI does (docs/cli.md). */
export const OPERATOR_USER_AGENT = "gatehouse-cli";

/**
 * The API the server serves, as the operator's CLI calls it in this process: the same router
 * and interceptor chain (apiRouter), reached through connect's in-memory transport, so a
 * command is checked, validated, audited and refused exactly as the RPC it mirrors. What the
 * network transport fills in first (the request's record) is the operator's here: no client
 * address, the CLI's user agent; and the caller is the operator (operator-credential.ts), which
 * no request from the network can claim.
 */
export function createOperatorApi(deps: ServerDeps): OperatorApi {
  const { options, routes } = apiRouter(deps);
  const clients = new Map<string, AccountClient>();
  return {
    account(organizationId, operator) {
      const key = JSON.stringify([organizationId, operator]);
      let client = clients.get(key);
      if (!client) {
        const caller: Interceptor = (next) => (req) => {
          const record: RequestRecord = {
            id: randomUUID(),
            ip: "",
            userAgent: OPERATOR_USER_AGENT,
            allowOrigin: () => {},
          };
          req.contextValues.set(kRequest, record);
          req.contextValues.set(kOperator, { account: operator, organizationId });
          return next(req);
        };
        const transport = createRouterTransport(routes, {
          router: { ...options, interceptors: [caller, ...(options.interceptors ?? [])] },
        });
        client = createClient(AccountService, transport);
        clients.set(key, client);
      }
      return client;
    },
    restJson(schema, message) {
      return toJson(schema, message, JSON_OPTIONS);
    },
  };
}
