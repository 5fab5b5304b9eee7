import { Code, ConnectError } from "@connectrpc/connect";
import { errorFromJsonBytes, errorToJsonBytes } from "@connectrpc/connect/protocol-connect";
import { findTrailerError, setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { trailerFlag, trailerParse, trailerSerialize } from "@connectrpc/connect/protocol-grpc-web";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import type { Reason } from "../domain/errors.js";
import { ERROR_DOMAIN } from "../interceptors/errors.js";
import { defaultReason } from "../interceptors/error-codes.js";
import { binaryParseFailure } from "./compat/binary-parse-code.js";
import { decompressionFailure } from "./compat/decompression-code.js";
import { encodableMessage } from "./compat/grpc-message-encoding.js";

// Connect raises some errors itself, before any interceptor runs: a body that does not decode,
// a frame it cannot decompress, a message over the size cap. Those carry no reason, and two of
// them carry the wrong code (compat/binary-parse-code.ts, compat/decompression-code.ts). They
// are put in the API's terms here, on every protocol, so a client sees INVALID_ARGUMENT
// VALIDATION_FAILED for a malformed message whether it spoke Connect, gRPC or gRPC-Web.
//
// Only INTERNAL stays INTERNAL where the gRPC spec asks for it: a compressed flag other than 0
// and 1 (compat/envelope-flags.ts), or 1 without a grpc-encoding.

/** The error in the API's terms: the right code, a reason, and the request id. */
export function fromFramework(error: ConnectError, requestId: string): ConnectError {
  const { code, message } = binaryParseFailure(error) ??
    decompressionFailure(error) ?? { code: error.code, message: error.rawMessage };
  const reason: Reason = defaultReason(code);
  // The framework attaches no details of its own; the reason is the one to add.
  return new ConnectError(encodableMessage(message), code, error.metadata, [
    { desc: ErrorInfoSchema, value: { reason, domain: ERROR_DOMAIN, metadata: { request_id: requestId } } },
  ]);
}

/** The reason a fixed error carries. */
export function reasonOf(error: ConnectError): Reason | undefined {
  return error.findDetails(ErrorInfoSchema)[0]?.reason as Reason | undefined;
}

/** Whether an error came from the framework: everything that passed the error interceptor carries an ErrorInfo. */
export function isFrameworkError(error: ConnectError): boolean {
  return error.findDetails(ErrorInfoSchema).length === 0;
}

/** A Connect unary error body (JSON), rewritten when the framework wrote it; undefined when it needs nothing. */
export function fixConnectErrorBody(
  bytes: Uint8Array,
  requestId: string,
): { error: ConnectError; reason: Reason; body: Uint8Array } | undefined {
  let error: ConnectError;
  try {
    error = errorFromJsonBytes(bytes, undefined, new ConnectError("", Code.Unknown));
  } catch {
    return undefined;
  }
  if (!isFrameworkError(error)) return undefined;
  const fixed = fromFramework(error, requestId);
  return {
    error: fixed,
    reason: defaultReason(fixed.code),
    body: errorToJsonBytes(fixed, { useProtoFieldName: true }),
  };
}

/** gRPC: the status travels in the trailer (already complete when the handler returns on an early failure). */
export function fixGrpcTrailer(trailer: Headers, requestId: string): ConnectError | undefined {
  const status = trailer.get("grpc-status");
  if (status === null || status === "0") return undefined;
  const error = findTrailerError(trailer);
  if (!error || !isFrameworkError(error)) return undefined;
  for (const name of ["grpc-status", "grpc-message", "grpc-status-details-bin"]) trailer.delete(name);
  const fixed = fromFramework(error, requestId);
  setTrailerStatus(trailer, fixed);
  return fixed;
}

/** gRPC-Web: the status is the body's last frame (flag 0x80); rewrite it there, leave the rest alone. */
export function fixGrpcWebBody(
  body: AsyncIterable<Uint8Array>,
  requestId: string,
  onFixed: (error: ConnectError) => void,
): AsyncIterable<Uint8Array> {
  return {
    async *[Symbol.asyncIterator]() {
      for await (const chunk of body)
        yield isTrailerFrame(chunk) ? rewriteTrailerFrame(chunk, requestId, onFixed) : chunk;
    },
  };
}

/**
 * An uncompressed trailer frame. A compressed one (0x81: the client asked for gzip and the
 * trailers passed 1 KiB) is left alone: it is only that large with violations in it, which
 * come from the interceptors and carry their reason already.
 */
function isTrailerFrame(chunk: Uint8Array): boolean {
  return (
    chunk.length >= 5 &&
    chunk[0] === trailerFlag &&
    new DataView(chunk.buffer, chunk.byteOffset).getUint32(1) === chunk.length - 5
  );
}

function rewriteTrailerFrame(chunk: Uint8Array, requestId: string, onFixed: (error: ConnectError) => void): Uint8Array {
  const trailer = trailerParse(chunk.subarray(5));
  const fixed = fixGrpcTrailer(trailer, requestId);
  if (!fixed) return chunk;
  onFixed(fixed);
  const data = trailerSerialize(trailer);
  const frame = new Uint8Array(5 + data.length);
  frame[0] = chunk[0];
  new DataView(frame.buffer).setUint32(1, data.length);
  frame.set(data, 5);
  return frame;
}
