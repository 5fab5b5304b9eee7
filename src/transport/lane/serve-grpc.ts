import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
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
import { inflateAndDecode } from "./decode.js";
import { runLane, type LaneAnswer } from "./run-lane.js";
import { COMPRESS_MIN_BYTES, headerValue } from "./serve-connect.js";
import type { LaneMethod } from "./unary-methods.js";

export interface GrpcLaneOptions {
  acceptCompression: readonly Compression[];
  maxTimeoutMs: number;
  maxBodyBytes: number;
}

/**
 * A unary gRPC call on the lean path: over HTTP/2, one binary message in its envelope (plain,
 * or compressed with the grpc-encoding the client names), read whole, then the method's
 * interceptor chain and implementation (lane/unary-methods.ts), and the answer written in one
 * piece (headers, the message, trailers) as connect's gRPC handler writes it
 * (protocol-grpc/handler-factory.js), in its order: an unknown coding or a timeout that does
 * not parse, then a message that does not inflate or decode, each its error status before the
 * chain runs. Inflating and decoding go through connect's own pieces (the router's
 * compressions, lane/decode.ts), so their errors are its words, put in the API's terms as on
 * the general path (framework-errors.ts). connect-node's gRPC path streams both ways through
 * async iterators and signals, which cost several times a VerifyToken's own work.
 *
 * What connect-node alone serves goes there (`fallback`): JSON, HTTP/1.1, a malformed envelope
 * (a flag other than 0 and 1, 1 with no coding, a length that is not the body's, more than one
 * message) and a message over the cap. The lane gives up before it has run anything, hands
 * over the body from its first byte, and the client gets that path's answer.
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
  if (
    req.httpVersionMajor !== 2 ||
    req.method !== "POST" ||
    (type !== "application/grpc" && type !== "application/grpc+proto")
  ) {
    return fallback();
  }
  const read = await readUpTo(req, options.maxBodyBytes + ENVELOPE_HEADER_BYTES);
  if ("partial" in read) return fallback(replay(read.partial, req as Http2ServerRequest));
  const bytes = read.bytes;
  const timeout = parseTimeout(headerValue(req, "grpc-timeout"), options.maxTimeoutMs);
  const compression = compressionNegotiate(
    options.acceptCompression as Compression[],
    headerValue(req, "grpc-encoding"),
    headerValue(req, "grpc-accept-encoding"),
    "grpc-accept-encoding",
  );
  let answer: LaneAnswer;
  const early = compression.error ?? timeout.error;
  if (early) answer = { error: early };
  else {
    if (
      bytes.length < ENVELOPE_HEADER_BYTES ||
      bytes[0] > 1 ||
      (bytes[0] === 1 && !compression.request) ||
      bytes.readUInt32BE(1) !== bytes.length - ENVELOPE_HEADER_BYTES
    ) {
      return fallback(replay([bytes]));
    }
    const decoded = await inflateAndDecode(
      lane.method,
      true,
      bytes.subarray(ENVELOPE_HEADER_BYTES),
      bytes[0] === 1 ? compression.request : null,
      {},
      options.maxBodyBytes,
    );
    answer =
      "error" in decoded
        ? decoded
        : await runLane(
            req,
            res,
            lane,
            "grpc",
            nodeHeaders(req.headers),
            decoded.message,
            contextValues,
            timeout.timeoutMs,
          );
  }
  const header: Record<string, string> = { "content-type": "application/grpc+proto" };
  if (compression.response) header["grpc-encoding"] = compression.response.name;
  let body: Uint8Array | undefined;
  let trailer: Headers;
  if ("ok" in answer) {
    answer.ok.header.forEach((value, name) => (header[name] = value));
    body = await envelope(binaryAnswer(lane.method.output, answer.ok.message), compression.response);
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
