// `npm run bench [-- --quick | --scale | --profile]`: Gatehouse against the machine's own ceilings,
// in one run. `--profile` instead CPU-profiles the service under VerifyToken load (Connect JSON)
// and prints where its main thread spent the time; `--cpu[=workload]` runs one workload without
// the profiler and prints where the whole machine's CPU went (bench/cpu-split.ts).
//
// Gatehouse runs in its own child process on a scratch PostgreSQL database; the ceiling servers
// run in child processes too; load comes from this process over loopback (autocannon for
// HTTP/1.1, closed loops of our own for gRPC and Refresh). Every run is bounded in time.
// Results: bench/results.json and a Markdown table on stdout; progress on stderr.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import autocannon, { type AutocannonRequest, type RequestParams, type Result as CannonResult } from "autocannon";
import { create, toBinary } from "@bufbuild/protobuf";
import { SignJWT, exportJWK, generateKeyPair, importJWK, jwtVerify } from "jose";
import { VerifyTokenRequestSchema } from "../gen/gatehouse/auth/v1/sign_in_pb.js";
import { HealthCheckRequestSchema } from "../gen/grpc/health/v1/health_pb.js";
import pg from "pg";
import type { Client } from "@grpc/grpc-js";
import { loadConfig } from "../src/config.js";
import { closedLoop, grpcClients, grpcUnary, waitForReady } from "./closed-loop.js";
import { envelope, h2load, h2loadAvailable } from "./h2load.js";
import { http1Loop } from "./http1-loop.js";
import { formatGc, summarizeGc } from "./gc-trace.js";
import { pinned } from "./pin.js";
import { formatCpuSplit, withCpuSplit } from "./cpu-split.js";
import { formatProfile, summarizeProfiles } from "./profile.js";
import { sourceNodeArgs, startCommand, type StartCommand } from "./start-command.js";
import { BENCH_PASSWORD, openBenchDeps, seed, type Seeded } from "./seed.js";
import { pairedRatio, percentile, summarize, withPeakRss, type RunResult, type Summary } from "./stats.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = new Set(process.argv.slice(2));
const QUICK = args.has("--quick");
const SCALE = args.has("--scale");
// The service as `npm start` runs it (`npm run build`, then `node dist/src/main.js`); `--tsx`
// runs src/ through the tsx loader instead (no build; the loader adds memory and start-up work).
const DIST = !args.has("--tsx");
const PROFILED = ["verify", "verify_grpc", "verify_unique", "login", "signup", "refresh"] as const;
const profileArg = [...args].find((a) => a === "--profile" || a.startsWith("--profile="));
const PROFILE =
  profileArg === undefined ? undefined : ((profileArg.split("=")[1] ?? "verify") as (typeof PROFILED)[number]);
const cpuArg = [...args].find((a) => a === "--cpu" || a.startsWith("--cpu="));
const CPU = cpuArg === undefined ? undefined : ((cpuArg.split("=")[1] ?? "login") as (typeof PROFILED)[number]);
const gcArg = [...args].find((a) => a === "--gc" || a.startsWith("--gc="));
const GC = gcArg === undefined ? undefined : ((gcArg.split("=")[1] ?? "verify") as (typeof PROFILED)[number]);
for (const [flag, value] of [
  ["--profile", PROFILE],
  ["--cpu", CPU],
  ["--gc", GC],
] as const) {
  if (value !== undefined && !PROFILED.includes(value)) {
    process.stderr.write(`${flag} takes one of ${PROFILED.join(", ")} (got ${value})\n`);
    process.exit(2);
  }
}
for (const arg of args) {
  if (!["--quick", "--scale", "--tsx"].includes(arg) && arg !== profileArg && arg !== cpuArg && arg !== gcArg) {
    process.stderr.write(
      `usage: npm run bench [-- --quick] [--scale] [--tsx] [--profile[=verify|verify_grpc|verify_unique|login|signup|refresh]] [--cpu[=…]] [--gc[=…]]   (unknown argument ${arg})\n`,
    );
    process.exit(2);
  }
}

const CORES = availableParallelism();
const RUNS = 3;
// Workloads compared with a ceiling: more rounds, since each round yields one ratio.
const PAIRED_RUNS = QUICK ? 3 : 5;
// Whole seconds: autocannon rounds a fraction up.
const WORKLOAD_S = QUICK ? 2 : 10;
const CEILING_S = QUICK ? 1 : 5;
const WARMUP_S = QUICK ? 0.5 : 3;
const SEARCH_USERS = SCALE ? 10_000_000 : QUICK ? 20_000 : 100_000;
// The issue's measure: p99 at 16 connections.
const VERIFY_CONNECTIONS = 16;
// gRPC: 4 HTTP/2 connections with 4 calls in flight on each, the same 16 calls in flight.
const H2_SESSIONS = 4;
const H2_STREAMS = 4;
const LIST_CONNECTIONS = 2 * CORES;
// argon2-bound flows: enough to keep the service's argon2 gate (= cores) full, not a flood.
// cores + 1 underfed it: when two hashes end together one slot waits for a whole round trip
// (response, next request, user lookup): `top` showed about 155 % of the 2 cores busy.
const ARGON2_CONNECTIONS = 2 * CORES;
const REFRESH_CALLERS = 2 * CORES;
const GRPC_CHANNELS = 2 * CORES;
const UNIQUE_TOKENS = 12_000;

