import type { DescService } from "@bufbuild/protobuf";
import type { ConnectRouter, ConnectRouterOptions } from "@connectrpc/connect";
import { compressionBrotli, compressionGzip } from "@connectrpc/connect-node";
import { AccountService } from "../gen/gatehouse/account/v1/account_pb.js";
import { AuthService } from "../gen/gatehouse/auth/v1/auth_pb.js";
import type { AppDeps } from "./app-deps.js";
import { accountHandlers } from "./handlers/account/index.js";
import { authHandlers } from "./handlers/auth/index.js";
import { auditRateLimitsInterceptor } from "./interceptors/audit-rate-limits.js";
import { botProtectionInterceptor } from "./interceptors/bot-protection.js";
import { credentialInterceptor, type UserTokenVerifier } from "./interceptors/credentials.js";
import { errorInterceptor } from "./interceptors/errors.js";
import { validationInterceptor } from "./interceptors/validation.js";

/** Request bodies (and gRPC messages) over 1 MiB are refused before they are read whole. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Proto field names, defaults written, unknown fields ignored (API.md section 1). */
export const JSON_OPTIONS = { ignoreUnknownFields: true, alwaysEmitImplicit: true, useProtoFieldName: true } as const;

export interface ServerDeps extends AppDeps {
  userTokens: UserTokenVerifier;
}

/** Options every router of the port shares: limits, compression and JSON. */
export const ROUTER_LIMITS = {
  readMaxBytes: MAX_BODY_BYTES,
  // The longest timer Node can set. Longer timeouts are lowered to it before connect-es reads
  // them (src/transport/compat/timeout-overflow.ts); this catches anything that lowering misses.
  maxTimeoutMs: 2 ** 31 - 1,
  acceptCompression: [compressionGzip, compressionBrotli],
  jsonOptions: JSON_OPTIONS,
} satisfies ConnectRouterOptions;

/**
 * The Account and Authentication services behind their interceptor chain: what the one port
 * serves (server.ts), and what tests of interceptors and handlers call in memory through
 * connect's createRouterTransport, without HTTP.
 */
export function apiRouter(deps: ServerDeps): {
  options: ConnectRouterOptions;
  routes: (router: ConnectRouter) => void;
  /** The services and their implementations, for the transports' lean unary path (transport/lane). */
  services: ReadonlyArray<readonly [DescService, object]>;
} {
  const services = [
    [AccountService, accountHandlers(deps)],
    [AuthService, authHandlers(deps)],
  ] as const;
  return {
    services,
    options: {
      ...ROUTER_LIMITS,
      interceptors: [
        errorInterceptor(deps.logger),
        credentialInterceptor({
          repos: deps.db.repos,
          apiKeys: deps.verification,
          clock: deps.clock,
          userTokens: deps.userTokens,
          accountOrigins: [new URL(deps.config.publicUrl).origin],
          pages: { projects: deps.db.repos.projects, pagesOrigin: new URL(deps.config.publicUrl).origin },
        }),
        auditRateLimitsInterceptor(deps),
        validationInterceptor(),
        // Needs the project and key (credentials) and a valid request (validation) first.
        botProtectionInterceptor(deps.bot),
      ],
    },
    routes(router) {
      for (const [service, impl] of services) router.service(service, impl);
    },
  };
}
