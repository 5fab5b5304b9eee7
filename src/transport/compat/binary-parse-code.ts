import { Code, type ConnectError } from "@connectrpc/connect";

// Works around: @connectrpc/connect 2.1.2 answers a request message that is not valid protobuf
// as INTERNAL (HTTP 500), although the fault is the client's. createBinarySerialization's parse
// (dist/esm/protocol/serialization.js) wraps whatever fromBinary throws in
// `new ConnectError("parse binary: " + message, Code.Internal)`, with no cause attached, and the
// protocol handler serializes that error before our code sees it. No upstream issue found; the
// Connect spec leaves the code for an invalid request open (connectrpc/connectrpc.com#169).
//
// The text is the only signal: INTERNAL alone also covers the framing errors the gRPC spec
// wants INTERNAL (envelope-flags.ts). test/transport/compat/binary-parse-code.test.ts sends
// real garbage to the framework and fails once it stops answering this way.
//
// Drop when connect-es answers unparsable protobuf as INVALID_ARGUMENT.

const UPSTREAM_PREFIX = "parse binary:";

/** INVALID_ARGUMENT in the API's words for connect's "parse binary" INTERNAL; undefined for any other error. */
export function binaryParseFailure(error: ConnectError): { code: Code; message: string } | undefined {
  if (error.code !== Code.Internal || !error.rawMessage.startsWith(UPSTREAM_PREFIX)) return undefined;
  return { code: Code.InvalidArgument, message: "request message is not valid protobuf" };
}
