import type { JsonReadOptions, JsonWriteOptions } from "@bufbuild/protobuf";
import type { ContextValues } from "@connectrpc/connect";
import { compressionNegotiate, type Compression } from "@connectrpc/connect/protocol";
import {
  codeToHttpStatus,
  contentTypeUnaryRegExp,
  errorToJsonBytes,
  parseContentType,
  parseTimeout,
} from "@connectrpc/connect/protocol-connect";
import type { NodeResponse } from "../error-body.js";
import type { NodeRequest } from "../rest-handler.js";
import { binaryAnswer, jsonTextAnswer } from "./answer-memo.js";
import { nodeHeaders } from "./node-headers.js";
import { inflateAndDecode } from "./decode.js";
import { runLane, type LaneAnswer } from "./run-lane.js";
import type { LaneMethod } from "./unary-methods.js";

export interface ConnectLaneOptions {
  acceptCompression: readonly Compression[];
  maxTimeoutMs: number;
  jsonOptions: Partial<JsonReadOptions & JsonWriteOptions>;
}

/** An answer in one piece, before the transport writes it. */
export interface WholeAnswer {
  status: number;
  headers: Record<string, string>;
  bytes: Uint8Array;
}

/** connect's compressMinBytes default: smaller answers are not worth compressing (gRPC's lane too). */
export const COMPRESS_MIN_BYTES = 1024;

/** A Connect unary call as it came: POST's headers and body, or what a GET's query stands for (connect-get.ts). */
export interface ConnectRequest {
  contentType: string | null;
  /** The request's content coding (POST's Content-Encoding, GET's `compression`), as sent. */
  encoding: string | null;
  body: Uint8Array;
}

/**
 * A Connect unary call on the lean path, answered in one piece as connect's unary handler
 * answers it (protocol-connect/handler-factory.js), in its order: a content type it does not
 * take is 415; an unknown coding, a timeout that does not parse, a body that does not inflate
 * or a message that does not decode is its error JSON, before the chain runs; then the
 * method's interceptor chain and implementation (lane/unary-methods.ts), and the answer with
 * its status, headers (trailers as `trailer-` headers), error JSON and compression. Decoding
 * and decompressing go through connect's own pieces (lane/decode.ts, the router's
 * compressions), so their errors are its words, put in the API's terms by the caller.
 */
export async function connectLaneAnswer(
  req: NodeRequest,
  res: NodeResponse,
  lane: LaneMethod,
  call: ConnectRequest,
  contextValues: ContextValues,
  options: ConnectLaneOptions & { maxBodyBytes: number },
): Promise<WholeAnswer> {
  // The router offers a unary method only these content types, a charset other than UTF-8 not among them.
  const type =
    call.contentType !== null && contentTypeUnaryRegExp.test(call.contentType)
      ? parseContentType(call.contentType)
      : undefined;
  if (!type) return { status: 415, headers: {}, bytes: new Uint8Array() };
  const binary = type.binary;
  const timeout = parseTimeout(headerValue(req, "connect-timeout-ms"), options.maxTimeoutMs);
  const compression = compressionNegotiate(
    options.acceptCompression as Compression[],
    call.encoding,
    headerValue(req, "accept-encoding"),
    "accept-encoding",
  );
  let answer: LaneAnswer;
  const early = compression.error ?? timeout.error;
  if (early) answer = { error: early };
  else {
    const decoded = await inflateAndDecode(
      lane.method,
      binary,
      call.body,
      compression.request,
      options.jsonOptions,
      options.maxBodyBytes,
    );
    answer =
      "error" in decoded
        ? decoded
        : await runLane(
            req,
            res,
            lane,
            "connect",
            nodeHeaders(req.headers),
            decoded.message,
            contextValues,
            timeout.timeoutMs,
          );
  }
  const headers: Record<string, string> = {};
  let status = 200;
  let bytes: Uint8Array;
  if ("ok" in answer) {
    headers["content-type"] = binary ? "application/proto" : "application/json";
    answer.ok.header.forEach((value, name) => (headers[name] = value));
    answer.ok.trailer.forEach((value, name) => (headers[`trailer-${name}`] = value));
    bytes = binary
      ? binaryAnswer(lane.method.output, answer.ok.message)
      : Buffer.from(jsonTextAnswer(lane.method.output, answer.ok.message, options.jsonOptions));
  } else {
    status = codeToHttpStatus(answer.error.code);
    headers["content-type"] = "application/json";
    answer.error.metadata.forEach((value, name) => (headers[name] = value));
    bytes = errorToJsonBytes(answer.error, options.jsonOptions);
  }
  if (compression.response && bytes.byteLength >= COMPRESS_MIN_BYTES) {
    bytes = await compression.response.compress(bytes);
    headers["content-encoding"] = compression.response.name;
  }
  return { status, headers, bytes };
}

/** A request header as fetch Headers would give it: repeated fields joined with ", ". */
export function headerValue(req: NodeRequest, name: string): string | null {
  const value = req.headers[name];
  return value === undefined ? null : typeof value === "string" ? value : value.join(", ");
}
