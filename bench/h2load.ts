// Load from h2load (Debian's nghttp2-client), a C generator: on one core it drives several
// times the requests a Node generator can, so a ceiling measured with it is the server's, not
// the generator's. Used for the per-core workloads with a fixed request (the ceilings and the
// cached VerifyToken on each protocol); answers are checked by the caller (status codes here,
// gRPC statuses through the service's own request counter, see run.ts).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { percentile, type RunResult } from "./stats.js";

export interface H2loadRequest {
  url: string;
  body: Uint8Array;
  headers: Record<string, string>;
  /** HTTP/1.1 (keep-alive, one request in flight per connection) rather than h2c. */
  http1: boolean;
  connections: number;
  /** HTTP/2 only: streams in flight per connection. */
  streams?: number;
}

/** A gRPC message in its envelope: flag 0, 4-byte length. */
export function envelope(message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(5 + message.byteLength);
  out[0] = 0;
  out.writeUInt32BE(message.byteLength, 1);
  out.set(message, 5);
  return out;
}

export function h2loadAvailable(): boolean {
  return spawnSync("h2load", ["--version"], { stdio: "ignore" }).status === 0;
}

/** One timed run; latencies from h2load's per-request log, 2xx only. */
export async function h2load(request: H2loadRequest, seconds: number): Promise<RunResult & { ok: number }> {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-h2load-"));
  try {
    const bodyFile = join(dir, "body");
    const logFile = join(dir, "log");
    writeFileSync(bodyFile, request.body);
    const args = [
      "-D",
      `${Math.round(seconds * 1000)}ms`,
      "-c",
      String(request.connections),
      "-m",
      String(request.http1 ? 1 : (request.streams ?? 1)),
      "-d",
      bodyFile,
      `--log-file=${logFile}`,
      ...Object.entries(request.headers).flatMap(([name, value]) => ["-H", `${name}: ${value}`]),
      ...(request.http1 ? ["--h1"] : []),
      request.url,
    ];
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn("h2load", args, { stdio: ["ignore", "pipe", "pipe"] });
      let text = "";
      child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (text += chunk.toString()));
      const timer = setTimeout(() => child.kill("SIGKILL"), (seconds + 30) * 1000);
      child.once("error", reject);
      child.once("exit", (code) => {
        clearTimeout(timer);
        if (code === 0) resolve(text);
        else reject(new Error(`h2load exited with ${code}: ${text.slice(-500)}`));
      });
    });
    // "finished in 2.00s, 25011.50 req/s, …" (or "in 500.12ms") and "status codes: 50023 2xx, 0 3xx, 0 4xx, 0 5xx"
    const finished = /finished in ([\d.]+)(ms|s)/.exec(output);
    const elapsed = finished ? Number(finished[1]) / (finished[2] === "ms" ? 1000 : 1) : NaN;
    const codes = /status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/.exec(output);
    const failed = /requests: .*?(\d+) failed, (\d+) errored, (\d+) timeout/.exec(output);
    if (!codes || !Number.isFinite(elapsed)) throw new Error(`h2load printed no result: ${output.slice(-500)}`);
    const ok = Number(codes[1]);
    const latencies = readFileSync(logFile, "utf8")
      .split("\n")
      .map((line) => line.split("\t"))
      .filter((cols) => cols.length >= 3 && cols[1].startsWith("2"))
      .map((cols) => Number(cols[2]) / 1000)
      .sort((a, b) => a - b);
    return {
      rps: ok / elapsed,
      ok,
      p50_ms: percentile(latencies, 50),
      p99_ms: percentile(latencies, 99),
      errors:
        Number(codes[2]) + Number(codes[3]) + Number(codes[4]) + Number(failed?.[1] ?? 0) + Number(failed?.[2] ?? 0),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
