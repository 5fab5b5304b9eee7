import { constants as h2 } from "node:http2";
import type { ConnectError } from "@connectrpc/connect";
import type { UniversalServerResponse } from "@connectrpc/connect/protocol";
import { setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import type { NodeResponse } from "./error-body.js";
import type { NodeRequest } from "./rest-handler.js";

// gRPC and gRPC-Web carry each message in an envelope: one flag byte, a 4-byte length, the
// message. The flags are checked as the bytes go by (compat/envelope-flags.ts); this file ends
// a request refused before it was all sent, and writes the trailers-only answer to it.

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
  const stream = req.stream;
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
  const header = setTrailerStatus(
    new Headers({
      "content-type": type.includes("json") ? `application/${protocol}+json` : `application/${protocol}+proto`,
    }),
    error,
  );
  return { status: 200, header };
}