const t0 = Date.now();
const progress = (line: string) =>
  process.stderr.write(`[bench ${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);

// ---------------------------------------------------------------------------------------------
// Processes and the scratch database, cleaned up on every exit path.

const children = new Set<ChildProcess>();
let dropDatabase: (() => Promise<void>) | undefined;
let cleaning: Promise<void> | undefined;
const scratchDir = mkdtempSync(join(tmpdir(), "gatehouse-bench-"));

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await Promise.all([...children].map((child) => exited(child, 12_000)));
    try {
      await dropDatabase?.();
    } catch (error) {
      progress(`could not drop the scratch database: ${String(error)}`);
    }
    rmSync(scratchDir, { recursive: true, force: true });
  })();
  return cleaning;
}

function exited(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      done();
    }, ms);
    child.once("exit", () => {
      clearTimeout(timer);
      done();
    });
  });
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    progress(`${signal}: stopping`);
    void cleanup().finally(() => process.exit(130));
  });
}
process.once("exit", () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

// ---------------------------------------------------------------------------------------------
// Load drivers.

function cannon(opts: {
  url: string;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  requests?: AutocannonRequest[];
  connections: number;
  seconds: number;
}): Promise<RunResult> {
  // autocannon's own histogram keeps whole milliseconds; its per-response event has the
  // hrtime duration, so the percentiles come from those (successful answers only).
  const latencies: number[] = [];
  return new Promise((done, fail) => {
    const instance = autocannon(
      {
        url: `${opts.url}${opts.path}`,
        connections: opts.connections,
        duration: opts.seconds,
        timeout: 10,
        method: opts.method ?? "POST",
        headers: { "content-type": "application/json", ...opts.headers },
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        requests: opts.requests,
      },
      (error, result: CannonResult) => {
        if (error) return fail(error);
        const ok = result["2xx"];
        latencies.sort((a, b) => a - b);
        done({
          // autocannon runs whole seconds (1.25 becomes 2): divide by the time it really ran.
          rps: ok / result.duration,
          p50_ms: percentile(latencies, 50),
          p99_ms: percentile(latencies, 99),
          errors: result.errors + result.timeouts + result.non2xx,
        });
      },
    );
    instance.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (status >= 200 && status < 300) latencies.push(ms);
    });
  });
}

type Measured = [name: string, pid: number | undefined, run: () => Promise<RunResult>];

/**
 * RUNS rounds; each round runs every entry once, in order, with the peak RSS of its process.
 * Entries measured together are the ones compared with each other.
 */
async function interleaved(entries: Measured[], rounds = RUNS): Promise<Summary[]> {
  const results = entries.map(() => [] as RunResult[]);
  for (let i = 1; i <= rounds; i++) {
    for (const [index, [name, pid, run]] of entries.entries()) {
      const { value, rssMb } = await withPeakRss(pid, run);
      results[index].push({ ...value, rss_mb: rssMb });
      progress(
        `${name} run ${i}/${rounds}: ${value.rps.toFixed(value.rps < 100 ? 1 : 0)} req/s, p50 ${value.p50_ms.toFixed(2)} ms, p99 ${value.p99_ms.toFixed(2)} ms` +
          (rssMb ? `, rss ${rssMb.toFixed(0)} MB` : "") +
          (value.errors ? `, ${value.errors} errors` : ""),
      );
    }
  }
  return results.map((runs) => summarize(runs));
}

// ---------------------------------------------------------------------------------------------
// Children.

/** A ceiling child, with the same environment settings and node flags as the service. */
function spawnCeiling(args: string[]): ChildProcess {
  const start = startCommand(ROOT);
  const child = spawn(
    process.execPath,
    [...nodeArgsOf(start), "--import", "tsx", "bench/ceiling-servers.ts", ...args],
    {
      cwd: ROOT,
      env: { ...process.env, ...start.env },
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  children.add(child);
  return child;
}

/** argon2id hashes per second, 2 in flight, in a child process like the service's. */
async function startArgon2Ceiling(params: { memoryCost: number; timeCost: number; parallelism: number }) {
  const child = spawnCeiling([
    "argon2",
    String(params.memoryCost),
    String(params.timeCost),
    String(params.parallelism),
  ]);
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  // The child names the argon2 library it hashes with: the service's own, as results.json records.
  const { library } = JSON.parse((await lines.next()).value as string) as { library: string };
  return {
    child,
    library,
    async run(seconds: number): Promise<RunResult> {
      child.stdin!.write(`${seconds}\n`);
      const { value } = await lines.next();
      const result = JSON.parse(value as string) as { per_s: number; ms_per_hash: number };
      return { rps: result.per_s, p50_ms: result.ms_per_hash, p99_ms: result.ms_per_hash, errors: 0 };
    },
  };
}

/** The processes `pid` started (a cluster's workers). */
function childPids(pid: number): number[] {
  const out = spawnSync("pgrep", ["-P", String(pid)], { encoding: "utf8" }).stdout;
  return out.split("\n").filter(Boolean).map(Number);
}

/** A process's peak resident memory since it started (VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** The service's count of `rpc` answered `ok` over `protocol` (gatehouse_requests_total on /metrics). */
async function okCount(url: string, rpc: string, protocol: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
  for (const line of text.split("\n")) {
    if (!line.startsWith("gatehouse_requests_total{")) continue;
    if (line.includes(`rpc="${rpc}"`) && line.includes(`protocol="${protocol}"`) && line.includes('code="ok"'))
      return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return 0;
}

async function startCeilingServer(
  mode: "plain" | "connect" | "h2raw" | "grpcjs",
): Promise<{ child: ChildProcess; http1?: number; http2?: number }> {
  const child = spawnCeiling([mode]);
  const lines = createInterface({ input: child.stdout! });
  const ports = await new Promise<{ http1?: number; http2?: number }>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`ceiling server ${mode} did not start in 30 s`)), 30_000);
    child.once("exit", (code) => fail(new Error(`ceiling server ${mode} exited with ${code}`)));
    lines.once("line", (line) => {
      clearTimeout(timer);
      done((JSON.parse(line) as { listening: { http1?: number; http2?: number } }).listening);
    });
  });
  return { child, ...ports };
}

async function stopChild(child: ChildProcess): Promise<void> {
  child.kill("SIGTERM");
  await exited(child, 12_000);
  children.delete(child);
}

function serviceCommand(): string {
  const start = startCommand(ROOT);
  const env = Object.entries(start.env)
    .map(([k, v]) => `${k}=${v} `)
    .join("");
  return `${env}node ${[...nodeArgsOf(start), ...entryArgs(start)].join(" ")}`;
}

/** npm start's node flags, mapped to the sources under --tsx. */
function nodeArgsOf(start: StartCommand): string[] {
  return DIST ? start.nodeArgs : sourceNodeArgs(start.nodeArgs);
}

/** The service's entry point: the build, or src/ through tsx under --tsx. */
function entryArgs(start: StartCommand): string[] {
  return DIST ? [start.script] : ["--import", "tsx", "src/main.ts"];
}

/** Gatehouse as an operator runs it (`node dist/src/main.js`, or src/ through tsx with --tsx); logs go to a file. */
async function startGatehouse(
  env: Record<string, string>,
  nodeArgs: string[] = [],
  { name = "gatehouse", ready = "gatehouse listening" } = {},
): Promise<{ child: ChildProcess; port: number; log: string; spawnedAt: number }> {
  const log = join(scratchDir, `${name}.log`);
  const fd = openSync(log, "w");
  const start = startCommand(ROOT);
  const argv = [...nodeArgsOf(start), ...nodeArgs, ...entryArgs(start)];
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, argv, { cwd: ROOT, env: { ...env, ...start.env }, stdio: ["ignore", fd, fd] });
  closeSync(fd);
  children.add(child);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`gatehouse exited with ${child.exitCode}:\n${readFileSync(log, "utf8").slice(-2000)}`);
    for (const line of readFileSync(log, "utf8").split("\n")) {
      if (!line.includes(ready)) continue;
      const port = (JSON.parse(line) as { port?: number }).port;
      if (port) return { child, port, log, spawnedAt };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not log '${ready}' within 60 s`);
}

