import { promises as dns, type LookupAddress } from "node:dns";
import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { AllowHosts } from "./allow-hosts.js";
import { unbracket } from "./allow-hosts.js";
import { isPublicAddress } from "./address-policy.js";

// The resolve-check-pin part of every request Gatehouse sends to a URL someone else chose
// (webhooks and hooks: post.ts; identity providers: request.ts). The hostname is resolved
// here and every address it resolves to must be public (or allowed by OUTBOUND_ALLOW_HOSTS);
// the connection then goes to those checked addresses only, through a `lookup` that answers
// them, so a name that resolves to a public address for the check and to 10.0.0.5 a moment
// later (DNS rebinding) still reaches the public one. TLS and the Host header keep the
// hostname. Redirects are never followed here: the answer is handed back as it came.

/** Resolves a hostname to all its addresses (dns.promises.lookup with all: true). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/**
 * Why a request was not sent: `reason` is what the person who chose the URL is shown, `detail`
 * what the server log may say. A name that does not resolve and a name that resolves to a
 * private address read the same in `reason`, so that whoever saves URLs cannot learn from the
 * answers which internal names exist; `detail` keeps the difference for the operator.
 */
export interface Refusal {
  reason: string;
  detail: string;
}

/** The one wording of "not a public host" a URL's owner sees. */
export const NOT_PUBLIC = "the host does not resolve to a public address";

/**
 * The addresses to connect to, each one allowed (see address-policy.ts), or why there are none.
 * All must pass, not one: the connection may use any of them.
 */
export async function checkedAddresses(
  target: URL,
  allow: AllowHosts,
  resolve: Resolver,
): Promise<LookupAddress[] | Refusal> {
  const literal = unbracket(target.hostname);
  const family = isIP(literal);
  // checkOutboundUrl already judged a literal, and Node connects to one without a lookup.
  if (family !== 0) return [{ address: literal, family }];
  let found: LookupAddress[];
  try {
    found = await resolve(target.hostname);
  } catch (err) {
    return { reason: NOT_PUBLIC, detail: `the host could not be resolved (${(err as Error).message})` };
  }
  if (found.length === 0) return { reason: NOT_PUBLIC, detail: "the host could not be resolved (no address)" };
  // A listed hostname may resolve anywhere: the operator named it.
  if (allow.allowsHostname(target.hostname)) return found;
  const plainHttp = target.protocol === "http:";
  for (const { address } of found) {
    if (allow.allowsAddress(address)) continue;
    // The address stays private: the URL's owner must not learn the service's internal DNS from it.
    if (!isPublicAddress(address)) return { reason: NOT_PUBLIC, detail: `the host resolves to ${address}` };
    // A DNS name over plain http passes the URL check only while some address is allowed.
    if (plainHttp) {
      const reason = "the URL must be https (the host is not in OUTBOUND_ALLOW_HOSTS)";
      return { reason, detail: `${reason}: it resolves to ${address}` };
    }
  }
  return found;
}

/** One request on a checked connection. */
export interface Exchange {
  method: string;
  /** Lower-case names; content-length is set here when there is a body. */
  headers: Record<string, string>;
  body?: Buffer;
  signal: AbortSignal;
  /** Bytes of the answer's body read at most; the connection is closed after them. */
  cap: number;
}

export type Answer =
  | { status: number; headers: IncomingHttpHeaders; bytes: Buffer; truncated: boolean }
  | { status: number; error: string };

/** The request itself: answers the status, the headers and up to `cap` bytes of the body (or the error). */
export function exchange(target: URL, addresses: LookupAddress[], request: Exchange): Promise<Answer> {
  return new Promise<Answer>((resolve) => {
    const headers = { ...request.headers };
    if (request.body !== undefined) headers["content-length"] = String(request.body.length);
    const outgoing = (target.protocol === "https:" ? https : http).request(target, {
      method: request.method,
      headers,
      // A connection per request: nothing pooled outlives the checks made for it.
      agent: false,
      lookup: pinnedLookup(addresses),
      signal: request.signal,
    });
    outgoing.on("error", (err) => resolve({ status: 0, error: describeError(err) }));
    outgoing.on("response", (response) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size > request.cap) {
          // Enough: the rest is neither read nor waited for.
          resolve({
            status,
            headers: response.headers,
            bytes: Buffer.concat(chunks).subarray(0, request.cap),
            truncated: true,
          });
          outgoing.destroy();
        }
      });
      response.on("end", () =>
        resolve({ status, headers: response.headers, bytes: Buffer.concat(chunks), truncated: false }),
      );
      response.on("error", (err) => resolve({ status, error: describeError(err) }));
      response.on("close", () => {
        if (!response.complete) resolve({ status, error: "the connection closed before the answer was complete" });
      });
    });
    outgoing.end(request.body);
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
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
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

/** A connection's failure in a few words. */
export function describeError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && code in ERROR_CODES) return ERROR_CODES[code];
  if (code?.startsWith("HPE_")) return "the answer is not valid HTTP";
  // TLS: certificate errors name the problem (expired, self-signed, wrong host), which is what
  // the admin needs to fix it.
  if (code !== undefined && (code.startsWith("ERR_TLS") || code.includes("CERT") || code.startsWith("ERR_SSL")))
    return `TLS failed: ${(err as Error).message}`;
  return err instanceof Error ? err.message : String(err);
}

export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
