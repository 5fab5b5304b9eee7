import { connect as h2connect, type ClientHttp2Session } from "node:http2";
import { connect, type Socket } from "node:net";

// Requests a test keeps in flight on purpose: headers and half the body are sent, the rest
// waits for finish(). Until then the server is serving them (it has routed them and is reading
// their body), so a SIGTERM meanwhile lands on requests that are truly in flight.

export interface HeldAnswer {
  /** 0: the connection closed without a complete answer. */
  status: number;
  requestId?: string;
  body: string;
  protocol: "http/1.1" | "h2";
}

export interface HeldRequest {
  /** Sends the rest of the body; resolves with what the client got. */
  finish(): Promise<HeldAnswer>;
  /** What the client got, without sending the rest (the server cut it off). */
  answer: Promise<HeldAnswer>;
}

const PATHS = { rest: "/v1/account/login", connect: "/gatehouse.account.v1.AccountService/Login" } as const;

/** A TCP connection to the server on 127.0.0.1, once it is open. */
export async function connectedSocket(port: number): Promise<Socket> {
  const socket = connect(port, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  return socket;
}

/** An Account Login over HTTP/1.1 (REST or Connect JSON) on its own connection. */
export async function holdHttp1(
  port: number,
  kind: keyof typeof PATHS,
  body: string,
  headers: Record<string, string> = {},
): Promise<HeldRequest> {
  const socket = await connectedSocket(port);
  let raw = "";
  socket.on("data", (d: Buffer) => (raw += d.toString()));
  socket.on("error", () => {});
  const answer = new Promise<HeldAnswer>((resolve) =>
    socket.once("close", () => {
      const head = /^HTTP\/1\.1 (\d{3})/.exec(raw);
      const split = raw.indexOf("\r\n\r\n");
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(raw)?.[1] ?? NaN);
      const bodyText = split === -1 ? "" : raw.slice(split + 4);
      // Complete: a status line, and as many body bytes as announced.
      const complete = head !== null && split !== -1 && Buffer.byteLength(bodyText) === length;
      resolve({
        status: complete ? Number(head[1]) : 0,
        requestId: /\r\nx-request-id: (\S+)/i.exec(raw)?.[1],
        body: bodyText,
        protocol: "http/1.1",
      });
    }),
  );
  const extra = Object.entries({ ...(kind === "connect" && { "connect-protocol-version": "1" }), ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  const half = Math.floor(body.length / 2);
  socket.write(
    `POST ${PATHS[kind]} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
  );
  return {
    answer,
    finish() {
      socket.write(body.slice(half));
      return answer;
    },
  };
}

/** An HTTP/2 session for Connect JSON calls held on its streams. */
export async function h2Session(port: number): Promise<ClientHttp2Session> {
  const session = h2connect(`http://127.0.0.1:${port}`);
  session.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    session.once("connect", () => resolve());
    session.once("error", reject);
  });
  return session;
}

/** An Account Login over Connect JSON on a stream of an HTTP/2 session. */
export function holdHttp2(
  session: ClientHttp2Session,
  body: string,
  headers: Record<string, string> = {},
): HeldRequest {
  const stream = session.request({
    ":method": "POST",
    ":path": PATHS.connect,
    "content-type": "application/json",
    "connect-protocol-version": "1",
    ...headers,
  });
  let status = 0;
  let requestId: string | undefined;
  let text = "";
  stream.on("response", (h) => {
    status = Number(h[":status"]);
    requestId = h["x-request-id"] as string | undefined;
  });
  stream.setEncoding("utf8");
  stream.on("data", (d: string) => (text += d));
  stream.on("error", () => {});
  const answer = new Promise<HeldAnswer>((resolve) => {
    let ended = false;
    stream.once("end", () => (ended = true));
    stream.once("close", () => resolve({ status: ended ? status : 0, requestId, body: text, protocol: "h2" }));
  });
  const half = Math.floor(body.length / 2);
  stream.write(body.slice(0, half));
  return {
    answer,
    finish() {
      stream.end(body.slice(half));
      return answer;
    },
  };
}