// ---------------------------------------------------------------------------------------------
// In-process ceilings.

async function joseCeiling(seconds: number): Promise<{ per_s: number; us_per_verify: number }> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const key = await importJWK(await exportJWK(publicKey), "ES256");
  const token = await new SignJWT({ sub: "usr_bench", sid: "ses_bench" })
    .setProtectedHeader({ alg: "ES256", kid: "bench" })
    .setIssuer("https://bench.example")
    .setAudience("bench")
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(privateKey);
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  let count = 0;
  // One at a time: single-threaded verification throughput.
  for (; count < 10_000_000 && performance.now() < deadline; count++) {
    await jwtVerify(token, key, { issuer: "https://bench.example", audience: "bench", algorithms: ["ES256"] });
  }
  const elapsed = (performance.now() - started) / 1000;
  return { per_s: Math.round(count / elapsed), us_per_verify: Math.round((elapsed / count) * 1e6) };
}

// ---------------------------------------------------------------------------------------------
// Sanity: every workload's request must succeed before it is measured (a benchmark of error
// paths would be worthless, and VerifyToken answers 200 {valid:false} for a bad token).

async function checkOnce(url: string, path: string, apiKey: string, body?: unknown, method = "POST"): Promise<any> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { "content-type": "application/json", "x-service-key": apiKey },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

