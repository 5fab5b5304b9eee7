import { createConnectRouter, type ConnectRouter } from "@connectrpc/connect";
import { compressionBrotli, compressionGzip } from "@connectrpc/connect-node";
import type { UniversalHandler } from "@connectrpc/connect/protocol";
import { AccountService } from "../gen/gatehouse/account/v1/account_pb.js";
import { AuthService } from "../gen/gatehouse/auth/v1/auth_pb.js";
import { Health } from "../gen/grpc/health/v1/health_pb.js";
import type { FlowDeps } from "./flows/deps.js";
import { accountHandlers } from "./handlers/account/index.js";
import { authHandlers } from "./handlers/auth/index.js";
import { healthHandlers } from "./handlers/health.js";
import { deliveryReport, dependenciesDown, type Dependency } from "./readiness.js";
import { auditRateLimitsInterceptor } from "./interceptors/audit-rate-limits.js";
import { botProtectionInterceptor } from "./interceptors/bot-protection.js";
import { credentialInterceptor, type UserTokenVerifier } from "./interceptors/credentials.js";
import { errorInterceptor } from "./interceptors/errors.js";
import { validationInterceptor } from "./interceptors/validation.js";
import { METRICS_PATH, metricsRoute } from "./metrics/route.js";
import { OPENID_CONFIGURATION_PATH, serveOpenidConfiguration } from "./transport/discovery-route.js";
import { writeJson } from "./transport/error-body.js";
import { createHttpHandler, type PlainRoute } from "./transport/http-handler.js";
import { serveJwks } from "./transport/jwks-route.js";
import { OPENAPI_PATH, serveOpenApi } from "./transport/openapi-route.js";
import { pageRoutes } from "./pages-route/routes.js";
import { serveReflection } from "./transport/reflection.js";
import { ssoAuthorizeRoute, ssoCallbackRoute } from "./transport/sso-routes.js";
import { createOnePortServer, type OnePortServer } from "./transport/one-port.js";
import { compileRestRoutes } from "./transport/rest-routes.js";

/** Request bodies (and gRPC messages) over 1 MiB are refused before they are read whole. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Proto field names, defaults written, unknown fields ignored (API.md section 1). */
export const JSON_OPTIONS = { ignoreUnknownFields: true, alwaysEmitImplicit: true, useProtoFieldName: true } as const;

export interface ServerDeps extends FlowDeps {
  userTokens: UserTokenVerifier;
}

// One port: Connect, gRPC and gRPC-Web from the routers, REST from the same handlers'
// google.api.http options, plus plain HTTP routes.
export function createGatehouseServer(deps: ServerDeps): OnePortServer {
  const shared = {
    readMaxBytes: MAX_BODY_BYTES,
    // The longest timer Node can set. Longer timeouts are lowered to it before connect-es reads
    // them (src/transport/compat/timeout-overflow.ts); this catches anything that lowering misses.
    maxTimeoutMs: 2 ** 31 - 1,
    acceptCompression: [compressionGzip, compressionBrotli],
    jsonOptions: JSON_OPTIONS,
  };
  const api = createConnectRouter({
    ...shared,
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
  });
  api.service(AccountService, accountHandlers(deps));
  api.service(AuthService, authHandlers(deps));
  // Health checks and reflection need no credential, so they live outside the API's interceptor chain.
  const health = createConnectRouter(shared);
  const down = () => dependenciesDown(deps);
  const isHealthy = async () => (await down()).length === 0;
  const shutdown = new AbortController();
  health.service(
    Health,
    healthHandlers({ isHealthy, services: [AccountService.typeName, AuthService.typeName], shutdown: shutdown.signal }),
  );
  serveReflection(health, [AccountService, AuthService, Health]);
  const metrics = metricsRoute(deps);

  const handler = createHttpHandler({
    rpc: byPath(api, health),
    rest: compileRestRoutes(api.handlers),
    http: plainRoutes(deps, down, metrics.route),
    logger: deps.logger,
    trustedProxies: deps.config.trustedProxies,
    maxBodyBytes: MAX_BODY_BYTES,
  });
  const server = createOnePortServer(handler);
  // Health watchers hear NOT_SERVING and their streams end before the server waits for requests in flight.
  return { ...server, close: (graceMs) => (shutdown.abort(), server.close(graceMs).finally(metrics.close)) };
}

const JWKS_PATH = /^\/v1\/auth\/(lp_[0-9a-z]{26})\/\.well-known\/jwks\.json$/;

function plainRoutes(
  deps: FlowDeps,
  down: () => Promise<Dependency[]>,
  metrics: PlainRoute,
): (path: string) => PlainRoute | undefined {
  const health: PlainRoute = async (_req, res) => {
    const [failing, delivery] = await Promise.all([down(), deliveryReport(deps)]);
    // `down` names what does not answer, for the operator reading the probe; the delivery
    // backlog is reported, never a reason for 503 (src/readiness.ts).
    const body = failing.length === 0 ? { status: "ok" } : { status: "unavailable", down: failing };
    writeJson(res, failing.length === 0 ? 200 : 503, delivery ? { ...body, delivery } : body);
  };
  const sso = { authorize: ssoAuthorizeRoute(deps), callback: ssoCallbackRoute(deps) };
  const pages = pageRoutes(deps);
  return (path) => {
    if (path === "/healthz") return health;
    if (path === OPENAPI_PATH) return serveOpenApi;
    if (path === METRICS_PATH) return metrics;
    if (path === "/v1/auth/sso/authorize") return sso.authorize;
    if (path === "/v1/auth/sso/callback") return sso.callback;
    const jwks = JWKS_PATH.exec(path);
    if (jwks) return (_req, res, record) => serveJwks(deps, jwks[1], res, record.id);
    const discovery = OPENID_CONFIGURATION_PATH.exec(path);
    if (discovery) return (_req, res, record) => serveOpenidConfiguration(deps, discovery[1], res, record.id);
    return pages(path);
  };
}

function byPath(...routers: ConnectRouter[]): Map<string, UniversalHandler> {
  return new Map(routers.flatMap((router) => router.handlers.map((h) => [h.requestPath, h] as const)));
}
