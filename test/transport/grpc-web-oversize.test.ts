import { connect as h2connect } from "node:http2";
import { connect as netConnect, type Socket } from "node:net";
import { Code } from "@connectrpc/connect";
import { findTrailerError } from "@connectrpc/connect/protocol-grpc";
import { trailerParse } from "@connectrpc/connect/protocol-grpc-web";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { envelope } from "../fuzz/arbitraries.js";
import { sendHttp1 } from "../fuzz/senders.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { WAIT_GUARD_MS } from "../helpers/patience.js";

// Threat: a gRPC-Web client over HTTP/1.1 declaring a body far over the 1 MiB cap (or a message
// over it) holds a connection and makes the server read what it sends. The refusal was
// written, but the server then kept reading the body to its end (Node drains an unread request
// body to keep the connection for the next one), so a client sending slowly held the socket
// and a fast one made the server read gigabytes. The answer must come at once, RESOURCE_EXHAUSTED
// REQUEST_TOO_LARGE as on gRPC, with `Connection: close`, and the connection must end while
// the client has still not sent the rest. A body declared over the cap is refused before it is
// read, on gRPC over HTTP/2 as well (there the stream is closed).

const SIGNUP = "/gatehouse.auth.v1.AuthService/Signup";
const CAP = 1024 * 1024;
const HUGE = 1024 * CAP;
/**
 * "At once" is held against what the server would otherwise wait for, not against a second a
 * busy machine can exceed: a connection left waiting for the rest of its body ends anyway at
 * the server's request timeout (30 s, transport/one-port.ts), so the refusal must close it
 * well before that.
 */
const REQUEST_TIMEOUT_MS = 30_000;
const AT_ONCE_MS = REQUEST_TIMEOUT_MS / 2;

interface RawAnswer {
  head: string;
  headers: Map<string, string>;
  body: Buffer;
  /** Milliseconds from the first byte sent to the socket's end, or undefined if it stayed open. */
  closedAfterMs?: number;
}

