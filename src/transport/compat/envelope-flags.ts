import { Code, ConnectError } from "@connectrpc/connect";
import { ENVELOPE_HEADER_BYTES } from "../grpc-framing.js";

// Works around: @connectrpc/connect 2.1.2 reads only the compression bit of a gRPC or gRPC-Web
// envelope's flag byte (envelopeDecompress in dist/esm/protocol/envelope.js tests
// `flags & compressedFlag`; transformParseEnvelope tests only the end-of-stream bit), so a
// message flagged 0x02 or 0xfe is decoded as if it were plain. The gRPC spec allows 0 and 1
// and calls anything else a protocol error, answered INTERNAL. No upstream issue found; the
// Connect spec leaves such envelopes open (connectrpc/connectrpc.com#169).
//
// A structural check, no text: the flag bytes are read as the body goes by, before connect
// splits the envelopes. test/transport/compat/envelope-flags.test.ts shows the framework still
// serves a 0x02 envelope and fails once it refuses it itself.
//
// Drop when connect-es refuses envelope flags it does not know.

/**
 * The request body with every envelope's flag checked. One more await per chunk and no copy:
 * the bytes are only looked at, so a VerifyToken over gRPC pays next to nothing for it.
 */
export function checkEnvelopeFlags(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      const inner = body[Symbol.asyncIterator]();
      const reader = new EnvelopeWalker();
      return {
        async next() {
          const result = await inner.next();
          if (!result.done) reader.walk(result.value);
          return result;
        },
        // Called when connect stops reading early (a refused envelope). The request is left
        // as it is rather than passed on: ending Node's request iterator destroys the request
        // and waits for it to close, which an HTTP/2 stream does only once the answer is out,
        // so the answer would never go. closeUnfinishedStream ends the stream after the answer.
        return() {
          return Promise.resolve({ done: true as const, value: undefined });
        },
      };
    },
  };
}

/** Follows envelope boundaries across chunks, reading only the 5-byte headers. */
class EnvelopeWalker {
  /** Message bytes of the current envelope still to come. */
  private remaining = 0;
  /** Header bytes of the next envelope seen so far (0 to 4), and its length as read. */
  private headerSeen = 0;
  private length = 0;

  walk(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.remaining > 0) {
        const skip = Math.min(this.remaining, chunk.length - at);
        this.remaining -= skip;
        at += skip;
        continue;
      }
      const byte = chunk[at++];
      if (this.headerSeen === 0) {
        if (byte > 1)
          throw new ConnectError(
            `protocol error: compressed flag 0x${byte.toString(16).padStart(2, "0")} is neither 0 nor 1`,
            Code.Internal,
          );
        this.length = 0;
      } else {
        this.length = this.length * 256 + byte;
      }
      if (++this.headerSeen === ENVELOPE_HEADER_BYTES) {
        this.remaining = this.length;
        this.headerSeen = 0;
      }
    }
  }
}
