import type { NodeResponse } from "./error-body.js";
import type { NodeRequest } from "./rest-handler.js";

// Preflights are answered for any origin: a preflight carries no API key, so the project and
// its origins are not known yet. The real request is where the origin is judged (the
// credential interceptor refuses a foreign one before any work), so a permissive preflight
// lets nothing run; it only lets the browser send the request that will be refused.
//
// The headers are the ones browsers really send: ours, Connect's and gRPC-Web's, and the
// tracing headers that instrumented front ends add to every fetch (W3C trace context,
// baggage, Sentry). A preflight that leaves one out fails the whole call in the browser.
const ALLOW_HEADERS = [
  "authorization",
  "content-type",
  "x-service-key",
  "x-user-agent",
  "x-grpc-web",
  "x-request-id",
  "grpc-timeout",
  "grpc-accept-encoding",
  "grpc-encoding",
  "connect-protocol-version",
  "connect-timeout-ms",
  "connect-accept-encoding",
  "connect-content-encoding",
  "traceparent",
  "tracestate",
  "baggage",
  "sentry-trace",
].join(", ");

export const EXPOSE_HEADERS = [
  "x-request-id",
  "retry-after",
  "grpc-status",
  "grpc-message",
  "grpc-status-details-bin",
  "content-encoding",
  "connect-content-encoding",
].join(", ");

export function isPreflight(req: NodeRequest): boolean {
  return req.method === "OPTIONS" && typeof req.headers["access-control-request-method"] === "string";
}

export function answerPreflight(req: NodeRequest, res: NodeResponse): void {
  res.writeHead(204, {
    "access-control-allow-origin": String(req.headers.origin ?? "*"),
    "access-control-allow-methods": "GET, POST, PATCH, DELETE, OPTIONS",
    "access-control-allow-headers": ALLOW_HEADERS,
    // Two hours: the most Chromium keeps a preflight, so a page pays for one per endpoint.
    "access-control-max-age": "7200",
    vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
  });
  res.end();
}

export function allowOriginOn(res: NodeResponse, origin: string): void {
  if (res.headersSent) return;
  res.setHeader("access-control-allow-origin", origin);
  res.setHeader("access-control-expose-headers", EXPOSE_HEADERS);
}
