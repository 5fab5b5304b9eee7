import { constants as h2, type Http2ServerRequest } from "node:http2";
import { Code, ConnectError } from "@connectrpc/connect";
import type { UniversalServerResponse } from "@connectrpc/connect/protocol";
import { setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import type { NodeResponse } from "./error-body.js";
import type { NodeRequest } from "./rest-handler.js";

// gRPC and gRPC-Web carry each message in an envelope: one flag byte, a 4-byte length, the
// message. The gRPC spec allows the flag to be 0 (plain) or 1 (compressed with grpc-encoding);
// anything else is a protocol error answered INTERNAL. connect-es reads only the compression
// bit and would decode a message flagged 0x02 or 0xfe as if it were plain, so the flags are
// checked here as the bytes go by, before connect splits the envelopes.

export type Enveloped = "grpc" | "grpc-web";

/** The flag byte and the 4-byte length before each message. */
export const ENVELOPE_HEADER_BYTES = 5;

/** gRPC or gRPC-Web by content type (`application/grpc`, `application/grpc+proto`, `application/grpc-web+json`, …). */
export function envelopedProtocol(req: NodeRequest): Enveloped | undefined {
  const type = String(req.headers["content-type"] ?? "").toLowerCase();
  if (!type.startsWith("application/grpc")) return undefined;
  return type.startsWith("application/grpc-web") ? "grpc-web" : "grpc";
}

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
        if (byte > 1) throw new ConnectError(`protocol error: compressed flag 0x${byte.toString(16).padStart(2, "0")} is neither 0 nor 1`, Code.Internal);
        this.length = 0;
      } else {
        this.length = this.length * 256 + byte;
      }
      if (++this.headerSeen === 5) {
        this.remaining = this.length;
        this.headerSeen = 0;
      }
    }
  }
}

/**
 * Once the answer is out, a request still being sent (a message refused for its size or its
 * framing) has its HTTP/2 stream closed with RST_STREAM NO_ERROR, as RFC 9113 section 8.1
 * allows: the client stops uploading and keeps the answer it has. Without it, a client still
 * writing a message past the cap waits on flow control for ever, and so does the stream.
 *
 * The trailers are the end of every gRPC answer; Node asks for them ("wantTrailers") and sends
 * them in the listener its compatibility layer registered first, so the reset queued on the
 * next turn goes out after them.
 */
export function closeUnfinishedStream(req: NodeRequest): void {
  if (!("stream" in req)) return;
  const stream = (req as Http2ServerRequest).stream;
  stream.once("wantTrailers", () =>
    setImmediate(() => {
      if (!stream.destroyed && !stream.closed && !req.readableEnded) stream.close(h2.NGHTTP2_NO_ERROR);
    }),
  );
}

/**
 * HTTP/1.1's way of refusing the rest of a body: after an answer given before the request was
 * all received (a message or body over the cap, a bad flag), `Connection: close`, so that Node
 * ends the connection once the answer is written (and destroys the socket) instead of reading
 * the body to its end to keep the connection for another request: a client declaring a
 * gigabyte, or sending slowly, held the socket that long. HTTP/2 has closeUnfinishedStream.
 * Call before the answer's headers go out.
 */
export function closeUnfinishedConnection(req: NodeRequest, res: NodeResponse): void {
  if (req.httpVersionMajor === 1 && !req.complete && !res.headersSent) res.setHeader("connection", "close");
}

/** A trailers-only answer: the status in the headers, no message (what gRPC sends for an early error). */
export function grpcStatusOnly(req: NodeRequest, protocol: Enveloped, error: ConnectError): UniversalServerResponse {
  const type = String(req.headers["content-type"] ?? "");
  const header = setTrailerStatus(new Headers({ "content-type": type.includes("json") ? `application/${protocol}+json` : `application/${protocol}+proto` }), error);
  return { status: 200, header };
}
