import type { Http2ServerResponse } from "node:http2";
import { performance } from "node:perf_hooks";
import { Code, ConnectError, createContextValues, type ContextValues } from "@connectrpc/connect";
import { universalRequestFromNodeRequest, universalResponseToNodeResponse } from "@connectrpc/connect-node";
import type { UniversalHandler, UniversalServerResponse } from "@connectrpc/connect/protocol";
import { newId } from "../crypto/ids.js";
import { kRequest, type RequestRecord } from "../interceptors/context.js";
import { runInRequest, type Logger } from "../log.js";
import { observeRequest } from "../metrics/requests.js";
import { clientIp } from "./client-ip.js";
import { isConnectUnary, serveConnectUnary } from "./connect-unary.js";
import { allowOriginOn, answerPreflight, isPreflight } from "./cors.js";
import { writeReasonError, type NodeResponse } from "./error-body.js";
import { codeName } from "../interceptors/error-codes.js";
import { fixGrpcTrailer, fixGrpcWebBody, fromFramework, reasonOf } from "./framework-errors.js";
import { answerUnknownMethod } from "./grpc-unimplemented.js";
import { checkEnvelopeFlags } from "./compat/envelope-flags.js";
import { isUnencodableGrpcMessage } from "./compat/grpc-message-encoding.js";
import { clampTimeoutHeaders } from "./compat/timeout-overflow.js";
import { headersRefusal } from "./header-limits.js";
import {
  closeUnfinishedConnection,
  closeUnfinishedStream,
  ENVELOPE_HEADER_BYTES,
  envelopedProtocol,
  grpcStatusOnly,
  type Enveloped,
} from "./grpc-framing.js";
import type { ConnectLaneOptions } from "./lane/serve-connect.js";
import { serveGrpcLane, type GrpcLaneOptions } from "./lane/serve-grpc.js";
import type { LaneMethod } from "./lane/unary-methods.js";
import { serveRest, type NodeRequest } from "./rest-handler.js";
import { matchRestRoute, restVerbsFor, type RestRoute } from "./rest-routes.js";

