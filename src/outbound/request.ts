import type { AllowHosts } from "./allow-hosts.js";
import {
  checkedAddresses,
  exchange,
  formatSeconds,
  systemResolver,
  untilAborted,
  describeError,
  type Resolver,
} from "./guarded-connection.js";
import { checkOutboundUrl } from "./url-check.js";

// Any request (GET or POST, any headers and body) to a URL someone else chose, under the rules
// of webhooks and hooks (guarded-connection.ts): https, public addresses only unless
// OUTBOUND_ALLOW_HOSTS says otherwise, the connection pinned to the checked addresses, no
// redirect followed, one deadline from resolving to the last byte, the answer read up to a cap.
// guardedFetch wraps it as a fetch-compatible function, for libraries that take one
// (openid-client's customFetch): identity providers are reached through it and nothing else.

export interface RequestOptions {
  /** The deadline for the whole exchange, from resolving the name to the last byte read. */
  timeoutMs: number;
  allow: AllowHosts;
  /** An answer whose body is longer is a failure, not read further. */
  maxBodyBytes: number;
  /** The resolver; the system's unless a test sets one. */
  resolve?: Resolver;
  /** Added to every request that does not set its own. */
  userAgent?: string;
}

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** The caller's own abort (a library's timeout); the deadline applies as well. */
  signal?: AbortSignal | null;
}

export interface OutboundAnswer {
  status: number;
  /** Each header once (repeated ones joined with ", "; set-cookie is dropped). */
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Why a request got no usable answer. `message` (= `reason`) is what may be shown to whoever
 * chose the URL; `detail` is for the server log only.
 */
export class OutboundFailure extends Error {
  constructor(
    readonly reason: string,
    readonly detail: string = reason,
    /** The HTTP status when the failure is the answer itself (a redirect, a body too large); else 0. */
    readonly status = 0,
  ) {
    super(reason);
    this.name = "OutboundFailure";
  }
}

/** Sends one request; answers any status but a redirect, or throws an OutboundFailure. */
export async function outboundRequest(
  url: string,
  request: OutboundRequest,
  options: RequestOptions,
): Promise<OutboundAnswer> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const signal = request.signal ? AbortSignal.any([deadline.signal, request.signal]) : deadline.signal;
  // The deadline's own words, or the caller's abort (a library's shorter timeout).
  const timedOut = () =>
    new OutboundFailure(
      deadline.signal.aborted ? `timed out after ${formatSeconds(options.timeoutMs)}` : "the request was aborted",
    );
  try {
    const refusal = checkOutboundUrl(url, options.allow);
    if (refusal !== null) throw new OutboundFailure(`the URL ${refusal}`);
    const target = new URL(url);
    const addresses = await untilAborted(
      checkedAddresses(target, options.allow, options.resolve ?? systemResolver),
      signal,
    );
    if (addresses === undefined) throw timedOut();
    if (!Array.isArray(addresses)) throw new OutboundFailure(addresses.reason, addresses.detail);
    const headers = Object.fromEntries(
      Object.entries(request.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
    );
    if (options.userAgent !== undefined) headers["user-agent"] ??= options.userAgent;
    const answer = await exchange(target, addresses, {
      method: request.method ?? "GET",
      headers,
      body: request.body === undefined ? undefined : Buffer.from(request.body),
      signal,
      cap: options.maxBodyBytes,
    });
    if ("error" in answer) throw signal.aborted ? timedOut() : new OutboundFailure(answer.error);
    if (answer.status >= 300 && answer.status < 400)
      throw new OutboundFailure("redirects are not followed", `answered HTTP ${answer.status}`, answer.status);
    if (answer.truncated)
      throw new OutboundFailure(`the answer is larger than ${options.maxBodyBytes} bytes`, undefined, answer.status);
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers))
      if (value !== undefined && name !== "set-cookie") flat[name] = Array.isArray(value) ? value.join(", ") : value;
    return { status: answer.status, headers: flat, body: answer.bytes };
  } catch (err) {
    if (err instanceof OutboundFailure) throw err;
    throw signal.aborted ? timedOut() : new OutboundFailure(describeError(err));
  } finally {
    clearTimeout(timer);
  }
}

/** What a fetch-compatible caller passes: openid-client's CustomFetchOptions, or fetch's RequestInit. */
export interface FetchInit {
  method?: string;
  headers?: ConstructorParameters<typeof Headers>[0];
  body?: string | Uint8Array | ArrayBuffer | URLSearchParams | ReadableStream | null;
  signal?: AbortSignal | null;
  redirect?: string;
}

export type GuardedFetch = (url: string | URL, init?: FetchInit) => Promise<Response>;

/**
 * A fetch-compatible function that sends through outboundRequest: refusals, failures,
 * redirects and answers over the cap reject with an OutboundFailure (a fetch would reject a
 * network error likewise); any other answer resolves as a Response holding the body read.
 */
export function guardedFetch(options: RequestOptions): GuardedFetch {
  return async (url, init = {}) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    let body: string | Uint8Array | undefined;
    if (init.body instanceof URLSearchParams) {
      body = init.body.toString();
      headers["content-type"] ??= "application/x-www-form-urlencoded;charset=UTF-8";
    } else if (init.body instanceof ArrayBuffer) body = new Uint8Array(init.body);
    else if (typeof init.body === "string" || init.body instanceof Uint8Array) body = init.body;
    else if (init.body != null) throw new OutboundFailure("a streamed request body is not supported");
    const answer = await outboundRequest(
      String(url),
      { method: init.method ?? "GET", headers, body, signal: init.signal },
      options,
    );
    // A Response cannot carry a body with these statuses, nor be made with one outside 200-599.
    const bodiless = answer.status === 204 || answer.status === 205 || answer.status === 304;
    if (answer.status < 200 || answer.status > 599)
      throw new OutboundFailure(`answered HTTP ${answer.status}`, undefined, answer.status);
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      try {
        responseHeaders.set(name, value);
      } catch {
        // A header value fetch would not accept either: left out.
      }
    }
    return new Response(bodiless ? null : new Uint8Array(answer.body), {
      status: answer.status,
      headers: responseHeaders,
    });
  };
}