async function sanityChecks(url: string, seeded: Seeded, grpc: Client[]): Promise<void> {
  const token = seeded.accessTokens[0];
  const connect = await checkOnce(url, "/gatehouse.auth.v1.AuthService/VerifyToken", seeded.apiKey, { token });
  const rest = await checkOnce(url, "/v1/auth/token/verify", seeded.apiKey, { token });
  const viaGrpc = await grpcUnary(grpc[0], "VerifyToken", { token }, { "x-service-key": seeded.apiKey });
  if (connect.valid !== true || rest.valid !== true || viaGrpc.valid !== true) {
    throw new Error(
      `a seeded token does not verify: connect ${JSON.stringify(connect)}, rest ${JSON.stringify(rest)}, grpc ${JSON.stringify(viaGrpc)}`,
    );
  }
  await checkOnce(url, "/v1/auth/login", seeded.apiKey, { email: seeded.loginEmails[0], password: BENCH_PASSWORD });
  const page = await checkOnce(
    url,
    `/v1/auth/users?search=${encodeURIComponent(seeded.searchTerms[0])}&limit=20`,
    seeded.apiKey,
    undefined,
    "GET",
  );
  if (!Array.isArray(page.data) || page.data.length === 0)
    throw new Error(`a search term found no user: ${JSON.stringify(page).slice(0, 300)}`);
  progress("sanity checks passed: tokens verify on Connect, REST and gRPC; login and search answer 200");
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  if (!h2loadAvailable())
    throw new Error("h2load not found: install Debian's nghttp2-client (apt-get install nghttp2-client)");
  progress(
    `mode: ${QUICK ? "quick" : "full"}${SCALE ? " + scale" : ""}${DIST ? "" : " + tsx"}; ${RUNS} runs × ${WORKLOAD_S} s per workload; ${CORES} cores`,
  );
  // Default argon2 parameters: the real cost. An ARGON2_* override in the caller's environment is ignored.
  const baseEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !key.startsWith("ARGON2_")) baseEnv[key] = value;
  const serverUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const dbName = `gatehouse_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const pgVersion = ((await admin.query("SHOW server_version")).rows[0] as { server_version: string }).server_version;
  await admin.query(`CREATE DATABASE ${dbName}`);
  dropDatabase = async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    progress(`dropped database ${dbName}`);
  };
  const dbUrl = new URL(serverUrl);
  dbUrl.pathname = `/${dbName}`;
  progress(`created database ${dbName}`);

  const env: Record<string, string> = {
    ...baseEnv,
    DATABASE_URL: dbUrl.toString(),
    GATEHOUSE_SECRET: randomBytes(32).toString("hex"),
    // Fixed, so tokens seeded here carry the issuer the service expects.
    PUBLIC_URL: "http://gatehouse.bench.invalid",
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: join(scratchDir, "data"),
    LOG_LEVEL: "info",
    NODE_ENV: "production",
    // The load arrives as through a proxy on loopback, from many client addresses
    // (X-Forwarded-For), so the per-address rate limits apply as they would to real traffic.
    TRUSTED_PROXIES: "127.0.0.1",
  };
  delete env.GATEHOUSE_BOOTSTRAP_EMAIL;
  delete env.GATEHOUSE_BOOTSTRAP_PASSWORD;
  delete env.SMTP_URL;
  const config = loadConfig(env);

  // Seed through the app's own code (migrations run here, once).
  const deps = await openBenchDeps(env);
  let seeded: Seeded;
  try {
    seeded = await seed(deps, {
      loginUsers: 50,
      tokens: 50,
      // More than the service remembers verified tokens (10,000): cycling through them, every
      // request is a token it has not checked (or has forgotten).
      uniqueTokens: UNIQUE_TOKENS,
      refreshCallers: REFRESH_CALLERS,
      searchUsers: SEARCH_USERS,
      progress,
    });
  } finally {
    await deps.db.close();
  }

  if (DIST) {
    progress("building dist (npm run build)");
    const build = spawn("npm", ["run", "--silent", "build"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
    children.add(build);
    const code = await new Promise<number | null>((done) => build.once("exit", done));
    children.delete(build);
    if (code !== 0) throw new Error(`npm run build failed (${code})`);
  }
  if (PROFILE) return profileWorkload(PROFILE, env, seeded);
  if (CPU) return cpuSplitWorkload(CPU, env, seeded);
  if (GC) return gcWorkload(GC, env, seeded);

  // In-process: jose's verification rate (for reference; Gatehouse verifies with node:crypto).
  progress(`ceiling: jose ES256 jwtVerify, one at a time, ${QUICK ? 1 : 2} s`);
  const jose = await joseCeiling(QUICK ? 1 : 2);
  progress(`ceiling: jose ES256 ${jose.per_s}/s (${jose.us_per_verify} µs each)`);

  // Every server stays up for the whole run, so that a workload and the ceiling it is compared
  // with are measured in the same rounds (ceiling, workload, ceiling, workload, …): the speed
  // of a shared machine drifts by tens of per cent within a minute.
  const plain = await startCeilingServer("plain");
  const plainUrl = `http://127.0.0.1:${plain.http1}`;
  const bare = await startCeilingServer("connect");
  const bareUrl = `http://127.0.0.1:${bare.http1}`;
  const h2raw = await startCeilingServer("h2raw");
  const grpcjs = await startCeilingServer("grpcjs");
  const service = await startGatehouse(env);
  const url = `http://127.0.0.1:${service.port}`;
  const pid = service.child.pid;
  progress(`gatehouse listening on ${service.port} (pid ${pid}), logs in ${service.log}`);
  const key = { "x-service-key": seeded.apiKey };
  const grpc = grpcClients(service.port, "auth", GRPC_CHANNELS);
  await waitForReady(grpc);
  await sanityChecks(url, seeded, grpc);

  // The per-core workloads with a fixed request run on h2load (bench/h2load.ts).
  const h1 =
    (target: string, body: unknown, headers: Record<string, string> = {}) =>
    (seconds: number) =>
      h2load(
        {
          url: target,
          body: Buffer.from(JSON.stringify(body)),
          headers: { "content-type": "application/json", ...headers },
          http1: true,
          connections: VERIFY_CONNECTIONS,
        },
        seconds,
      );
  const grpcCall =
    (port: number, path: string, message: Uint8Array, headers: Record<string, string> = {}) =>
    (seconds: number) =>
      h2load(
        {
          url: `http://127.0.0.1:${port}${path}`,
          body: envelope(message),
          headers: { "content-type": "application/grpc", te: "trailers", ...headers },
          http1: false,
          connections: H2_SESSIONS,
          streams: H2_STREAMS,
        },
        seconds,
      );
  const token = seeded.accessTokens[0];
  const plainLoad = h1(`${plainUrl}/`, { token });
  const echoLoad = h1(`${bareUrl}/grpc.health.v1.Health/Check`, { service: "echo" });
  // The same gRPC call (Health/Check, answered SERVING) to the three gRPC ceilings.
  const healthMessage = toBinary(HealthCheckRequestSchema, create(HealthCheckRequestSchema, { service: "echo" }));
  const healthCheck = (port: number) => grpcCall(port, "/grpc.health.v1.Health/Check", healthMessage);
  const h2rawLoad = healthCheck(h2raw.http2!);
  const grpcjsLoad = healthCheck(grpcjs.http2!);
  const grpcEchoLoad = healthCheck(bare.http2!);
  const { login, signup, refresh } = httpLoads(url, seeded);
  const verifyConnect = h1(`${url}/gatehouse.auth.v1.AuthService/VerifyToken`, { token }, key);
  const verifyRest = h1(`${url}/v1/auth/token/verify`, { token }, key);
  // h2load counts HTTP statuses, and a gRPC error is HTTP 200 too: the service's own request
  // counter must have counted as many VerifyToken answers `ok` over gRPC as h2load got.
  const verifyMessage = toBinary(VerifyTokenRequestSchema, create(VerifyTokenRequestSchema, { token }));
  const verifyGrpcLoad = grpcCall(service.port, "/gatehouse.auth.v1.AuthService/VerifyToken", verifyMessage, key);
  const verifyGrpc = async (seconds: number) => {
    const before = await okCount(url, "gatehouse.auth.v1.AuthService/VerifyToken", "grpc");
    const run = await verifyGrpcLoad(seconds);
    const counted = (await okCount(url, "gatehouse.auth.v1.AuthService/VerifyToken", "grpc")) - before;
    if (counted < run.ok) throw new Error(`h2load got ${run.ok} gRPC answers, the service counted ${counted} ok`);
    return run;
  };
  // Every request a token never seen (or long forgotten): the signature check on each request,
  // against the cached path driven by the same generator (h2load sends one body only).
  const verifyConnectLoop = verifyLoopOn(service.port, seeded, [token]);
  const verifyConnectUnique = verifyLoopOn(service.port, seeded, seeded.uniqueTokens);

  const workloads: Record<string, Summary> = {};
  const ceilingRuns: Record<string, Summary> = {};
  // Per core: each server (the service, every ceiling) on the first core, the load generator
  // (this process) on the second, so a figure is what one core of the service answers.
  const servers = [plain, bare, h2raw, grpcjs].map((c) => c.child.pid).concat(pid);
  await pinned(servers, process.pid, progress, async () => {
    // Warm-up: every code path runs before anything is measured (JIT, pools, caches).
    progress(`warm-up: ${WARMUP_S} s of each verify workload and ceiling`);
    for (const warm of [
      plainLoad,
      echoLoad,
      h2rawLoad,
      grpcjsLoad,
      grpcEchoLoad,
      verifyConnect,
      verifyRest,
      verifyGrpc,
    ])
      await warm(WARMUP_S);
    [
      ceilingRuns.plain_http_json,
      workloads.verify_connect,
      workloads.verify_rest,
      workloads.verify_connect_one_token,
      workloads.verify_connect_unique,
    ] = await interleaved(
      [
        ["ceiling plain_http_json", plain.child.pid, () => plainLoad(CEILING_S)],
        ["verify_connect", pid, () => verifyConnect(WORKLOAD_S)],
        ["verify_rest", pid, () => verifyRest(WORKLOAD_S)],
        ["verify_connect_one_token", pid, () => verifyConnectLoop(WORKLOAD_S)],
        ["verify_connect_unique", pid, () => verifyConnectUnique(WORKLOAD_S)],
      ],
      PAIRED_RUNS,
    );
    [ceilingRuns.connect_echo] = await interleaved([
      ["ceiling connect_echo", bare.child.pid, () => echoLoad(CEILING_S)],
    ]);
    [ceilingRuns.h2_grpc_echo, ceilingRuns.grpcjs_echo, ceilingRuns.grpc_echo, workloads.verify_grpc] =
      await interleaved(
        [
          ["ceiling raw node:http2 gRPC echo", h2raw.child.pid, () => h2rawLoad(CEILING_S)],
          ["ceiling grpc-js echo", grpcjs.child.pid, () => grpcjsLoad(CEILING_S)],
          ["ceiling connect-node gRPC echo", bare.child.pid, () => grpcEchoLoad(CEILING_S)],
          ["verify_grpc", pid, () => verifyGrpc(WORKLOAD_S)],
        ],
        PAIRED_RUNS,
      );
  });
  for (const child of [plain.child, bare.child, h2raw.child, grpcjs.child]) await stopChild(child);

  // Scale-out: WORKERS=2 against the one process, both unpinned on the machine's cores (with
  // h2load beside them), in the same rounds; and each worker's peak resident memory.
  const cluster = await startGatehouse({ ...env, WORKERS: "2" }, [], { name: "cluster", ready: "cluster started" });
  const verifyRestCluster = h1(`http://127.0.0.1:${cluster.port}/v1/auth/token/verify`, { token }, key);
  await verifyRestCluster(WARMUP_S);
  [workloads.verify_rest_one_process, workloads.verify_rest_workers_2] = await interleaved(
    [
      ["verify_rest, one process (unpinned)", pid, () => verifyRest(WORKLOAD_S)],
      ["verify_rest, WORKERS=2", cluster.child.pid, () => verifyRestCluster(WORKLOAD_S)],
    ],
    PAIRED_RUNS,
  );
  const workerRss = childPids(cluster.child.pid!).map(peakRssMb);
  workloads.verify_rest_workers_2.rss_mb = Math.max(...workerRss);
  workloads.verify_rest_workers_2.note = `peak RSS per worker ${workerRss.map((mb) => mb.toFixed(0)).join(", ")} MB`;
  await stopChild(cluster.child);
  const argon2Child = await startArgon2Ceiling(config.passwordParams);
  const argon2Params = `argon2id m=${config.passwordParams.memoryCost} KiB t=${config.passwordParams.timeCost} p=${config.passwordParams.parallelism}, ${argon2Child.library}`;
  const argon2Load = (seconds: number) => argon2Child.run(seconds);

  await login(WARMUP_S);
  [ceilingRuns.argon2id_hash, workloads.login, workloads.signup] = await interleaved(
    [
      ["ceiling argon2id (2 in flight)", argon2Child.child.pid, () => argon2Load(CEILING_S + 0.5)],
      ["login", pid, () => login(WORKLOAD_S)],
      ["signup", pid, () => signup(WORKLOAD_S)],
    ],
    PAIRED_RUNS,
  );
  await stopChild(argon2Child.child);
  [workloads.refresh] = await interleaved([["refresh", pid, () => refresh(WORKLOAD_S)]]);
  [workloads.list_users_search] = await interleaved([
    [
      "list_users_search",
      pid,
      () =>
        cannon({
          url,
          path: "/v1/auth/users",
          method: "GET",
          headers: key,
          requests: [
            {
              method: "GET",
              setupRequest: (request) => ({
                ...request,
                path: `/v1/auth/users?search=${encodeURIComponent(seeded.searchTerms[Math.floor(Math.random() * seeded.searchTerms.length)])}&limit=20`,
              }),
            },
          ],
          connections: LIST_CONNECTIONS,
          seconds: WORKLOAD_S,
        }),
    ],
  ]);
  workloads.list_users_search.note = `${SEARCH_USERS.toLocaleString("en")} users`;

  // Keyset pagination: page 1 and page 1,000 (limit 20) of the whole project, each requested
  // over and over; the cursor of page 1,000 comes from walking there one page at a time.
  let cursor = "";
  for (let page = 1; page < 1000; page++) {
    const body = await checkOnce(
      url,
      `/v1/auth/users?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      seeded.apiKey,
      undefined,
      "GET",
    );
    if (!body.has_more) throw new Error(`the project ran out of pages at page ${page}`);
    cursor = body.next_cursor as string;
  }
  progress("walked to page 1,000 of ListUsers");
  const page = (path: string) => (seconds: number) =>
    cannon({ url, path, method: "GET", headers: key, connections: LIST_CONNECTIONS, seconds });
  [workloads.list_users_page_1, workloads.list_users_page_1000] = await interleaved([
    ["list_users_page_1", pid, () => page("/v1/auth/users?limit=20")(WORKLOAD_S)],
    [
      "list_users_page_1000",
      pid,
      () => page(`/v1/auth/users?limit=20&cursor=${encodeURIComponent(cursor)}`)(WORKLOAD_S),
    ],
  ]);
  workloads.list_users_page_1.note = workloads.list_users_page_1000.note = `${SEARCH_USERS.toLocaleString("en")} users`;

  // Mixed: login load saturating the CPU while verify_connect is measured, at the same time;
  // each round also measures both alone, for the ratios.
  const verifyAlone: RunResult[] = [];
  const loginAlone: RunResult[] = [];
  const mixedVerify: RunResult[] = [];
  const mixedLogin: RunResult[] = [];
  for (let i = 1; i <= RUNS; i++) {
    const alone = await withPeakRss(pid, () => verifyConnect(WORKLOAD_S));
    verifyAlone.push({ ...alone.value, rss_mb: alone.rssMb });
    const aloneLogin = await withPeakRss(pid, () => login(WORKLOAD_S));
    loginAlone.push({ ...aloneLogin.value, rss_mb: aloneLogin.rssMb });
    const { value, rssMb } = await withPeakRss(pid, () => Promise.all([verifyConnect(WORKLOAD_S), login(WORKLOAD_S)]));
    mixedVerify.push({ ...value[0], rss_mb: rssMb });
    mixedLogin.push({ ...value[1], rss_mb: rssMb });
    progress(
      `mixed run ${i}/${RUNS}: verify ${value[0].rps.toFixed(0)} req/s (p99 ${value[0].p99_ms.toFixed(1)} ms; alone ${alone.value.rps.toFixed(0)}, ` +
        `p99 ${alone.value.p99_ms.toFixed(1)} ms), login ${value[1].rps.toFixed(1)} req/s (alone ${aloneLogin.value.rps.toFixed(1)})` +
        (value[0].errors + value[1].errors ? `, ${value[0].errors + value[1].errors} errors` : ""),
    );
  }
  const mixedBase = { verify: summarize(verifyAlone), login: summarize(loginAlone) };
  workloads.mixed_verify = summarize(mixedVerify);
  workloads.mixed_login = summarize(mixedLogin);
  for (const client of grpc) client.close();

  // Ratios.
  const plainHttp = ceilingRuns.plain_http_json;
  const connectEcho = ceilingRuns.connect_echo;
  const grpcEcho = ceilingRuns.grpc_echo;
  const h2Echo = ceilingRuns.h2_grpc_echo;
  const grpcjsEcho = ceilingRuns.grpcjs_echo;
  const argon = {
    per_s: ceilingRuns.argon2id_hash.rps,
    ms_per_hash: ceilingRuns.argon2id_hash.p50_ms,
    in_flight: 2,
    params: argon2Params,
  };
  const ceilings = {
    plain_http_json: plainHttp,
    connect_echo: connectEcho,
    grpc_echo: grpcEcho,
    h2_grpc_echo: h2Echo,
    grpcjs_echo: grpcjsEcho,
    jose_es256_verify: jose,
    argon2id_hash: { ...argon, range: ceilingRuns.argon2id_hash.range },
  };
  const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000;
  const against: Record<string, string> = {};
  const setRatio = (name: string, base: Summary, label: string) => {
    workloads[name].ratio = pairedRatio(workloads[name], base);
    against[name] = label;
  };
  setRatio("verify_connect", plainHttp, "plain node:http");
  setRatio("verify_rest", plainHttp, "plain node:http");
  setRatio("verify_grpc", h2Echo, "raw node:http2 gRPC echo");
  setRatio("verify_connect_unique", workloads.verify_connect_one_token, "the cached path (verify_connect_one_token)");
  setRatio("verify_rest_workers_2", workloads.verify_rest_one_process, "one process");
  setRatio("list_users_page_1000", workloads.list_users_page_1, "list_users_page_1");
  setRatio("login", ceilingRuns.argon2id_hash, "argon2 ceiling");
  setRatio("signup", ceilingRuns.argon2id_hash, "argon2 ceiling");
  setRatio("mixed_verify", mixedBase.verify, "verify_connect alone");
  setRatio("mixed_login", mixedBase.login, "login alone");
  const mixedP99 = ratio(workloads.mixed_verify.p99_ms, mixedBase.verify.p99_ms);

  const cpu = cpus()[0]?.model.trim() ?? "unknown CPU";
  const machine = `${cpu}, ${CORES} cores, Node ${process.version}, PostgreSQL ${pgVersion}`;
  const results = {
    machine,
    date: new Date().toISOString(),
    mode: QUICK ? "quick" : "full",
    settings: {
      service: serviceCommand(),
      runs: RUNS,
      workload_seconds: WORKLOAD_S,
      ceiling_seconds: CEILING_S,
      search_users: SEARCH_USERS,
      connections: {
        verify: VERIFY_CONNECTIONS,
        argon2_flows: ARGON2_CONNECTIONS,
        grpc_sessions: H2_SESSIONS,
        grpc_streams_per_session: H2_STREAMS,
        refresh_callers: REFRESH_CALLERS,
      },
      argon2: argon.params,
    },
    workloads,
    ratios_against: against,
    mixed_verify_p99_vs_solo: mixedP99,
    // verify_connect and login measured alone in the same rounds as the mixed runs.
    mixed_alone: mixedBase,
    ceilings,
  };
  writeFileSync(join(ROOT, "bench", "results.json"), `${JSON.stringify(results, null, 2)}\n`);

  // The table.
  const fmtRange = ([a, b]: [number, number], digits: number) => `${a.toFixed(digits)}–${b.toFixed(digits)}`;
  const row = (name: string, s: Summary, ratioText: string) =>
    `| ${name} | ${s.rps.toLocaleString("en")} (${fmtRange(s.range.rps, 0)}) | ${s.p50_ms.toFixed(2)} (${fmtRange(s.range.p50_ms, 2)}) | ` +
    `${s.p99_ms.toFixed(2)} (${fmtRange(s.range.p99_ms, 2)}) | ${s.rss_mb?.toFixed(0) ?? "–"} | ${ratioText} |`;
  const lines = [
    `Machine: ${machine}`,
    `Mode: ${QUICK ? "quick" : "full"}, service run by \`${serviceCommand()}\` — medians of ${RUNS} runs (${PAIRED_RUNS} for workloads measured in rounds with their ceiling; their ratio is the median of the per-round ratios) × ${WORKLOAD_S} s (ceilings ${CEILING_S} s), min–max in parentheses; search on ${SEARCH_USERS.toLocaleString("en")} users`,
    "",
    "| workload | req/s | p50 ms | p99 ms | peak RSS MB | ratio |",
    "|---|---|---|---|---|---|",
  ];
  for (const [name, s] of Object.entries(workloads)) {
    const r = s.ratio === undefined ? "–" : `${s.ratio.toFixed(2)} of ${against[name]}`;
    lines.push(row(name, s, name === "mixed_verify" ? `${r}; p99 ${mixedP99.toFixed(1)}× solo` : r));
  }
  lines.push(
    row("ceiling: plain node:http JSON POST", plainHttp, "–"),
    row("ceiling: bare connect-node echo (Connect JSON)", connectEcho, "–"),
    row("ceiling: raw node:http2 gRPC echo", h2Echo, "–"),
    row("ceiling: @grpc/grpc-js echo", grpcjsEcho, "–"),
    row("ceiling: bare connect-node echo (gRPC)", grpcEcho, "–"),
    "",
    `jose ES256 jwtVerify in-process, one at a time: ${jose.per_s.toLocaleString("en")}/s (${jose.us_per_verify} µs each)`,
    `argon2id (${argon.params}), 2 in flight: ${argon.per_s}/s (${argon.ms_per_hash} ms per hash)`,
    "",
    `Wall time: ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
  process.stdout.write(`${lines.join("\n")}\n`);
  progress("wrote bench/results.json");
}

/** The HTTP workloads both the full run and `--profile` drive against a service at `url`. */
function httpLoads(url: string, seeded: Seeded) {
  const headers = { "x-service-key": seeded.apiKey };
  const verifyRequests = seeded.accessTokens.map((token) => ({ body: JSON.stringify({ token }) }));
  // Each request from the next of 65,536 client addresses (10.x.y.z): at most a few signups per
  // address per window, far under the per-address limits, as logins from many users would be.
  let clients = 0;
  const clientHeaders = () => ({
    "content-type": "application/json",
    ...headers,
    "x-forwarded-for": `10.${(clients >> 8) & 255}.${clients++ & 255}.1`,
  });
  const loginRequests = seeded.loginEmails.map((email) => ({
    setupRequest: (request: RequestParams) => ({
      ...request,
      headers: clientHeaders(),
      body: JSON.stringify({ email, password: BENCH_PASSWORD }),
    }),
  }));
  let signups = 0;
  const signupRun = Date.now().toString(36);
  // Each caller chains its own session: the answer's refresh_token is the next request's.
  const chains = [...seeded.refreshTokens];
  return {
    verifyRequests,
    verifyConnect: (seconds: number) =>
      cannon({
        url,
        path: "/gatehouse.auth.v1.AuthService/VerifyToken",
        headers,
        requests: verifyRequests,
        connections: VERIFY_CONNECTIONS,
        seconds,
      }),
    login: (seconds: number) =>
      cannon({
        url,
        path: "/v1/auth/login",
        headers,
        requests: loginRequests,
        connections: ARGON2_CONNECTIONS,
        seconds,
      }),
    signup: (seconds: number) =>
      cannon({
        url,
        path: "/v1/auth/signup",
        headers,
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              headers: clientHeaders(),
              body: JSON.stringify({
                email: `signup-${signupRun}-${signups++}@bench.example.com`,
                password: BENCH_PASSWORD,
              }),
            }),
          },
        ],
        connections: ARGON2_CONNECTIONS,
        seconds,
      }),
    refresh: (seconds: number) =>
      closedLoop(REFRESH_CALLERS, seconds * 1000, async (caller) => {
        const res = await fetch(`${url}/v1/auth/token/refresh`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify({ refresh_token: chains[caller] }),
          signal: AbortSignal.timeout(10_000),
        });
        const body = (await res.json()) as { refresh_token?: string };
        if (res.status !== 200 || !body.refresh_token) return false;
        chains[caller] = body.refresh_token;
        return true;
      }),
  };
}

/** VerifyToken over gRPC on h2load, one cached token, answers unchecked (the profile and CPU split only). */
function verifyGrpcOn(port: number, seeded: Seeded) {
  const message = toBinary(
    VerifyTokenRequestSchema,
    create(VerifyTokenRequestSchema, { token: seeded.accessTokens[0] }),
  );
  return (seconds: number) =>
    h2load(
      {
        url: `http://127.0.0.1:${port}/gatehouse.auth.v1.AuthService/VerifyToken`,
        body: envelope(message),
        headers: { "content-type": "application/grpc", te: "trailers", "x-service-key": seeded.apiKey },
        http1: false,
        connections: H2_SESSIONS,
        streams: H2_STREAMS,
      },
      seconds,
    );
}

