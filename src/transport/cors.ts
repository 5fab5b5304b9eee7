import type { NodeResponse } from "./error-body.js";
import type { NodeRequest } from "./rest-handler.js";

// Preflights are answered for any origin (the project is not known before the API key is
// checked); the real answer names the origin only when the project allows it (see the
// credential interceptor), so a browser on another origin cannot read the response.
const ALLOW_HEADERS = [
  "authorization",
  "content-type",
  "x-service-key",
  "x-user-agent",
  "x-grpc-web",
  "grpc-timeout",
  "connect-protocol-version",
  "connect-timeout-ms",
  "connect-accept-encoding",
  "connect-content-encoding",
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
