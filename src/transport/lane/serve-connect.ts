import { fromBinary, fromJsonString, type JsonReadOptions, type JsonWriteOptions } from "@bufbuild/protobuf";
import type { ContextValues } from "@connectrpc/connect";
import { compressionNegotiate, type Compression } from "@connectrpc/connect/protocol";
import {
  codeToHttpStatus,
  errorToJsonBytes,
  parseContentType,
  parseTimeout,
} from "@connectrpc/connect/protocol-connect";
import type { NodeResponse } from "../error-body.js";
import type { NodeRequest } from "../rest-handler.js";
import { binaryAnswer, jsonTextAnswer } from "./answer-memo.js";
import { nodeHeaders } from "./node-headers.js";
import { runLane } from "./run-lane.js";
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
const decoder = new TextDecoder();

/**
 * A Connect unary POST on the lean path: the body already read whole, decoded as connect's
 * handler decodes it, the method's interceptor chain and implementation run
 * (lane/unary-methods.ts), and the answer built as connect's handler builds it: status, headers
 * (trailers as `trailer-` headers), error JSON, compression. Undefined, with nothing run, when
 * the general path must answer instead: a compressed body, a timeout that does not parse, a
 * message that does not decode (its errors are worded there, compat/json-decode-errors.ts).
 */
export async function connectLaneAnswer(
  req: NodeRequest,
  res: NodeResponse,
  lane: LaneMethod,
  body: Uint8Array,
  binary: boolean,
  contextValues: ContextValues,
  options: ConnectLaneOptions,
): Promise<WholeAnswer | undefined> {
  // The content types connect's handler takes, as it reads them (a charset other than UTF-8 is
  // its 415, not ours).
  const type = parseContentType(typeof req.headers["content-type"] === "string" ? req.headers["content-type"] : null);
  if (!type || type.stream || type.binary !== binary) return undefined;
  const encoding = req.headers["content-encoding"];
  if (encoding !== undefined && encoding !== "identity") return undefined;
  const timeoutHeader = req.headers["connect-timeout-ms"];
  if (Array.isArray(timeoutHeader)) return undefined;
  const timeout = parseTimeout(timeoutHeader ?? null, options.maxTimeoutMs);
  if (timeout.error) return undefined;
  const json = { ...options.jsonOptions, ignoreUnknownFields: options.jsonOptions.ignoreUnknownFields ?? true };
  let message: unknown;
  try {
    message = binary
      ? fromBinary(lane.method.input, body)
      : fromJsonString(lane.method.input, decoder.decode(body), json);
  } catch {
    return undefined;
  }
  const answer = await runLane(
    req,
    res,
    lane,
    "connect",
    nodeHeaders(req.headers),
    message,
    contextValues,
    timeout.timeoutMs,
  );
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
  const compression = compressionNegotiate(
    options.acceptCompression as Compression[],
    null,
    typeof req.headers["accept-encoding"] === "string" ? req.headers["accept-encoding"] : null,
    "accept-encoding",
  ).response;
  if (compression && bytes.byteLength >= COMPRESS_MIN_BYTES) {
    bytes = await compression.compress(bytes);
    headers["content-encoding"] = compression.name;
  }
  return { status, headers, bytes };
}
