import { createConnectRouter, type ConnectRouter } from "@connectrpc/connect";
import type { UniversalHandler } from "@connectrpc/connect/protocol";
import { AccountService } from "../gen/gatehouse/account/v1/account_pb.js";
import { AuthService } from "../gen/gatehouse/auth/v1/auth_pb.js";
import { Health } from "../gen/grpc/health/v1/health_pb.js";
import type { FlowDeps } from "./flows/deps.js";
import { apiRouter, MAX_BODY_BYTES, ROUTER_LIMITS, type ServerDeps } from "./api-router.js";
import { healthHandlers } from "./handlers/health.js";
import { deliveryReport, dependenciesDown, undeliverableReport, type Dependency } from "./readiness.js";
import { METRICS_PATH, metricsRoute } from "./metrics/route.js";
import { writeJson } from "./transport/error-body.js";
import { createHttpHandler, type PlainRoute } from "./transport/http-handler.js";
import { serveJwks } from "./routes/jwks.js";
import { oidcRoutes } from "./routes/oidc.js";
import { OPENAPI_PATH, openApiRoute } from "./routes/openapi.js";
import { pageRoutes } from "./pages-route/routes.js";
import { serveReflection } from "./transport/reflection.js";
import { ssoAuthorizeRoute, ssoCallbackRoute, ssoFormRoutes } from "./routes/sso.js";
import { createOnePortServer, type OnePortServer } from "./transport/one-port.js";
import { compileRestRoutes } from "./transport/rest-routes.js";
import { laneMethods } from "./transport/lane/unary-methods.js";

export interface GatehouseServer extends OnePortServer {
  /**
   * Readiness fails from now on, while the port goes on serving: the start of a shutdown, before
   * the drain (SHUTDOWN_DELAY_MS, main.ts). close() does it too.
   */
  unready(): void;
}

// One port: Connect, gRPC and gRPC-Web from the routers, REST from the same handlers'
// google.api.http options, plus plain HTTP routes.
export function createGatehouseServer(deps: ServerDeps): GatehouseServer {
  const { options, routes, services } = apiRouter(deps);
  const api = createConnectRouter(options);
  routes(api);
  // Health checks and reflection need no credential, so they live outside the API's interceptor chain.
  const health = createConnectRouter(ROUTER_LIMITS);
  const down = () => dependenciesDown(deps);
  const isHealthy = async () => (await down()).length === 0;
  const shutdown = new AbortController();
  const healthImpl = healthHandlers({
    isHealthy,
    services: [AccountService.typeName, AuthService.typeName],
    shutdown: shutdown.signal,
  });
  health.service(Health, healthImpl);
  serveReflection(health, [AccountService, AuthService, Health]);
  const metrics = metricsRoute(deps);

  const handler = createHttpHandler({
    rpc: byPath(api, health),
    rest: compileRestRoutes(api.handlers),
    http: plainRoutes(deps, down, shutdown.signal, metrics.route),
    form: ssoFormRoutes(deps),
    oidc: oidcRoutes(deps),
    logger: deps.logger,
    trustedProxies: deps.config.trustedProxies,
    maxBodyBytes: MAX_BODY_BYTES,
    // Every unary RPC, each with its router's interceptors (the health checks have none).
    lane: new Map([...laneMethods(services, options.interceptors ?? []), ...laneMethods([[Health, healthImpl]], [])]),
    laneOptions: {
      acceptCompression: ROUTER_LIMITS.acceptCompression,
      maxTimeoutMs: ROUTER_LIMITS.maxTimeoutMs,
      jsonOptions: ROUTER_LIMITS.jsonOptions,
    },
  });
  const server = createOnePortServer(handler);
  // Health watchers hear NOT_SERVING and their streams end before the server waits for requests in flight.
  return {
    ...server,
    unready: () => shutdown.abort(),
    close: (graceMs) => (shutdown.abort(), server.close(graceMs).finally(metrics.close)),
  };
}

const JWKS_PATH = /^\/v1\/auth\/(lp_[0-9a-z]{26})\/\.well-known\/jwks\.json$/;

function plainRoutes(
  deps: FlowDeps,
  down: () => Promise<Dependency[]>,
  stopping: AbortSignal,
  metrics: PlainRoute,
): (path: string) => PlainRoute | undefined {
  const health: PlainRoute = async (_req, res) => {
    // Shutting down: out of rotation at once, whatever the dependencies say.
    if (stopping.aborted) return writeJson(res, 503, { status: "stopping" });
    const [failing, delivery, undeliverable] = await Promise.all([
      down(),
      deliveryReport(deps),
      undeliverableReport(deps),
    ]);
    // `down` names what does not answer, for the operator reading the probe; the delivery
    // backlog and the SMS nothing here can send are reported, never a reason for 503 (src/readiness.ts).
    const body = failing.length === 0 ? { status: "ok" } : { status: "unavailable", down: failing };
    writeJson(res, failing.length === 0 ? 200 : 503, {
      ...body,
      ...(delivery && { delivery }),
      ...(undeliverable && { undeliverable }),
    });
  };
  const sso = { authorize: ssoAuthorizeRoute(deps), callback: ssoCallbackRoute(deps) };
  const pages = pageRoutes(deps);
  const openapi = openApiRoute(deps.config.publicUrl);
  return (path) => {
    if (path === "/healthz") return health;
    if (path === OPENAPI_PATH) return openapi;
    if (path === METRICS_PATH) return metrics;
    if (path === "/v1/auth/sso/authorize") return sso.authorize;
    if (path === "/v1/auth/sso/callback") return sso.callback;
    const jwks = JWKS_PATH.exec(path);
    if (jwks) return (_req, res, record) => serveJwks(deps, jwks[1], res, record.id);
    return pages(path);
  };
}

function byPath(...routers: ConnectRouter[]): Map<string, UniversalHandler> {
  return new Map(routers.flatMap((router) => router.handlers.map((h) => [h.requestPath, h] as const)));
}
