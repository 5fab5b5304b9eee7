import { performance } from "node:perf_hooks";
import { Code, ConnectError, createContextValues } from "@connectrpc/connect";
import { universalRequestFromNodeRequest, universalResponseToNodeResponse } from "@connectrpc/connect-node";
import type { UniversalHandler } from "@connectrpc/connect/protocol";
import { newId } from "../crypto/ids.js";
import { kRequest, type RequestRecord } from "../interceptors/context.js";
import type { Logger } from "../log.js";
import { clientIp } from "./client-ip.js";
import { isConnectUnaryPost, serveConnectUnary } from "./connect-unary.js";
import { allowOriginOn, answerPreflight, isPreflight } from "./cors.js";
import { writeReasonError, type NodeResponse } from "./error-body.js";
import { serveRest, type NodeRequest } from "./rest-handler.js";
import { matchRestRoute, restVerbsFor, type RestRoute } from "./rest-routes.js";

export interface HttpHandlerOptions {
  /** RPC handlers by request path (`/gatehouse.auth.v1.AuthService/Login`). */
  rpc: ReadonlyMap<string, UniversalHandler>;
  rest: readonly RestRoute[];
  /** Plain GET routes outside the proto (health, JWKS, the SSO redirects), found by path. */
  http: (path: string) => PlainRoute | undefined;
  logger: Logger;
  trustedProxies: readonly string[];
  maxBodyBytes: number;
}

export type PlainRoute = (req: NodeRequest, res: NodeResponse, record: RequestRecord) => Promise<void>;

export interface HttpHandler {
  (req: NodeRequest, res: NodeResponse): void;
  /** Requests whose response has not finished yet. */
  inFlight(): number;
  /** From now on every response asks the client to close its connection. */
  drain(): void;
}

// The front door of every request on the port: request id, access log, CORS preflight,
// body size, then the RPC, REST or plain HTTP route.
export function createHttpHandler(options: HttpHandlerOptions): HttpHandler {
  let inFlight = 0;
  let draining = false;
  // The request line is built field by field below from values that are never secrets, so it
  // skips the redaction pass every other line gets (about 5 µs a line, a measurable share of a
  // VerifyToken).
  const accessLog = options.logger.child({}, { redact: [] });
  const handler = (req: NodeRequest, res: NodeResponse) => {
    const started = performance.now();
    const path = (req.url ?? "/").split("?", 1)[0];
    const record: RequestRecord = {
      id: newId("req"),
      ip: clientIp(req, options.trustedProxies),
      userAgent: String(req.headers["user-agent"] ?? ""),
      allowOrigin: (origin) => allowOriginOn(res, origin),
    };
    inFlight++;
    res.setHeader("x-request-id", record.id);
    if (draining && req.httpVersionMajor === 1) res.setHeader("connection", "close");
    res.once("close", () => {
      inFlight--;
      logRequest(accessLog, req, res, record, path, started);
    });
    dispatch(req, res, record, path).catch((error: unknown) => {
      if (ConnectError.from(error).code === Code.Canceled) return;
      options.logger.error({ request_id: record.id, err: error }, "request failed");
      if (!res.headersSent) writeReasonError(res, record.id, "INTERNAL_ERROR", "internal error");
      else res.end();
    });
  };

  async function dispatch(req: NodeRequest, res: NodeResponse, record: RequestRecord, path: string): Promise<void> {
    if (isPreflight(req)) return answerPreflight(req, res);
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > options.maxBodyBytes) {
      res.setHeader("connection", "close");
      return writeReasonError(res, record.id, "REQUEST_TOO_LARGE", `request body exceeds ${options.maxBodyBytes} bytes`, 413);
    }
    const contextValues = createContextValues().set(kRequest, record);
    const rpc = options.rpc.get(path);
    if (rpc) {
      varyOnOrigin(res);
      record.rpc = `${rpc.service.typeName}/${rpc.method.name}`;
      if (isConnectUnaryPost(req)) return serveConnectUnary(req, res, rpc, contextValues, record.id, options.maxBodyBytes);
      const uRes = await rpc(universalRequestFromNodeRequest(req, res, undefined, contextValues));
      return universalResponseToNodeResponse(uRes, res);
    }
    const plain = req.method === "GET" ? options.http(path) : undefined;
    if (plain) return plain(req, res, record);
    const match = matchRestRoute(options.rest, req.method ?? "", path);
    if (match) {
      varyOnOrigin(res);
      record.rpc = `${match.route.handler.service.typeName}/${match.route.handler.method.name}`;
      return serveRest(req, res, match, record.id, contextValues, options.maxBodyBytes);
    }
    // A known path asked with another method is 405 with the methods it takes, not 404: the
    // client has the right address and the wrong verb.
    const allowed = allowedMethods(path);
    if (allowed.length > 0) {
      res.setHeader("allow", allowed.join(", "));
      return writeReasonError(res, record.id, "METHOD_NOT_ALLOWED", `${req.method} is not allowed on ${path}; allowed: ${allowed.join(", ")}`, 405);
    }
    writeReasonError(res, record.id, "ROUTE_NOT_FOUND", `no route for ${req.method} ${path}`);
  }

  /** The methods a path is served with: its REST bindings, plus GET for the plain routes. */
  function allowedMethods(path: string): string[] {
    const verbs = new Set(restVerbsFor(options.rest, path));
    if (options.http(path)) verbs.add("GET");
    return [...verbs].sort();
  }

  return Object.assign(handler, {
    inFlight: () => inFlight,
    drain: () => {
      draining = true;
    },
  });
}

// RPC answers depend on Origin (allowed, refused, or named back), so a shared cache must not
// hand one origin's answer to another.
function varyOnOrigin(res: NodeResponse): void {
  res.setHeader("vary", "Origin");
}

// One line per request. Only the path is logged, never the query string, headers or body:
// those may carry tokens, codes and keys.
function logRequest(logger: Logger, req: NodeRequest, res: NodeResponse, record: RequestRecord, path: string, started: number) {
  const contentType = String(req.headers["content-type"] ?? "");
  const protocol = !record.rpc
    ? "http"
    : contentType.startsWith("application/grpc-web")
      ? "grpc-web"
      : contentType.startsWith("application/grpc")
        ? "grpc"
        : path.startsWith("/v1/")
          ? "rest"
          : "connect";
  // What the client really got: an answer cut off (the client left, or a shutdown's grace ran
  // out) is "aborted", with the status only if its headers went out.
  const complete = res.writableFinished;
  logger.info(
    {
      request_id: record.id,
      method: record.rpc ?? `${req.method} ${path}`,
      protocol,
      code: complete ? (record.code ?? statusCode(res)) : "aborted",
      reason: record.reason,
      status: complete || res.headersSent ? res.statusCode : 0,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
      ip: record.ip,
    },
    "request",
  );
}

function statusCode(res: NodeResponse): string {
  const grpcStatus = res.getHeader("grpc-status");
  if (grpcStatus !== undefined) return grpcStatus === "0" ? "ok" : `grpc_${String(grpcStatus)}`;
  return res.statusCode < 400 ? "ok" : `http_${res.statusCode}`;
}

