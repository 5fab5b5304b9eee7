import { promises as dns, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { performance } from "node:perf_hooks";
import type { AllowHosts } from "./allow-hosts.js";
import { unbracket } from "./allow-hosts.js";
import { isPublicAddress } from "./address-policy.js";
import { checkOutboundUrl } from "./url-check.js";

// One POST of a JSON body to a webhook or hook URL, with the guards a URL chosen by a project
// admin needs. The hostname is resolved here and every address it resolves to must be public
// (or allowed by OUTBOUND_ALLOW_HOSTS); the connection then goes to those checked addresses
// only, through a `lookup` that answers them, so a name that resolves to a public address for
// the check and to 10.0.0.5 a moment later (DNS rebinding) still reaches the public one. TLS
// and the Host header keep the hostname. Redirects are not followed (a 3xx could point
// anywhere); one deadline covers resolving, connecting, the headers and the body; the answer
// is read up to a cap and the connection closed after it. Nothing is thrown: every outcome is
// a PostResult, for the deliveries list and the hook's failure policy.

export const USER_AGENT = "Gatehouse-Webhooks/1";
export const DEFAULT_EXCERPT_BYTES = 256;
/** The cap a hook's JSON answer is read to (maxBodyBytes). */
export const HOOK_BODY_BYTES = 64 * 1024;

/** Resolves a hostname to all its addresses (dns.promises.lookup with all: true). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

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
  /** Why it failed, as a short sentence; "" when ok. */
  error: string;
  /** The start of the answer's body as text (at most maxExcerptBytes bytes); "" when none. */
  excerpt: string;
  /** The answer's body, when maxBodyBytes asked for it and it was within the cap. */
  body?: string;
}

const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

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
  const failure = (error: string, status = 0, excerpt = ""): PostResult => ({
    ok: false,
    status,
    latencyMs: elapsed(started),
    error,
    excerpt,
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
    if (typeof addresses === "string") return failure(addresses);
    const answer = await exchange(target, addresses, body, headers, {
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
    return failure(deadline.signal.aborted ? timedOut : describe(err));
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The addresses to connect to, each one allowed (see address-policy.ts), or why there are none.
 * All must pass, not one: the connection may use any of them.
 */
async function checkedAddresses(target: URL, allow: AllowHosts, resolve: Resolver): Promise<LookupAddress[] | string> {
  const literal = unbracket(target.hostname);
  const family = isIP(literal);
  // checkOutboundUrl already judged a literal, and Node connects to one without a lookup.
  if (family !== 0) return [{ address: literal, family }];
  const found = await resolveOrReason(target.hostname, resolve);
  // A listed hostname may resolve anywhere: the operator named it.
  if (typeof found === "string" || allow.allowsHostname(target.hostname)) return found;
  const plainHttp = target.protocol === "http:";
  for (const { address } of found) {
    if (allow.allowsAddress(address)) continue;
    // A DNS name over plain http passes the URL check only while some address is allowed.
    if (plainHttp) return "the URL must be https (the host is not in OUTBOUND_ALLOW_HOSTS)";
    // The address stays private: an admin must not learn the service's internal DNS from it.
    if (!isPublicAddress(address)) return "the host resolves to a private address";
  }
  return found;
}

async function resolveOrReason(hostname: string, resolve: Resolver): Promise<LookupAddress[] | string> {
  try {
    const found = await resolve(hostname);
    return found.length > 0 ? found : "the host could not be resolved";
  } catch {
    return "the host could not be resolved";
  }
}

type Answer = { status: number; bytes: Buffer; truncated: boolean } | { status: number; error: string };

/** The request itself: answers the status and up to `cap` bytes of the body (or the error). */
function exchange(
  target: URL,
  addresses: LookupAddress[],
  body: string,
  headers: Record<string, string>,
  { signal, cap }: { signal: AbortSignal; cap: number },
): Promise<Answer> {
  return new Promise<Answer>((resolve) => {
    const request = (target.protocol === "https:" ? https : http).request(target, {
      method: "POST",
      headers: {
        ...lowerCased(headers),
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(body)),
        "user-agent": USER_AGENT,
      },
      // A connection per request: nothing pooled outlives the checks made for it.
      agent: false,
      lookup: pinnedLookup(addresses),
      signal,
    });
    request.on("error", (err) => resolve({ status: 0, error: describe(err) }));
    request.on("response", (response) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size > cap) {
          // Enough: the rest is neither read nor waited for.
          resolve({ status, bytes: Buffer.concat(chunks).subarray(0, cap), truncated: true });
          request.destroy();
        }
      });
      response.on("end", () => resolve({ status, bytes: Buffer.concat(chunks), truncated: false }));
      response.on("error", (err) => resolve({ status, error: describe(err) }));
      response.on("close", () => {
        if (!response.complete) resolve({ status, error: "the connection closed before the answer was complete" });
      });
    });
    request.end(body);
  });
}

/** Answers the checked addresses for the request's hostname, whatever DNS says by now. */
function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    // With autoSelectFamily (Node 20's default) net asks for all addresses and tries them in turn.
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
}

/** Resolves `promise`, or to undefined once `signal` aborts, whichever is first. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

const ERROR_CODES: Record<string, string> = {
  ECONNREFUSED: "the connection was refused",
  ECONNRESET: "the connection was reset",
  EHOSTUNREACH: "the host is unreachable",
  ENETUNREACH: "the network is unreachable",
  EPIPE: "the connection was closed while sending",
  HPE_HEADER_OVERFLOW: "the answer's headers are too large",
};

function describe(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && code in ERROR_CODES) return ERROR_CODES[code];
  if (code?.startsWith("HPE_")) return "the answer is not valid HTTP";
  // TLS: certificate errors name the problem (expired, self-signed, wrong host), which is what
  // the admin needs to fix it.
  if (code !== undefined && (code.startsWith("ERR_TLS") || code.includes("CERT") || code.startsWith("ERR_SSL")))
    return `TLS failed: ${(err as Error).message}`;
  return err instanceof Error ? err.message : String(err);
}

/** Text of a prefix of the body; a character cut by the cap is dropped, not replaced. */
function textOf(bytes: Buffer): string {
  return bytes.toString("utf8").replace(/\uFFFD+$/, "");
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
