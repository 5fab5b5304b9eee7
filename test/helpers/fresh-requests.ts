import { constants, type ClientHttp2Session } from "node:http2";
import type { Socket } from "node:net";
import { connectedSocket, h2Session } from "./held-requests.js";

// Requests written whole on connections a client has just opened, as a keep-alive pool sends
// them: the test controls when the connection opens and when the request is written, and
// records what came back, a complete answer or how the connection failed.

export interface Answer {
  /** 0: no complete answer (the connection or stream failed). */
  status: number;
  requestId?: string;
  /** How it failed: a socket error code, "closed", or an HTTP/2 reset code. */
  failure?: string;
}

export interface FreshRequest {
  path: string;
  body: unknown;
  headers?: Record<string, string>;
}

export interface FreshSocket {
  socket: Socket;
  /** The client's port: names the connection in /proc (server-sockets.ts). */
  localPort: number;
  /** The first answer on the connection (HTTP/1.1), or how it failed. */
  answer: Promise<Answer>;
}

/** A connected socket that has sent nothing yet; write `http1Request` text on it, whole or in parts. */
export async function freshSocket(port: number): Promise<FreshSocket> {
  const socket = await connectedSocket(port);
  return { socket, localPort: socket.localPort!, answer: readAnswer(socket) };
}

/** A keep-alive HTTP/1.1 POST of JSON, as text. */
export function http1Request(request: FreshRequest): string {
  const body = JSON.stringify(request.body);
  const extra = Object.entries(request.headers ?? {})
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  return `POST ${request.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** The first HTTP/1.1 response on `socket`: complete once its Content-Length of body is in. */
function readAnswer(socket: Socket): Promise<Answer> {
  return new Promise((resolve) => {
    let raw = Buffer.alloc(0);
    let failure = "closed";
    const done = (answer: Answer) => {
      socket.off("data", onData);
      resolve(answer);
    };
    const onData = (chunk: Buffer) => {
      raw = Buffer.concat([raw, chunk]);
      const split = raw.indexOf("\r\n\r\n");
      if (split === -1) return;
      const head = raw.subarray(0, split).toString("latin1");
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? NaN);
      if (raw.length - split - 4 < length) return;
      done({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
        requestId: /\r\nx-request-id: *(\S+)/i.exec(head)?.[1],
      });
    };
    socket.on("data", onData);
    socket.on("error", (error: NodeJS.ErrnoException) => (failure = error.code ?? error.message));
    socket.once("close", () => done({ status: 0, failure }));
  });
}

/** An HTTP/2 session whose connection is open; nothing requested yet. */
export async function freshSession(port: number): Promise<{ session: ClientHttp2Session; localPort: number }> {
  const session = await h2Session(port);
  return { session, localPort: session.socket.localPort! };
}

/**
 * A JSON POST on a new stream of `session`. A stream the server refused (REFUSED_STREAM, or
 * above the last stream id of its GOAWAY) fails with "NGHTTP2_REFUSED_STREAM": never processed,
 * safe to retry; one the client could not open (the session was going away) fails with its error
 * code, having sent nothing.
 */
export function h2Post(session: ClientHttp2Session, request: FreshRequest): Promise<Answer> {
  let stream;
  try {
    stream = session.request({
      ":method": "POST",
      ":path": request.path,
      "content-type": "application/json",
      ...request.headers,
    });
  } catch (error) {
    return Promise.resolve({ status: 0, failure: (error as NodeJS.ErrnoException).code ?? "request failed" });
  }
  let status = 0;
  let requestId: string | undefined;
  let ended = false;
  stream.on("response", (headers) => {
    status = Number(headers[":status"]);
    requestId = headers["x-request-id"] as string | undefined;
  });
  stream.on("data", () => {});
  stream.once("end", () => (ended = true));
  let failure = "closed";
  stream.on("error", (error: NodeJS.ErrnoException) => (failure = error.code ?? error.message));
  stream.end(JSON.stringify(request.body));
  return new Promise((resolve) =>
    stream.once("close", () => {
      if (ended) return resolve({ status, requestId });
      resolve({
        status: 0,
        failure: stream.rstCode === constants.NGHTTP2_REFUSED_STREAM ? "NGHTTP2_REFUSED_STREAM" : failure,
      });
    }),
  );
}
