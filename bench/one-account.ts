// Sign-ins of one account at once (issue 46): K callers, each with one request in flight, sign
// in to one account with its right password from one client address, for a fixed time, against
// the service on PostgreSQL at the default argon2 parameters. Reports the answers by status,
// sign-ins per second and latency of the 200s. The take-first limiter had answered some of
// these 429 (a right password refused for another right password in flight) and, on
// PostgreSQL, 503 (the one count row every sign-in updated timed out).
//
//   node --import tsx bench/one-account.ts [--callers=16] [--seconds=10]
//
// src/ runs through tsx (no build), so the figures compare versions of the code on one machine;
// `npm run bench` measures the build as operators run it.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { BENCH_PASSWORD, openBenchDeps, seed } from "./seed.js";
import { sourceNodeArgs, startCommand } from "./start-command.js";
import { percentile } from "./stats.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const option = (name: string, fallback: number) => {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = arg === undefined ? fallback : Number(arg.split("=")[1]);
  if (!Number.isInteger(value) || value < 1 || value > 1000) throw new Error(`--${name} takes 1 to 1000`);
  return value;
};
const CALLERS = option("callers", 16);
const SECONDS = option("seconds", 10);
/** A request that takes longer fails the run rather than hanging it. */
const REQUEST_TIMEOUT_MS = 30_000;

async function startService(env: Record<string, string>, log: string): Promise<{ child: ChildProcess; port: number }> {
  const start = startCommand(ROOT);
  const fd = openSync(log, "w");
  const argv = [...sourceNodeArgs(start.nodeArgs), "--import", "tsx", "src/main.ts"];
  const child = spawn(process.execPath, argv, { cwd: ROOT, env: { ...env, ...start.env }, stdio: ["ignore", fd, fd] });
  closeSync(fd);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`gatehouse exited:\n${readFileSync(log, "utf8").slice(-2000)}`);
    for (const line of readFileSync(log, "utf8").split("\n")) {
      if (!line.includes("gatehouse listening")) continue;
      const port = (JSON.parse(line) as { port?: number }).port;
      if (port) return { child, port };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error("gatehouse did not start within 60 s");
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const dbName = `gatehouse_bench_one_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const scratch = mkdtempSync(join(tmpdir(), "gatehouse-bench-one-"));
  let child: ChildProcess | undefined;
  try {
    const dbUrl = new URL(serverUrl);
    dbUrl.pathname = `/${dbName}`;
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "",
      DATABASE_URL: dbUrl.toString(),
      GATEHOUSE_SECRET: randomBytes(32).toString("hex"),
      PUBLIC_URL: "http://gatehouse.bench.invalid",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: join(scratch, "data"),
      LOG_LEVEL: "info",
      NODE_ENV: "production",
      TRUSTED_PROXIES: "127.0.0.1",
    };
    const deps = await openBenchDeps(env);
    const seeded = await seed(deps, {
      loginUsers: 1,
      tokens: 0,
      uniqueTokens: 0,
      refreshCallers: 0,
      searchUsers: 0,
      progress: () => undefined,
    }).finally(() => deps.db.close());
    const service = await startService(env, join(scratch, "gatehouse.log"));
    child = service.child;
    const url = `http://127.0.0.1:${service.port}/v1/auth/login`;
    const body = JSON.stringify({ email: seeded.loginEmails[0], password: BENCH_PASSWORD });
    const headers = {
      "content-type": "application/json",
      "x-service-key": seeded.apiKey,
      "x-forwarded-for": "10.9.8.7",
    };
    const statuses = new Map<number, number>();
    const latencies: number[] = [];
    const reasons = new Set<string>();
    const started = performance.now();
    const deadline = started + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CALLERS }, async () => {
        while (performance.now() < deadline) {
          const sent = performance.now();
          const res = await fetch(url, {
            method: "POST",
            headers,
            body,
            signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
          });
          const text = await res.text();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status !== 200) reasons.add(`${res.status} ${text.slice(0, 160)}`);
          if (res.status === 200) latencies.push(performance.now() - sent);
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const answers = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
    process.stdout.write(
      `${CALLERS} callers, one account, ${SECONDS} s: ${answers.join(", ")}; ` +
        `${(latencies.length / elapsed).toFixed(1)} sign-ins/s; ` +
        `p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms\n`,
    );
    for (const reason of reasons) process.stdout.write(`  ${reason}\n`);
    const warnings = readFileSync(join(scratch, "gatehouse.log"), "utf8")
      .split("\n")
      .filter((line) => line.includes('"level":40') || line.includes('"level":50'));
    for (const line of new Set(warnings.map((l) => l.slice(0, 300)))) process.stdout.write(`  log: ${line}\n`);
  } finally {
    child?.kill("SIGTERM");
    if (child && child.exitCode === null) await new Promise((r) => child!.once("exit", r));
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