export interface HttpHandlerOptions {
  /** RPC handlers by request path (`/gatehouse.auth.v1.AuthService/Login`). */
  rpc: ReadonlyMap<string, UniversalHandler>;
  rest: readonly RestRoute[];
  /** Plain GET routes outside the proto (health, JWKS, the SSO redirects), found by path. */
  http: (path: string) => PlainRoute | undefined;
  /** Plain POST routes a browser's form posts to (the SSO callback's form_post), found by path. */
  form?: (path: string) => PlainRoute | undefined;
  /** The projects' OpenID Provider routes (routes/oidc.ts), any method, found by path. */
  oidc?: (path: string) => PlainRoute | undefined;
  logger: Logger;
  trustedProxies: readonly string[];
  maxBodyBytes: number;
  /** Every unary RPC of `rpc` on the lean path (src/transport/lane), by request path: its Connect, gRPC and REST calls. */
  lane: ReadonlyMap<string, LaneMethod>;
  laneOptions: Omit<GrpcLaneOptions, "maxBodyBytes"> & ConnectLaneOptions;
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
// deadline headers, body size, then the RPC, REST or plain HTTP route.
export function createHttpHandler(options: HttpHandlerOptions): HttpHandler {
  // The lane is the one path of a unary call on Connect and REST: a method without one would
  // have nowhere to go.
  for (const [path, rpc] of options.rpc)
    if (rpc.method.methodKind === "unary" && !options.lane.has(path)) throw new Error(`${path} has no lane method`);
  const laneOptions = { ...options.laneOptions, maxBodyBytes: options.maxBodyBytes };
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
      acceptLanguage: String(req.headers["accept-language"] ?? "").slice(0, 256),
      allowOrigin: (origin) => allowOriginOn(res, origin),
    };
    inFlight++;
    res.setHeader("x-request-id", record.id);
    setDefaultHeaders(res);
    if (draining && req.httpVersionMajor === 1) res.setHeader("connection", "close");
    res.once("close", () => {
      inFlight--;
      logRequest(accessLog, req, res, record, path, started);
    });
    runInRequest(record.id, () => dispatch(req, res, record, path)).catch((error: unknown) => {
      if (ConnectError.from(error).code === Code.Canceled) return;
      options.logger.error({ request_id: record.id, err: error }, "request failed");
      if (!res.headersSent) writeReasonError(res, record.id, "INTERNAL_ERROR", "internal error");
      else res.end();
    });
  };

  async function dispatch(req: NodeRequest, res: NodeResponse, record: RequestRecord, path: string): Promise<void> {
    const headersRefused = headersRefusal(req);
    if (headersRefused) {
      if (req.httpVersionMajor === 1) res.setHeader("connection", "close");
      return writeReasonError(res, record.id, "HEADERS_TOO_LARGE", headersRefused, 431);
    }
    if (isPreflight(req)) return answerPreflight(req, res);
    clampTimeoutHeaders(req);
    const enveloped = envelopedProtocol(req);
    const declared = Number(req.headers["content-length"]);
    // A body declared over the cap is refused before a byte of it is read, and on HTTP/1.1 the
    // connection closes after the answer rather than reading the rest. gRPC and gRPC-Web hear
    // it in their own terms (RESOURCE_EXHAUSTED in the status, as from connect's readMaxBytes
    // for a message over the cap), not as an HTTP 413 their clients read as UNKNOWN; their cap
    // is the message's, so one message at the cap, in its envelope, still passes.
    if (Number.isFinite(declared) && declared > options.maxBodyBytes + (enveloped ? ENVELOPE_HEADER_BYTES : 0)) {
      if (req.httpVersionMajor === 1) res.setHeader("connection", "close");
      const message = `request body exceeds ${options.maxBodyBytes} bytes`;
      if (enveloped)
        return refuseEnveloped(req, res, enveloped, new ConnectError(message, Code.ResourceExhausted), record);
      return writeReasonError(res, record.id, "REQUEST_TOO_LARGE", message, 413);
    }
    const contextValues = createContextValues().set(kRequest, record);
    const rpc = options.rpc.get(path);
    if (rpc) {
      varyOnOrigin(res);
      record.rpc = `${rpc.service.typeName}/${rpc.method.name}`;
      const lane = options.lane.get(path);
      // Connect unary, POST or GET, and gRPC's unary binary calls take the lane; a stream, a
      // gRPC call with JSON and gRPC-Web are connect-node's (and so is what the gRPC lane
      // hands back: a malformed or oversized envelope).
      if (isConnectUnary(req) && (lane || req.method === "GET"))
        return serveConnectUnary(req, res, rpc, lane, contextValues, record.id, laneOptions);
      if (lane && enveloped === "grpc")
        return serveGrpcLane(req, res as Http2ServerResponse, lane, contextValues, record.id, laneOptions, (body) =>
          serveUniversal(req, res, rpc, contextValues, record.id, enveloped, body),
        );
      return serveUniversal(req, res, rpc, contextValues, record.id, enveloped);
    }
    // A gRPC client reads its status from the trailers; an HTTP 404 would reach it as UNKNOWN.
    if (enveloped) return answerUnknownMethod(req, res, enveloped, path, options.rpc.keys(), record);
    const plain = req.method === "GET" ? options.http(path) : req.method === "POST" ? options.form?.(path) : undefined;
    if (plain) return plain(req, res, record);
    const oidc = options.oidc?.(path);
    if (oidc) return oidc(req, res, record);
    const match = matchRestRoute(options.rest, req.method ?? "", path);
    if (match) {
      varyOnOrigin(res);
      record.rpc = `${match.route.handler.service.typeName}/${match.route.handler.method.name}`;
      const lane = options.lane.get(match.route.handler.requestPath);
      if (!lane) throw new Error(`no lane method for ${match.route.handler.requestPath}`);
      return serveRest(req, res, match, record.id, contextValues, laneOptions.maxBodyBytes, {
        method: lane,
        jsonOptions: laneOptions.jsonOptions,
      });
    }
    // A known path asked with another method is 405 with the methods it takes, not 404: the
    // client has the right address and the wrong verb.
    const allowed = allowedMethods(path);
    if (allowed.length > 0) {
      res.setHeader("allow", allowed.join(", "));
      return writeReasonError(
        res,
        record.id,
        "METHOD_NOT_ALLOWED",
        `${req.method} is not allowed on ${path}; allowed: ${allowed.join(", ")}`,
        405,
      );
    }
    writeReasonError(res, record.id, "ROUTE_NOT_FOUND", `no route for ${req.method} ${path}`);
  }

  /** The methods a path is served with: its REST bindings, plus GET for the plain routes and POST for the form ones. */
  function allowedMethods(path: string): string[] {
    const verbs = new Set(restVerbsFor(options.rest, path));
    if (options.http(path)) verbs.add("GET");
    if (options.form?.(path)) verbs.add("POST");
    return [...verbs].sort();
  }

  return Object.assign(handler, {
    inFlight: () => inFlight,
    drain: () => {
      draining = true;
    },
  });
}

/**
 * gRPC, gRPC-Web and whatever else connect-node's adapters serve, with the envelope flags
 * checked on the way in and framework errors put in the API's terms on the way out
 * (compat/envelope-flags.ts, framework-errors.ts).
 */
