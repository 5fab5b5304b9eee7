import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { fromBinary } from "@bufbuild/protobuf";
import type { ContextValues } from "@connectrpc/connect";
import { compressionNegotiate, type Compression } from "@connectrpc/connect/protocol";
import { parseTimeout, setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { kRequest } from "../../interceptors/context.js";
import { codeName } from "../../interceptors/error-codes.js";
import { fixGrpcTrailer, reasonOf } from "../framework-errors.js";
import { ENVELOPE_HEADER_BYTES } from "../grpc-framing.js";
import type { NodeRequest } from "../rest-handler.js";
import { readUpTo } from "../read-body.js";
import { replay } from "./replay.js";
import { binaryAnswer } from "./answer-memo.js";
import { nodeHeaders } from "./node-headers.js";
import { runLane } from "./run-lane.js";
import { COMPRESS_MIN_BYTES } from "./serve-connect.js";
import type { LaneMethod } from "./unary-methods.js";

export interface GrpcLaneOptions {
  acceptCompression: readonly Compression[];
  maxTimeoutMs: number;
  maxBodyBytes: number;
}

/**
 * A unary gRPC call on the lean path: over HTTP/2, one uncompressed binary message in its
 * envelope, read whole, then the method's interceptor chain and implementation (lane/unary-methods.ts),
 * and the answer written in one piece (headers, the message, trailers) as connect's gRPC handler
 * writes it. connect-node's gRPC path streams both ways through async iterators and signals,
 * which cost several times a VerifyToken's own work.
 *
 * Anything else is the general path's: JSON, a compressed or malformed envelope, more than one
 * message, a message over the cap, a deadline that does not parse. The lane gives up before it
 * has run anything, hands over the body from its first byte (`fallback`), and the client gets
 * the general path's answer, byte for byte.
 */
export async function serveGrpcLane(
  req: NodeRequest,
  res: Http2ServerResponse,
  lane: LaneMethod,
  contextValues: ContextValues,
  requestId: string,
  options: GrpcLaneOptions,
  fallback: (body?: AsyncIterable<Uint8Array>) => Promise<void>,
): Promise<void> {
  const type = String(req.headers["content-type"]).toLowerCase();
  const encoding = req.headers["grpc-encoding"];
  const timeoutHeader = req.headers["grpc-timeout"];
  const timeout = typeof timeoutHeader === "string" ? parseTimeout(timeoutHeader, options.maxTimeoutMs) : {};
  if (
    req.httpVersionMajor !== 2 ||
    req.method !== "POST" ||
    (type !== "application/grpc" && type !== "application/grpc+proto") ||
    (encoding !== undefined && encoding !== "identity") ||
    (timeoutHeader !== undefined && typeof timeoutHeader !== "string") ||
    timeout.error !== undefined
  ) {
    return fallback();
  }
  const read = await readUpTo(req, options.maxBodyBytes + ENVELOPE_HEADER_BYTES);
  if ("partial" in read) return fallback(replay(read.partial, req as Http2ServerRequest));
  const bytes = read.bytes;
  if (
    bytes.length < ENVELOPE_HEADER_BYTES ||
    bytes[0] !== 0 ||
    bytes.readUInt32BE(1) !== bytes.length - ENVELOPE_HEADER_BYTES
  ) {
    return fallback(replay([bytes]));
  }
  let message: unknown;
  try {
    message = fromBinary(lane.method.input, bytes.subarray(ENVELOPE_HEADER_BYTES));
  } catch {
    return fallback(replay([bytes]));
  }

  const compression = compressionNegotiate(
    options.acceptCompression as Compression[],
    null,
    headerValue(req, "grpc-accept-encoding"),
    "grpc-accept-encoding",
  ).response;
  const header: Record<string, string> = { "content-type": "application/grpc+proto" };
  if (compression) header["grpc-encoding"] = compression.name;
  const answer = await runLane(
    req,
    res,
    lane,
    "grpc",
    nodeHeaders(req.headers),
    message,
    contextValues,
    timeout.timeoutMs,
  );
  let body: Uint8Array | undefined;
  let trailer: Headers;
  if ("ok" in answer) {
    answer.ok.header.forEach((value, name) => (header[name] = value));
    body = await envelope(binaryAnswer(lane.method.output, answer.ok.message), compression);
    trailer = answer.ok.trailer;
    trailer.set("grpc-status", "0");
  } else {
    trailer = setTrailerStatus(new Headers(), answer.error);
    const fixed = fixGrpcTrailer(trailer, requestId);
    const record = contextValues.get(kRequest);
    if (fixed && record) {
      record.code = codeName(fixed.code);
      record.reason = reasonOf(fixed);
    }
  }
  // The client left while the call ran: nothing to write to (its log line says "aborted").
  if (res.stream.destroyed) return;
  res.writeHead(200, header);
  const trailers: Record<string, string> = {};
  trailer.forEach((value, name) => (trailers[name] = value));
  res.addTrailers(trailers);
  if (body) res.end(body);
  else res.end();
}

/** The message in its envelope: compressed (flag 1) when the client takes it and it is large enough. */
async function envelope(message: Uint8Array, compression: Compression | null): Promise<Uint8Array> {
  let flags = 0;
  let payload = message;
  if (compression && message.byteLength >= COMPRESS_MIN_BYTES) {
    payload = await compression.compress(message);
    flags = 1;
  }
  const out = Buffer.allocUnsafe(ENVELOPE_HEADER_BYTES + payload.byteLength);
  out[0] = flags;
  out.writeUInt32BE(payload.byteLength, 1);
  out.set(payload, ENVELOPE_HEADER_BYTES);
  return out;
}

function headerValue(req: NodeRequest, name: string): string | null {
  const value = req.headers[name];
  return value === undefined ? null : typeof value === "string" ? value : value.join(", ");
}