describe("gRPC-Web over HTTP/1.1: a body over the cap", () => {
  let server: TestServer;
  let app: AuthFixture;
  let port: number;

  beforeAll(async () => {
    server = await sharedTestServer();
    port = Number(new URL(server.url).port);
    app = await authFixture(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const head = (extra: string) =>
    `POST ${SIGNUP} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/grpc-web+proto\r\nX-Grpc-Web: 1\r\nX-Service-Key: ${app.key}\r\n${extra}\r\n`;

  it("declared in Content-Length: answered at once and the connection closed, the rest never sent", async () => {
    // The envelope's own length is small: only the declared Content-Length is over the cap.
    const part = Buffer.from(envelope(0, Buffer.alloc(1000, 0x61)));
    const answer = await exchange(port, [Buffer.from(head(`Content-Length: ${HUGE}\r\n`)), part]);
    expectRefusal(answer);
  });

  it("declared in the message's envelope (chunked, no Content-Length): answered at once and the connection closed", async () => {
    const start = envelope(0, Buffer.alloc(64 * 1024, 0x61), HUGE);
    const chunk = Buffer.concat([Buffer.from(`${start.length.toString(16)}\r\n`), start, Buffer.from("\r\n")]);
    const answer = await exchange(port, [Buffer.from(head("Transfer-Encoding: chunked\r\n")), chunk]);
    expectRefusal(answer);
  });

  it("a client that keeps sending after the answer is cut off, not read to the end", async () => {
    const answer = await exchange(
      port,
      [Buffer.from(head(`Content-Length: ${HUGE}\r\n`)), Buffer.from(envelope(0, Buffer.alloc(100, 0x61), HUGE))],
      { keepSending: true },
    );
    expectRefusal(answer);
  });

  it("gRPC over HTTP/2 with a Content-Length over the cap: the same answer, and the stream the client is writing is closed", async () => {
    const session = h2connect(`http://127.0.0.1:${port}`);
    const stream = session.request({
      ":method": "POST",
      ":path": SIGNUP,
      "content-type": "application/grpc",
      te: "trailers",
      "content-length": String(HUGE),
      "x-service-key": app.key,
    });
    let status: string | undefined;
    let details: Headers | undefined;
    const keep = (h: Record<string, unknown>) => {
      if (h["grpc-status"] === undefined) return;
      status = (h["grpc-status"] as string | string[]).toString();
      details = new Headers(
        Object.entries(h)
          .filter(([k]) => !k.startsWith(":"))
          .map(([k, v]) => [k, String(v)]),
      );
    };
    stream.on("response", keep);
    stream.on("trailers", keep);
    stream.on("error", () => {});
    stream.write(envelope(0, Buffer.alloc(64 * 1024, 0x61), HUGE));
    const deadline = Date.now() + AT_ONCE_MS;
    while (!stream.closed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(status).toBe(String(Code.ResourceExhausted));
    expect(findTrailerError(details!)?.findDetails(ErrorInfoSchema)[0]?.reason).toBe("REQUEST_TOO_LARGE");
    expect(stream.closed, "the server closed the stream").toBe(true);
    session.destroy();
  });

  it("a body within the cap is a normal call on a kept-alive connection, and the service stays healthy", async () => {
    const ok = await sendHttp1(
      port,
      {
        method: "POST",
        path: SIGNUP,
        headers: { "content-type": "application/grpc-web+proto", "x-service-key": app.key },
        body: envelope(0, Buffer.alloc(0)),
      },
      WAIT_GUARD_MS,
    );
    // An empty SignupRequest: refused for its fields, after the whole body was read.
    expect({ status: ok.status, grpc: ok.grpcStatus }).toEqual({ status: 200, grpc: Code.InvalidArgument });
    expect(ok.headers.connection).not.toBe("close");
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

function expectRefusal(answer: RawAnswer): void {
  expect(answer.head).toMatch(/^HTTP\/1\.1 200 /);
  expect(answer.headers.get("connection")).toBe("close");
  const trailer = answer.headers.has("grpc-status") ? headersOf(answer.headers) : trailerFrameOf(answer.body);
  const error = findTrailerError(trailer);
  expect(error?.code).toBe(Code.ResourceExhausted);
  expect(error?.findDetails(ErrorInfoSchema)[0]?.reason).toBe("REQUEST_TOO_LARGE");
  expect(answer.closedAfterMs, "the server closed the connection well before its request timeout").toBeLessThan(
    AT_ONCE_MS,
  );
}

/**
 * Writes the pieces on a raw socket and never the rest of the declared body (or, with
 * keepSending, 64 KiB more every 10 ms); answers what came back and when the server ended the
 * connection, giving up at AT_ONCE_MS.
 */
function exchange(port: number, pieces: Buffer[], options: { keepSending?: boolean } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket: Socket = netConnect(port, "127.0.0.1");
    const received: Buffer[] = [];
    let started = 0;
    let pump: NodeJS.Timeout | undefined;
    let giveUp: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      clearInterval(pump);
      clearTimeout(giveUp);
      const closedAfterMs = closed ? Date.now() - started : undefined;
      socket.destroy();
      try {
        resolve({ ...parseResponse(Buffer.concat(received)), closedAfterMs });
      } catch (error) {
        reject(error instanceof Error ? error : new Error("the response did not parse"));
      }
    };
    socket.on("connect", () => {
      started = Date.now();
      for (const piece of pieces) socket.write(piece);
      if (options.keepSending)
        pump = setInterval(() => socket.writable && socket.write(Buffer.alloc(64 * 1024, 0x61)), 10);
      giveUp = setTimeout(() => finish(false), AT_ONCE_MS);
    });
    socket.on("data", (chunk: Buffer) => {
      received.push(chunk);
    });
    // The server's FIN, or its RST if our unread bytes were still in its buffer: either ends it.
    socket.on("end", () => finish(true));
    socket.on("error", () => finish(true));
  });
}

function parseResponse(raw: Buffer): Omit<RawAnswer, "closedAfterMs"> {
  const split = raw.indexOf("\r\n\r\n");
  if (split < 0)
    throw new Error(`no complete response head in ${JSON.stringify(raw.toString("latin1").slice(0, 200))}`);
  const lines = raw.subarray(0, split).toString("latin1").split("\r\n");
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  let body = raw.subarray(split + 4);
  if (headers.get("transfer-encoding") === "chunked") body = unchunk(body);
  return { head: lines[0], headers, body };
}

function unchunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf("\r\n", at);
    if (eol < 0) break;
    const size = parseInt(data.subarray(at, eol).toString("latin1"), 16);
    if (!(size > 0)) break;
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

function headersOf(map: Map<string, string>): Headers {
  return new Headers([...map.entries()]);
}

/** The 0x80 frame of a gRPC-Web body. */
function trailerFrameOf(body: Buffer): Headers {
  let at = 0;
  while (at + 5 <= body.length) {
    const length = body.readUInt32BE(at + 1);
    if (body[at] & 0x80) return trailerParse(body.subarray(at + 5, at + 5 + length));
    at += 5 + length;
  }
  throw new Error("no trailer frame in the body");
}