/** VerifyToken over Connect JSON on the prepared-request loop, the tokens in turn. */
function verifyLoopOn(port: number, seeded: Seeded, tokens: readonly string[]) {
  const bodies = tokens.map((token) => JSON.stringify({ token }));
  return (seconds: number) =>
    http1Loop(
      {
        port,
        path: "/gatehouse.auth.v1.AuthService/VerifyToken",
        headers: { "content-type": "application/json", "x-service-key": seeded.apiKey },
        bodies,
        connections: VERIFY_CONNECTIONS,
      },
      seconds,
    );
}

/** The load `--profile` and `--cpu` drive. */
function oneLoad(workload: (typeof PROFILED)[number], port: number, seeded: Seeded) {
  const loads = httpLoads(`http://127.0.0.1:${port}`, seeded);
  return {
    verify: loads.verifyConnect,
    verify_grpc: verifyGrpcOn(port, seeded),
    verify_unique: verifyLoopOn(port, seeded, seeded.uniqueTokens),
    login: loads.login,
    signup: loads.signup,
    refresh: loads.refresh,
  }[workload];
}

/** `--profile[=workload]`: one workload for 10 s against a service run with --cpu-prof. */
async function profileWorkload(
  workload: (typeof PROFILED)[number],
  env: Record<string, string>,
  seeded: Seeded,
): Promise<void> {
  const profileDir = join(scratchDir, "profile");
  const service = await startGatehouse(env, ["--cpu-prof", `--cpu-prof-dir=${profileDir}`]);
  progress(`gatehouse (profiled) listening on ${service.port}`);
  const load = oneLoad(workload, service.port, seeded);
  await load(WARMUP_S);
  const run = await load(10);
  progress(`${workload} under the profiler: ${run.rps.toFixed(1)} req/s, p50 ${run.p50_ms.toFixed(2)} ms`);
  await stopChild(service.child);
  const summary = summarizeProfiles(profileDir);
  process.stdout.write(`${formatProfile(summary)}\n`);
  writeFileSync(
    join(ROOT, "bench", "profile.json"),
    `${JSON.stringify({ workload, rps_under_profiler: Math.round(run.rps), ...summary }, null, 2)}\n`,
  );
  progress("wrote bench/profile.json");
}

