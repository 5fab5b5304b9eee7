import { Code, type ConnectError } from "@connectrpc/connect";

// Works around: @connectrpc/connect-node 2.1.2 answers some request bodies that do not inflate
// as INTERNAL (HTTP 500). wrapZLibErrors (dist/esm/compression.js) maps zlib's Z_DATA_ERROR,
// ERR_PADDING_2 and ERR__ERROR_FORMAT_* to INVALID_ARGUMENT but leaves every other zlib failure
// INTERNAL "decompression failed", among them Z_BUF_ERROR, a gzip body cut short. The fault is
// the client's either way. No upstream issue found.
//
// connect-node keeps zlib's error as the ConnectError's cause, but the protocol handler
// serializes the error (JSON body, grpc-message trailer) before our code sees it, so by then
// the code and the text are the only signals. An INVALID_ARGUMENT "decompression failed" keeps
// its words, as before. test/transport/compat/decompression-code.test.ts sends a truncated
// gzip body to the framework and fails once it stops answering this way.
//
// Drop when connect-node answers every undecodable compressed body as INVALID_ARGUMENT.

const UPSTREAM_MESSAGE = "decompression failed";

/** INVALID_ARGUMENT in the API's words for connect-node's INTERNAL "decompression failed"; undefined for any other error. */
export function decompressionFailure(error: ConnectError): { code: Code; message: string } | undefined {
  if (error.code !== Code.Internal || !error.rawMessage.startsWith(UPSTREAM_MESSAGE)) return undefined;
  return { code: Code.InvalidArgument, message: "request body could not be decompressed" };
}
