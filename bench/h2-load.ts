// A gRPC unary load generator on raw node:http2, for workloads a @grpc/grpc-js client cannot
// drive fast enough: on one core grpc-js's client spends more per call than the servers it
// measures (the ceilings here answer in tens of microseconds). Fixed request bytes, `sessions`
// HTTP/2 connections with `streams` calls in flight on each, for a fixed time. A call counts
// only when it answered HTTP 200, `grpc-status: 0` and a message `check` accepts.
import { connect, constants, type ClientHttp2Session } from "node:http2";
import { percentile, type RunResult } from "./stats.js";

export interface GrpcLoad {
  port: number;
  /** `/package.Service/Method` */
  path: string;
  /** The request message, serialized (the envelope is added here). */
  message: Uint8Array;
  metadata?: Record<string, string>;
  /** The answer's message without its envelope: true when it is the expected one. */
  check: (message: Buffer) => boolean;
  /** The next request message, for workloads that vary it; `message` otherwise. */
  next?: () => Uint8Array;
}

const MAX_CALLS = 10_000_000;
const CONNECT_TIMEOUT_MS = 5000;

export function envelope(message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(5 + message.byteLength);
  out[0] = 0;
  out.writeUInt32BE(message.byteLength, 1);
  out.set(message, 5);
  return out;
}

function open(port: number): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = connect(`http://127.0.0.1:${port}`);
    const timer = setTimeout(
      () => reject(new Error(`no HTTP/2 connection to port ${port} in ${CONNECT_TIMEOUT_MS} ms`)),
      CONNECT_TIMEOUT_MS,
    );
    session.once("connect", () => {
      clearTimeout(timer);
      resolve(session);
    });
    session.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** `sessions` connections × `streams` calls in flight, for `seconds`. */
export async function grpcLoad(
  load: GrpcLoad,
  opts: { sessions: number; streams: number; seconds: number },
): Promise<RunResult> {
  const sessions = await Promise.all(Array.from({ length: opts.sessions }, () => open(load.port)));
  const headers = {
    [constants.HTTP2_HEADER_METHOD]: "POST",
    [constants.HTTP2_HEADER_PATH]: load.path,
    "content-type": "application/grpc",
    te: "trailers",
    ...load.metadata,
  };
  const fixed = envelope(load.message);
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + opts.seconds * 1000;
  const callOnce = (session: ClientHttp2Session) =>
    new Promise<boolean>((resolve) => {
      const t0 = performance.now();
      const stream = session.request(headers, { endStream: false });
      let status = 0;
      let grpcStatus: string | undefined;
      const chunks: Buffer[] = [];
      stream.on("response", (h) => {
        status = Number(h[":status"]);
        if (h["grpc-status"] !== undefined) grpcStatus = String(h["grpc-status"]);
      });
      stream.on("trailers", (t) => {
        if (t["grpc-status"] !== undefined) grpcStatus = String(t["grpc-status"]);
      });
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", () => resolve(false));
      stream.on("close", () => {
        const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        const ok =
          status === 200 &&
          grpcStatus === "0" &&
          body.length >= 5 &&
          body[0] === 0 &&
          body.readUInt32BE(1) === body.length - 5 &&
          load.check(body.subarray(5));
        if (ok) latencies.push(performance.now() - t0);
        resolve(ok);
      });
      stream.end(load.next ? envelope(load.next()) : fixed);
    });
  await Promise.all(
    sessions.flatMap((session) =>
      Array.from({ length: opts.streams }, async () => {
        for (let n = 0; n < MAX_CALLS && performance.now() < deadline; n++) {
          if (!(await callOnce(session))) {
            errors++;
            if (errors > 1000) break;
          }
        }
      }),
    ),
  );
  const elapsed = (performance.now() - started) / 1000;
  for (const session of sessions) session.close();
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / elapsed,
    p50_ms: percentile(latencies, 50),
    p99_ms: percentile(latencies, 99),
    errors,
  };
}
