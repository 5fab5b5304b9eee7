import fc from "fast-check";
import {
  framedBody,
  jsonBody,
  messageJson,
  nastyString,
  protoBody,
  RPCS,
  stringify,
  type Framed,
  type Rpc,
} from "./arbitraries.js";

// One generated request: plain data (so a failure prints as it was sent), then turned into
// bytes on the wire by the test.

export type Protocol = "rest" | "connect-json" | "connect-proto" | "grpc-web" | "grpc";

/** Which credentials a request carries: valid ones reach the handlers, not just the credential check. */
export type Credentials = "none" | "valid" | "valid+user" | "garbage";

export interface FuzzRequest {
  protocol: Protocol;
  rpc: string;
  credentials: Credentials;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** For gRPC and gRPC-Web: what the frame is, and whether the spec makes the answer INTERNAL. */
  framing?: Framed;
}

const JSON_TYPES = [
  "application/json",
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=utf-16",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
  "application/proto",
  "application/grpc",
  "",
];
const XFF = [
  "",
  "203.0.113.7",
  "198.51.100.1, 10.0.0.1",
  "not-an-ip",
  "::1",
  "999.999.999.999",
  "1.2.3.4".repeat(200),
  "' OR 1=1 --",
  "2001:db8::1",
];

const credentials = fc.constantFrom<Credentials>(
  "none",
  "valid",
  "valid",
  "valid",
  "valid+user",
  "valid+user",
  "garbage",
);
const extraHeaders = fc.record(
  {
    "x-forwarded-for": fc.constantFrom(...XFF),
    "user-agent": fc.oneof(
      fc.constantFrom("", "Mozilla/5.0", "x".repeat(4000)),
      fc.string({ maxLength: 30, unit: "grapheme-ascii" }),
    ),
    "content-encoding": fc.constantFrom("gzip", "br", "deflate", "zstd", "identity"),
  },
  { requiredKeys: [] },
);

export function fuzzRequest(): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(
      fc.constantFrom(...RPCS),
      fc.constantFrom<Protocol>(
        "rest",
        "rest",
        "connect-json",
        "connect-json",
        "connect-proto",
        "grpc-web",
        "grpc",
        "grpc",
      ),
    )
    .chain(([rpc, protocol]) => {
      switch (protocol) {
        case "rest":
          return restRequest(rpc);
        case "connect-json":
          return connectJson(rpc);
        case "connect-proto":
          return connectProto(rpc);
        case "grpc-web":
          return grpcWeb(rpc);
        case "grpc":
          return grpc(rpc);
      }
    });
}

function restRequest(rpc: Rpc): fc.Arbitrary<FuzzRequest> {
  if (rpc.rest.length === 0) return connectJson(rpc);
  return fc
    .record({
      binding: fc.constantFrom(...rpc.rest),
      params: fc.array(pathValue, { minLength: 4, maxLength: 4 }),
      query: messageJson(rpc.method.input),
      body: jsonBody(rpc.method.input),
      verb: fc.constantFrom("same", "same", "same", "same", "same", "same", "PUT", "HEAD", "OPTIONS", "TRACE"),
      contentType: fc.constantFrom(...JSON_TYPES),
      credentials,
      extra: extraHeaders,
    })
    .map(({ binding, params, query, body, verb, contentType, credentials, extra }) => {
      let i = 0;
      const path = binding.template.replace(/\{[a-z_]+\}/g, () => params[i++ % params.length]);
      const search = binding.body === "*" ? "" : queryString(query);
      const method = verb === "same" ? binding.verb : verb;
      const hasBody = method === "POST" || method === "PATCH";
      return {
        protocol: "rest",
        rpc: rpcName(rpc),
        credentials,
        method,
        path: path + search,
        headers: { ...restHeaders(extra, hasBody), ...(hasBody && contentType ? { "content-type": contentType } : {}) },
        body: hasBody ? body : undefined,
      } satisfies FuzzRequest;
    });
}

/** What lands in a `{id}` path segment: encoded text, or raw bytes a URL parser might choke on. */
const pathValue = fc.oneof(
  { weight: 4, arbitrary: nastyString.map(encodePathSegment) },
  {
    weight: 1,
    arbitrary: fc.constantFrom("%00", "%zz", "%", "%ED%A0%80", "%C3%28", "..", ".", "a%2Fb", "usr_", "x".repeat(3000)),
  },
);

