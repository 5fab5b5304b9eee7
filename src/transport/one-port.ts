import { createServer as createHttp1Server } from "node:http";
import { createServer as createHttp2Server, type Http2Session } from "node:http2";
import { createServer as createNetServer, type AddressInfo, type Socket } from "node:net";
import { answerClientError } from "./client-errors.js";
import { MAX_HEADER_BYTES, MAX_HEADER_COUNT } from "./header-limits.js";
import type { HttpHandler } from "./http-handler.js";

// node:http2's allowHTTP1 needs TLS, so plain-text HTTP/1.1 and h2c share the port through
// this sniffer: a connection that opens with the HTTP/2 preface goes to the HTTP/2 server,
// anything else to the HTTP/1.1 server.
const H2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

/** `:method`, `:path`, `:scheme`, `:authority`: counted by nghttp2, not by the cap. */
const H2_PSEUDO_HEADERS = 4;

export interface OnePortServer {
  listen(port: number, host: string): Promise<number>;
  /** Stops accepting, lets in-flight requests finish for up to graceMs, then closes. */
  close(graceMs: number): Promise<void>;
}

export function createOnePortServer(handler: HttpHandler): OnePortServer {
  // Header limits (header-limits.ts): on HTTP/1.1 Node's parser refuses a block over
  // MAX_HEADER_BYTES, answered 431 in the API's shape (client-errors.ts), and keeps one field
  // over the count so the handler sees the excess and answers 431. On HTTP/2 the handler answers 431 for both; only past nghttp2's own limits
  // (more pairs than maxHeaderListPairs, or a block over 64 KiB) is the stream reset instead
  // (ENHANCE_YOUR_CALM, REFUSED_STREAM), since no status can be sent for a refused header
  // block. A client gets 10 s to send its headers and 30 s for the whole request, so slow
  // senders cannot hold connections open.
  const http1 = createHttp1Server(
    // Node checks the two timeouts on a timer (30 s by default), which would stretch them to 40 s and 60 s.
    { keepAliveTimeout: 5000, maxHeaderSize: MAX_HEADER_BYTES, headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1000 },
    handler,
  );
  http1.maxHeadersCount = MAX_HEADER_COUNT + 1;
  http1.on("clientError", answerClientError);
  // This server never listens itself (the front server hands it connections), and Node starts
  // tracking connections, which the two timeouts and closeIdleConnections rely on, only on
  // "listening". Without this, a client sending its headers a byte at a time held a connection
  // for ever.
  http1.emit("listening");
  const http2 = createHttp2Server({ maxHeaderListPairs: MAX_HEADER_COUNT + 1 + H2_PSEUDO_HEADERS, settings: { maxHeaderListSize: MAX_HEADER_BYTES } }, handler);
  const sockets = new Set<Socket>();
  const sessions = new Set<Http2Session>();
  http2.on("session", (session: Http2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });

  const front = createNetServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.once("data", (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      const length = Math.min(first.length, H2_PREFACE.length);
      const isHttp2 = length >= 4 && first.subarray(0, length).equals(H2_PREFACE.subarray(0, length));
      // The HTTP/2 session hands the unshifted bytes to nghttp2 and reads the socket's handle
      // itself (resuming the JS stream would steal its data); HTTP/1.1 reads the JS stream.
      if (isHttp2) {
        http2.emit("connection", socket);
      } else {
        http1.emit("connection", socket);
        socket.resume();
      }
    });
    socket.on("error", () => socket.destroy());
  });

  return {
    listen(port, host) {
      return new Promise((resolve, reject) => {
        front.once("error", reject);
        front.listen(port, host, () => resolve((front.address() as AddressInfo).port));
      });
    },
    async close(graceMs) {
      const closed = new Promise<void>((resolve) => front.close(() => resolve()));
      handler.drain();
      for (const session of sessions) session.close();
      const deadline = Date.now() + graceMs;
      while (handler.inFlight() > 0 && Date.now() < deadline) {
        http1.closeIdleConnections();
        await new Promise((r) => setTimeout(r, 25));
      }
      http1.closeIdleConnections();
      http1.close(() => {}); // stops the connection-tracking timer; there is no listener to close
      for (const session of sessions) session.destroy();
      for (const socket of sockets) socket.destroy();
      await closed;
      // The cut-off requests close (and write their access-log line) a turn or two later; the
      // process may exit right after this returns.
      const settled = Date.now() + 250;
      while (handler.inFlight() > 0 && Date.now() < settled) await new Promise((r) => setTimeout(r, 5));
    },
  };
}