/** `--cpu[=workload]`: one workload for 10 s, and where the machine's CPU went meanwhile. */
async function cpuSplitWorkload(
  workload: (typeof PROFILED)[number],
  env: Record<string, string>,
  seeded: Seeded,
): Promise<void> {
  const service = await startGatehouse(env);
  const pid = service.child.pid;
  if (pid === undefined) throw new Error("gatehouse has no pid");
  const load = oneLoad(workload, service.port, seeded);
  await load(WARMUP_S);
  const { value: run, split } = await withCpuSplit(pid, () => load(10));
  progress(`${workload}: ${run.rps.toFixed(1)} req/s, p50 ${run.p50_ms.toFixed(2)} ms, ${run.errors} errors`);
  await stopChild(service.child);
  process.stdout.write(`${workload}, ${run.rps.toFixed(1)} req/s:\n${formatCpuSplit(split, run.rps * 10)}\n`);
  if (workload.startsWith("verify") || workload === "refresh") return;
  // The same accounting for the hashes alone, with the "service" being the ceiling's process.
  const config = loadConfig(env);
  const argon2Child = await startArgon2Ceiling(config.passwordParams);
  await argon2Child.run(WARMUP_S);
  const ceiling = await withCpuSplit(argon2Child.child.pid!, () => argon2Child.run(10));
  await stopChild(argon2Child.child);
  process.stdout.write(
    `\nargon2 ceiling, ${ceiling.value.rps.toFixed(1)} hashes/s:\n${formatCpuSplit(ceiling.split, ceiling.value.rps * 10)}\n`,
  );
}

/**
 * `--gc[=workload]`: one workload for 10 s on one pinned core (as the per-core figures are
 * measured) against a service run with --trace-gc, and what the collector did meanwhile.
 */
async function gcWorkload(workload: (typeof PROFILED)[number], env: Record<string, string>, seeded: Seeded) {
  const service = await startGatehouse(env, ["--trace-gc"]);
  const load = oneLoad(workload, service.port, seeded);
  const { run, from, to } = await pinned([service.child.pid], process.pid, progress, async () => {
    await load(WARMUP_S);
    const from = performance.now() - service.spawnedAt;
    const run = await load(10);
    return { run, from, to: performance.now() - service.spawnedAt };
  });
  await stopChild(service.child);
  process.stdout.write(`${formatGc(workload, run.rps, run.p99_ms, summarizeGc(service.log, from, to))}\n`);
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(async () => {
    await cleanup();
    // Clients with sockets left (gRPC channels, keep-alive agents) must not hold the process.
    process.exit(process.exitCode ?? 0);
  });
