import type { IncomingMessage, ServerResponse } from "node:http";
import { inject } from "light-my-request";
import type { HttpHandler } from "../../src/transport/http-handler.js";
import { connectPath, type HttpAnswer } from "./clients.js";

/**
 * An HTTP request handed to the server's request handler in memory, as Fastify's `inject` does
 * (light-my-request): the same routing, REST translation, interceptors, handlers and answer as
 * over the port, with no socket, HTTP parser or client. The depth for flows with their REST
 * contract; the port itself is tested on the wire (docs/testing.md, "Three depths").
 */
export async function injectHttp(
  handle: HttpHandler,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<HttpAnswer> {
  const hasBody = init.body !== undefined;
  const res = await inject(handleInMemory(handle), {
    method: (init.method ?? (hasBody ? "POST" : "GET")) as "GET",
    url: path,
    // What fetch sends unless told otherwise (test/helpers/clients.ts `http`), so the service
    // sees the same request either way.
    headers: {
      "user-agent": "node",
      ...(hasBody ? { "content-type": "application/json" } : {}),
      ...init.headers,
    },
    payload: !hasBody ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
    remoteAddress: "127.0.0.1",
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers))
    for (const one of [value ?? []].flat()) headers.append(name, String(one));
  let body: unknown = res.body;
  try {
    body = res.body === "" ? undefined : JSON.parse(res.body);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.statusCode, headers, body };
}

/** A Connect protocol unary call with JSON (POST /<service>/<Method>), injected in memory. */
export function injectConnect(
  handle: HttpHandler,
  service: "account" | "auth",
  method: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  const path = connectPath(service, method);
  return injectHttp(handle, path, { body, headers: { "connect-protocol-version": "1", ...headers } });
}

/**
 * The handler logs an answer as complete once its response is `writableFinished`: ended and
 * drained to the socket. An injected response has no socket to drain to, so it counts as
 * finished once ended; otherwise its access log line and metrics would say "aborted".
 */
function handleInMemory(handle: HttpHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    Object.defineProperty(res, "writableFinished", { get: () => res.writableEnded });
    handle(req, res);
  };
}