async function serveUniversal(
  req: NodeRequest,
  res: NodeResponse,
  rpc: UniversalHandler,
  contextValues: ContextValues,
  requestId: string,
  enveloped: Enveloped | undefined,
  /** The body from its first byte, when the lean path already read some of it. */
  body?: AsyncIterable<Uint8Array>,
): Promise<void> {
  const uReq = universalRequestFromNodeRequest(req, res, undefined, contextValues);
  if (body) uReq.body = body;
  if (enveloped) {
    uReq.body = checkEnvelopeFlags(uReq.body as AsyncIterable<Uint8Array>);
    closeUnfinishedStream(req);
  }
  let uRes: UniversalServerResponse;
  try {
    uRes = await rpc(uReq);
  } catch (error) {
    // A JSON decoding error the framework could not write as grpc-message (compat/grpc-message-encoding.ts).
    if (enveloped && isUnencodableGrpcMessage(error)) {
      closeUnfinishedConnection(req, res);
      const refused = fromFramework(
        new ConnectError("request message is not valid JSON", Code.InvalidArgument),
        requestId,
      );
      return universalResponseToNodeResponse(grpcStatusOnly(req, enveloped, refused), res);
    }
    throw error;
  }
  // An answer given before the body was all in (a message over the cap, a bad flag) ends an
  // HTTP/1.1 connection rather than leaving Node to read the rest.
  closeUnfinishedConnection(req, res);
  // The access log line names what the client got, as the error interceptor does for RPC errors.
  const record = contextValues.get(kRequest);
  const onFixed = (error: ConnectError) => {
    if (!record) return;
    record.code = codeName(error.code);
    record.reason = reasonOf(error);
  };
  // An early failure (parse, framing, size) has its status by now; later ones passed the interceptors.
  if (enveloped === "grpc" && uRes.trailer) {
    const fixed = fixGrpcTrailer(uRes.trailer, requestId);
    if (fixed) onFixed(fixed);
  }
  if (enveloped === "grpc-web" && uRes.body) uRes.body = fixGrpcWebBody(uRes.body, requestId, onFixed);
  return universalResponseToNodeResponse(uRes, res);
}

/**
 * An early gRPC or gRPC-Web refusal (the body declared over the cap), as a trailers-only
 * status in the API's terms; the HTTP/2 stream the client is still writing is closed after it
 * (an HTTP/1.1 connection already says `Connection: close`).
 */
function refuseEnveloped(
  req: NodeRequest,
  res: NodeResponse,
  enveloped: Enveloped,
  error: ConnectError,
  record: RequestRecord,
): Promise<void> {
  closeUnfinishedStream(req);
  const refused = fromFramework(error, record.id);
  record.code = codeName(refused.code);
  record.reason = reasonOf(refused);
  return universalResponseToNodeResponse(grpcStatusOnly(req, enveloped, refused), res);
}

/**
 * What every answer carries unless its route says otherwise: no MIME sniffing, a CSP that lets a
 * JSON answer load and frame nothing should a browser ever render it, and no caching, since
 * answers carry tokens, keys and personal data (JWKS sets its own public max-age). Answers
 * written before a request exists (client-errors.ts) carry them too.
 */
export const DEFAULT_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "cache-control": "no-store",
};

function setDefaultHeaders(res: NodeResponse): void {
  for (const [name, value] of Object.entries(DEFAULT_HEADERS)) res.setHeader(name, value);
}

// RPC answers depend on Origin (allowed, refused, or named back), so a shared cache must not
// hand one origin's answer to another.
function varyOnOrigin(res: NodeResponse): void {
  res.setHeader("vary", "Origin");
}

// One line per request, and the request counted in the metrics under the same names. Only the
// path is logged, never the query string, headers or body: those may carry tokens, codes and keys.
function logRequest(
  logger: Logger,
  req: NodeRequest,
  res: NodeResponse,
  record: RequestRecord,
  path: string,
  started: number,
) {
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
  const code = complete ? (record.code ?? statusCode(res)) : "aborted";
  const durationMs = performance.now() - started;
  logger.info(
    {
      request_id: record.id,
      method: record.rpc ?? `${req.method} ${path}`,
      protocol,
      code,
      reason: record.reason,
      status: complete || res.headersSent ? res.statusCode : 0,
      duration_ms: Math.round(durationMs * 100) / 100,
      ip: record.ip,
    },
    "request",
  );
  observeRequest(record.rpc, protocol, code, record.reason, durationMs / 1000);
}

function statusCode(res: NodeResponse): string {
  const grpcStatus = res.getHeader("grpc-status");
  if (grpcStatus !== undefined) return grpcStatus === "0" ? "ok" : `grpc_${String(grpcStatus)}`;
  return res.statusCode < 400 ? "ok" : `http_${res.statusCode}`;
}
