import { randomUUID } from "node:crypto";
import { createClient, createRouterTransport, type Interceptor, type Transport } from "@connectrpc/connect";
import { AccountService } from "../../gen/gatehouse/account/v1/account_pb.js";
import { AuthService } from "../../gen/gatehouse/auth/v1/auth_pb.js";
import { apiRouter, type ServerDeps } from "../../src/api-router.js";
import { kRequest, type RequestRecord } from "../../src/interceptors/context.js";

/**
 * The Account and Authentication services with their whole interceptor chain, called in memory
 * through connect's createRouterTransport: the depth for interceptors and handlers, with no
 * HTTP, framing or port (docs/testing.md, "Three depths"). `deps` are a server's (`server.deps`)
 * or any built the same way. The transport's part of a request (its id and client address,
 * src/transport/http-handler.ts) is filled in here; `ip` is the address the request comes from.
 */
export function memoryTransport(deps: ServerDeps, options: { ip?: string } = {}): Transport {
  const { options: router, routes } = apiRouter(deps);
  const transportPart: Interceptor = (next) => (req) => {
    const record: RequestRecord = {
      id: randomUUID(),
      ip: options.ip ?? "127.0.0.1",
      userAgent: req.header.get("user-agent") ?? "",
      allowOrigin: () => {},
    };
    req.contextValues.set(kRequest, record);
    return next(req);
  };
  return createRouterTransport(routes, {
    router: { ...router, interceptors: [transportPart, ...(router.interceptors ?? [])] },
  });
}

/** Clients of both services over one in-memory transport. */
export function memoryClients(deps: ServerDeps, options: { ip?: string } = {}) {
  const transport = memoryTransport(deps, options);
  return { auth: createClient(AuthService, transport), account: createClient(AccountService, transport) };
}
