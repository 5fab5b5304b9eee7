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

/**
 * How long after a shutdown starts open connections are still read. A client that wrote its
 * request just before the listener closed (a fresh socket, or an idle keep-alive one) has it in
 * a socket buffer or on the wire, or queued behind a busy event loop; closing that connection
 * resets it with no answer and no log line. A second covers a loaded host's event-loop stalls
 * and network delay many times over; at most half the grace, so what arrives late in it still
 * has time to be answered. Shutdown waits for it only while connections are open.
 */
export const SHUTDOWN_SETTLE_MS = 1000;

function settleMs(graceMs: number): number {
  return Math.min(SHUTDOWN_SETTLE_MS, graceMs / 2);
}

/** `:method`, `:path`, `:scheme`, `:authority`: counted by nghttp2, not by the cap. */
const H2_PSEUDO_HEADERS = 4;

export interface OnePortServer {
  /** What the port hands each request to; tests inject requests into it in memory. */
  handle: HttpHandler;
  listen(port: number, host: string): Promise<number>;
  /**
   * Stops accepting; answers what arrives on open connections during the settle period and the
   * requests in flight for up to graceMs; then closes.
   */
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
    {
      keepAliveTimeout: 5000,
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      connectionsCheckingInterval: 1000,
    },
    handler,
  );
  http1.maxHeadersCount = MAX_HEADER_COUNT + 1;
  http1.on("clientError", answerClientError);
  // This server never listens itself (the front server hands it connections), and Node starts
  // tracking connections, which the two timeouts and closeIdleConnections rely on, only on
  // "listening". Without this, a client sending its headers a byte at a time held a connection
  // for ever.
  http1.emit("listening");
  const http2 = createHttp2Server(
    { maxHeaderListPairs: MAX_HEADER_COUNT + 1 + H2_PSEUDO_HEADERS, settings: { maxHeaderListSize: MAX_HEADER_BYTES } },
    handler,
  );
  const sockets = new Set<Socket>();
  // Connections whose first bytes decided their protocol; the others have sent nothing yet.
  const sniffed = new WeakSet<Socket>();
  const sessions = new Set<Http2Session>();
  http2.on("session", (session: Http2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });

  const front = createNetServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.once("data", (first: Buffer) => {
      sniffed.add(socket);
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
    handle: handler,
    listen(port, host) {
      return new Promise((resolve, reject) => {
        front.once("error", reject);
        front.listen(port, host, () => resolve((front.address() as AddressInfo).port));
      });
    },
    async close(graceMs) {
      const started = Date.now();
      const deadline = started + graceMs;
      const settleEnd = started + settleMs(graceMs);
      const closed = new Promise<void>((resolve) => front.close(() => resolve()));
      handler.drain();
      let settleOver = false;
      // Until the settle period ends every open connection is still read, and what arrives on it
      // is answered (HTTP/1.1 with `Connection: close`); then the silent ones are closed and
      // HTTP/2 sessions hear GOAWAY. Done once no connection is left, or at the grace.
      while ((sockets.size > 0 || handler.inFlight() > 0) && Date.now() < deadline) {
        if (!settleOver && Date.now() >= settleEnd) {
          settleOver = true;
          // One more turn of the poll phase first: a timer that fired late (a busy event loop)
          // must not close a connection whose request is already waiting to be read.
          await new Promise((r) => setImmediate(r));
          // GOAWAY names the last stream taken; the session ends once those are answered, and
          // the client retries any later stream elsewhere (REFUSED_STREAM).
          for (const session of sessions) session.close();
          for (const socket of sockets) if (!sniffed.has(socket)) socket.destroy();
        }
        if (settleOver) http1.closeIdleConnections();
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
