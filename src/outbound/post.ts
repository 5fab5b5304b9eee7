import { performance } from "node:perf_hooks";
import type { AllowHosts } from "./allow-hosts.js";
import {
  checkedAddresses,
  describeError,
  exchange,
  formatSeconds,
  systemResolver,
  untilAborted,
  type Resolver,
} from "./guarded-connection.js";
import { checkOutboundUrl } from "./url-check.js";

export type { Resolver } from "./guarded-connection.js";

// One POST of a JSON body to a webhook or hook URL, with the guards a URL chosen by a project
// admin needs (guarded-connection.ts: resolved, checked and pinned to public addresses, no
// redirects). One deadline covers resolving, connecting, the headers and the body; the answer
// is read up to a cap and the connection closed after it. Nothing is thrown: every outcome is
// a PostResult, for the deliveries list and the hook's failure policy.

export const USER_AGENT = "Gatehouse-Webhooks/1";
export const DEFAULT_EXCERPT_BYTES = 256;
/** The cap a hook's JSON answer is read to (maxBodyBytes). */
export const HOOK_BODY_BYTES = 64 * 1024;

export interface PostOptions {
  /** The deadline for the whole exchange, from resolving the name to the last byte read. */
  timeoutMs: number;
  allow: AllowHosts;
  /** How much of the answer `excerpt` keeps; 256 bytes by default. */
  maxExcerptBytes?: number;
  /** Set to keep the answer in `body`, up to this many bytes; a longer answer is a failure. */
  maxBodyBytes?: number;
  /** The resolver; the system's (getaddrinfo, as a connection would use) unless a test sets one. */
  resolve?: Resolver;
}

export interface PostResult {
  /** A 2xx answer (and, with maxBodyBytes, a body within the cap). */
  ok: boolean;
  /** The HTTP status; 0 when there was no answer. */
  status: number;
  latencyMs: number;
  /** Why it failed, as a short sentence; "" when ok. What the project admin is shown. */
  error: string;
  /** For the server log: more than `error` says when there is more (which address a name resolved to). */
  detail?: string;
  /** The start of the answer's body as text (at most maxExcerptBytes bytes); "" when none. */
  excerpt: string;
  /** The answer's body, when maxBodyBytes asked for it and it was within the cap. */
  body?: string;
}

/** POSTs `body` (JSON text) to `url` with `headers` added; see above for the guards. */
export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<PostResult> {
  const started = performance.now();
  const excerptBytes = options.maxExcerptBytes ?? DEFAULT_EXCERPT_BYTES;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const timedOut = `timed out after ${formatSeconds(options.timeoutMs)}`;
  const failure = (error: string, status = 0, excerpt = "", detail?: string): PostResult => ({
    ok: false,
    status,
    latencyMs: elapsed(started),
    error,
    excerpt,
    ...(detail !== undefined && { detail }),
  });
  try {
    const refusal = checkOutboundUrl(url, options.allow);
    if (refusal !== null) return failure(`the URL ${refusal}`);
    const target = new URL(url);
    const addresses = await untilAborted(
      checkedAddresses(target, options.allow, options.resolve ?? systemResolver),
      deadline.signal,
    );
    if (addresses === undefined) return failure(timedOut);
    if (!Array.isArray(addresses)) return failure(addresses.reason, 0, "", addresses.detail);
    const answer = await exchange(target, addresses, {
      method: "POST",
      headers: {
        ...lowerCased(headers),
        "content-type": "application/json",
        "user-agent": USER_AGENT,
      },
      body: Buffer.from(body),
      signal: deadline.signal,
      cap: Math.max(excerptBytes, options.maxBodyBytes ?? 0),
    });
    if ("error" in answer) return failure(deadline.signal.aborted ? timedOut : answer.error, answer.status);
    const excerpt = textOf(answer.bytes.subarray(0, excerptBytes));
    if (answer.status >= 300 && answer.status < 400)
      return failure("redirects are not followed", answer.status, excerpt);
    if (answer.status < 200 || answer.status >= 300)
      return failure(`answered HTTP ${answer.status}`, answer.status, excerpt);
    const result: PostResult = { ok: true, status: answer.status, latencyMs: elapsed(started), error: "", excerpt };
    if (options.maxBodyBytes !== undefined) {
      if (answer.truncated || answer.bytes.length > options.maxBodyBytes)
        return failure(`the answer is larger than ${options.maxBodyBytes} bytes`, answer.status, excerpt);
      result.body = answer.bytes.toString("utf8");
    }
    return result;
  } catch (err) {
    return failure(deadline.signal.aborted ? timedOut : describeError(err));
  } finally {
    clearTimeout(timer);
  }
}

/** Text of a prefix of the body; a character cut by the cap is dropped, not replaced. */
function textOf(bytes: Buffer): string {
  return bytes.toString("utf8").replace(/\uFFFD+$/, "");
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
