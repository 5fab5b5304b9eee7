// Works around: @connectrpc/connect 2.1.2 writes a gRPC status message with
// `encodeURIComponent(error.rawMessage)` (setTrailerStatus, dist/esm/protocol-grpc/trailer-status.js),
// which throws URIError on a lone surrogate. Its JSON decoding errors quote the client's text
// as V8's JSON.parse reports it, and V8 cuts that excerpt anywhere, even inside a surrogate
// pair, so a body of application/grpc+json or grpc-web+json could make the handler reject
// with the URIError instead of answering. No upstream issue found.
//
// Matched by type: a URIError is what encodeURIComponent throws and nothing else in the call
// does. test/transport/compat/grpc-message-encoding.test.ts sends such a body to the framework
// and fails once it answers instead of throwing.
//
// Drop when connect-es encodes grpc-message without throwing (String.prototype.toWellFormed
// first, or its own percent-encoding).

/** Whether the framework failed writing a gRPC status message it could not percent-encode. */
export function isUnencodableGrpcMessage(error: unknown): error is URIError {
  return error instanceof URIError;
}

/** The message with each lone surrogate replaced by U+FFFD, which encodeURIComponent accepts. */
export function encodableMessage(message: string): string {
  return message.replace(/\p{Cs}/gu, "\ufffd");
}
