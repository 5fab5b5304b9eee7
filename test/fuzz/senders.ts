import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import {
  connect as h2connect,
  constants,
  type ClientHttp2Session,
  type IncomingHttpHeaders as H2Headers,
} from "node:http2";

// Raw senders: node:http for REST, Connect and gRPC-Web (no URL normalisation, any header, any
// bytes), node:http2 for gRPC frames no gRPC library would write.

export interface Outcome {
  /** HTTP status, when an answer came. */
  status?: number;
  /** grpc-status from the trailers, the headers (trailers-only) or a gRPC-Web trailer frame. */
  grpcStatus?: number;
  grpcMessage?: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The request failed without an answer: timeout, reset, refused. */
  failure?: string;
}

export interface HttpCall {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array | string;
}

// A connection per request: a reused socket the server just closed would fail the next request for nothing.
const agent = new Agent({ keepAlive: false, maxSockets: 32 });

export function sendHttp1(port: number, call: HttpCall, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = httpRequest(
      { host: "127.0.0.1", port, method: call.method, path: call.path, headers: call.headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const raw = Buffer.concat(chunks);
          const outcome: Outcome = { status: res.statusCode, headers: res.headers, body: raw.toString("utf8") };
          readGrpcWebStatus(res.headers, raw, outcome);
          done(outcome);
        });
        res.on("error", (e) => done({ headers: res.headers, body: "", failure: `response error: ${e.message}` }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      done({ headers: {}, body: "", failure: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    req.on("error", (e) => done({ headers: {}, body: "", failure: `request error: ${e.message}` }));
    req.end(call.body === undefined ? undefined : Buffer.from(call.body));
  });
}

/** gRPC-Web: grpc-status in the headers (trailers-only) or in the 0x80 trailer frame of the body. */
function readGrpcWebStatus(headers: IncomingHttpHeaders, raw: Buffer, outcome: Outcome): void {
  if (!String(headers["content-type"] ?? "").startsWith("application/grpc")) return;
  if (headers["grpc-status"] !== undefined) {
    outcome.grpcStatus = Number(headers["grpc-status"]);
    outcome.grpcMessage = decodeURIComponent(String(headers["grpc-message"] ?? ""));
    return;
  }
  let at = 0;
  while (at + 5 <= raw.length) {
    const flag = raw[at];
    const length = raw.readUInt32BE(at + 1);
    const data = raw.subarray(at + 5, at + 5 + length);
    if (flag & 0x80) {
      for (const line of data.toString("utf8").split("\r\n")) {
        const [name, ...rest] = line.split(":");
        if (name.trim().toLowerCase() === "grpc-status") outcome.grpcStatus = Number(rest.join(":").trim());
        if (name.trim().toLowerCase() === "grpc-message")
          outcome.grpcMessage = decodeURIComponent(rest.join(":").trim());
      }
    }
    at += 5 + length;
  }
}

export interface GrpcFrameCall {
  path: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** One HTTP/2 session, reopened when the server closes it. */
export class RawGrpc {
  private session?: ClientHttp2Session;
  constructor(private readonly port: number) {}

  private open(): ClientHttp2Session {
    if (!this.session || this.session.closed || this.session.destroyed) {
      // Room for many large uploads at once (Node refuses new streams past 10 MB by default).
      this.session = h2connect(`http://127.0.0.1:${this.port}`, { maxSessionMemory: 200 });
      this.session.on("error", () => {});
    }
    return this.session;
  }

  send(call: GrpcFrameCall, timeoutMs: number): Promise<Outcome> {
    return new Promise((resolve) => {
      let settled = false;
      let headers: H2Headers = {};
      let trailers: H2Headers = {};
      const chunks: Buffer[] = [];
      const done = (outcome: Outcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const stream = this.open().request({
        ":method": "POST",
        ":path": call.path,
        te: "trailers",
        ...call.headers,
      });
      const timer = setTimeout(() => {
        stream.close(constants.NGHTTP2_CANCEL);
        done({ headers, body: "", failure: `no answer within ${timeoutMs} ms` });
      }, timeoutMs);
      stream.on("response", (h) => (headers = h));
      // A gRPC client is done at the trailers: a stream the server reset while the request was
      // still being written does not always emit "close" on Node's client.
      stream.on("trailers", (t) => {
        trailers = t;
        setImmediate(finish);
      });
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("error", () => {});
      const finish = () => {
        const status = trailers["grpc-status"] ?? headers["grpc-status"];
        const message = trailers["grpc-message"] ?? headers["grpc-message"];
        const outcome: Outcome = {
          status: headers[":status"] === undefined ? undefined : Number(headers[":status"]),
          grpcStatus: status === undefined ? undefined : Number(status),
          grpcMessage: message === undefined ? undefined : decodeURIComponent(String(message)),
          headers: { ...headers, ...trailers },
          body: Buffer.concat(chunks).toString("utf8"),
        };
        if (outcome.status === undefined) outcome.failure = `stream closed without an answer (rst ${stream.rstCode})`;
        // Not reset from here: a client resetting every stream trips Node's rapid-reset guard
        // (GOAWAY ENHANCE_YOUR_CALM), which would end the session for the requests beside it.
        done(outcome);
      };
      stream.on("close", finish);
      stream.end(Buffer.from(call.body));
    });
  }

  close(): void {
    this.session?.close();
  }
}