function encodePathSegment(value: string): string {
  const text = value.startsWith("\u0001") ? "x".repeat(2000) : value;
  try {
    return encodeURIComponent(text) || "%20";
  } catch {
    return "%ED%A0%80"; // a lone surrogate, as its UTF-8 bytes would be
  }
}

function queryString(json: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(json)) {
    const text = typeof value === "string" ? value : stringify(value);
    parts.push(`${encodePathSegment(key)}=${encodePathSegment(text.length > 5000 ? text.slice(0, 5000) : text)}`);
  }
  return parts.length > 0 ? `?${parts.join("&")}` : "";
}

function connectJson(rpc: Rpc): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      body: jsonBody(rpc.method.input),
      contentType: fc.constantFrom(...JSON_TYPES),
      credentials,
      extra: extraHeaders,
      get: fc.boolean(),
    })
    .map(({ body, contentType, credentials, extra, get }) => {
      const method = get && body.length < 2000 ? "GET" : "POST";
      const path =
        method === "GET" ? `${rpc.path}?connect=v1&encoding=json&message=${encodePathSegment(body)}` : rpc.path;
      return {
        protocol: "connect-json",
        rpc: rpcName(rpc),
        credentials,
        method,
        path,
        headers: {
          ...restHeaders(extra, method === "POST"),
          "connect-protocol-version": "1",
          ...(contentType ? { "content-type": contentType } : {}),
        },
        body: method === "POST" ? body : undefined,
      } satisfies FuzzRequest;
    });
}

function connectProto(rpc: Rpc): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({ body: protoBody(rpc.method.input), credentials, extra: extraHeaders })
    .map(({ body, credentials, extra }) => ({
      protocol: "connect-proto",
      rpc: rpcName(rpc),
      credentials,
      method: "POST",
      path: rpc.path,
      headers: { ...restHeaders(extra, true), "connect-protocol-version": "1", "content-type": "application/proto" },
      body,
    }));
}

function grpcWeb(rpc: Rpc): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      framing: framedBody(rpc.method.input),
      contentType: fc.constantFrom(
        "application/grpc-web",
        "application/grpc-web+proto",
        "application/grpc-web+proto",
        "application/grpc-web-text",
        "application/grpc-web+json",
      ),
      credentials,
      xff: fc.constantFrom(...XFF),
    })
    .map(({ framing, contentType, credentials, xff }) => ({
      protocol: "grpc-web",
      rpc: rpcName(rpc),
      credentials,
      method: "POST",
      path: rpc.path,
      headers: {
        "content-type": contentType,
        "x-grpc-web": "1",
        ...(xff ? { "x-forwarded-for": xff } : {}),
        ...(framing.encoding ? { "grpc-encoding": framing.encoding } : {}),
      },
      body: framing.body,
      framing,
    }));
}

function grpc(rpc: Rpc): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      framing: framedBody(rpc.method.input),
      contentType: fc.constantFrom(
        "application/grpc",
        "application/grpc",
        "application/grpc+proto",
        "application/grpc+json",
        "application/grpc+thrift",
      ),
      timeout: fc.constantFrom("", "", "1S", "100m", "99999999H", "-1S", "abc", "0n"),
      credentials,
    })
    .map(({ framing, contentType, timeout, credentials }) => ({
      protocol: "grpc",
      rpc: rpcName(rpc),
      credentials,
      method: "POST",
      path: rpc.path,
      headers: {
        "content-type": contentType,
        ...(timeout ? { "grpc-timeout": timeout } : {}),
        ...(framing.encoding ? { "grpc-encoding": framing.encoding } : {}),
      },
      body: framing.body,
      framing,
    }));
}

function restHeaders(extra: Record<string, string>, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(extra)) {
    if (name === "content-encoding" && !hasBody) continue;
    if (value !== "") headers[name] = value;
  }
  return headers;
}

function rpcName(rpc: Rpc): string {
  return `${rpc.method.parent.name}/${rpc.method.name}`;
}
