import { parseAllowHosts, type AllowHosts } from "./outbound/allow-hosts.js";
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { DEFAULT_AUDIT_RETENTION_DAYS } from "./domain/audit.js";
import { DEFAULT_HOOK_MAX_IN_FLIGHT, DEFAULT_HOOK_TIMEOUT_MS } from "./domain/hooks.js";
import { canonicalIp } from "./domain/ip-address.js";
import { DEFAULT_IPV6_PREFIX } from "./limits/ip-subject.js";
import { emailProblem } from "./domain/email.js";
import type { PasswordParams } from "./crypto/passwords.js";

// Configuration is the environment only, parsed once at start into this typed object.
// A bad value stops the service with one line naming the variable (ConfigError).
export interface Config {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  publicUrl: string;
  production: boolean;
  /** 32-byte key for secrets at rest; absent (embedded PGlite only) means "generate or read it in dataDir". */
  secret?: Buffer;
  smtpUrl?: string;
  smtpFrom: string;
  /** First retry delay of a failed delivery (doubling up to an hour) and the outbox poll interval. */
  mailRetryMs: number;
  /** /healthz reports delivery as stale when the oldest unsent message is older than this (DELIVERY_BACKLOG_MAX_AGE_S). */
  deliveryBacklogMaxAgeS: number;
  smsWebhookUrl?: string;
  /** In canonical spelling (domain/ip-address.ts), as the client address is compared. */
  trustedProxies: string[];
  /** The per-IP rate limits count an IPv6 client by its network of this length (RATE_LIMIT_IPV6_PREFIX). */
  rateLimitIpv6Prefix: number;
  redisUrl?: string;
  logLevel: string;
  bootstrap?: { email: string; password: string; organization: string };
  passwordParams: PasswordParams;
  /** How long a shutdown waits for in-flight requests before closing connections. */
  shutdownGraceMs: number;
  /**
   * SHUTDOWN_DELAY_MS: how long after the signal the listener keeps accepting and answering, with
   * readiness failing, before the drain starts (a load balancer's time to stop sending).
   */
  shutdownDelayMs: number;
  /** PostgreSQL: the bound on each wait for the database (connect, free connection, statement). */
  databaseTimeoutMs: number;
  /**
   * Processes serving the port (node:cluster). Only PostgreSQL honours more than 1: PGlite is
   * one session in one process, so main.ts runs a single process there and says so.
   */
  workers: number;
  /**
   * argon2 hashes running at once in this process. Each occupies a libuv pool thread and a
   * core, so the default shares the cores among the processes that actually run.
   */
  passwordMaxInFlight: number;
  /** Password checks that may wait for an argon2 slot at once; more are answered 503. */
  passwordQueueMax: number;
  /** How long a password check may wait for an argon2 slot before it is answered 503. */
  passwordQueueWaitMs: number;
  /** How much lower than the event loop the libuv pool (argon2) runs, in nice steps (Linux). */
  threadpoolNice: number;
  /** Audit events older than this many days are deleted (AUDIT_RETENTION_DAYS). */
  auditRetentionDays: number;
  /** How often the retention sweep runs. */
  auditSweepIntervalMs: number;
  /** When set, GET /metrics needs `Authorization: Bearer <metricsToken>` (METRICS_TOKEN). */
  metricsToken?: string;
  /**
   * The work of a bot challenge (BOT_CHALLENGE_MAX_NUMBER): its secret number is drawn from 0
   * to this, and a client tries numbers until it finds it.
   */
  botChallengeMaxNumber: number;
  /**
   * Hosts and ranges webhooks and hooks may reach although they are not public, also over
   * plain http (OUTBOUND_ALLOW_HOSTS; src/outbound/allow-hosts.ts).
   */
  outboundAllowHosts: AllowHosts;
  /** How long one webhook delivery may take, from resolving the name to the answer (WEBHOOK_TIMEOUT_MS). */
  webhookTimeoutMs: number;
  /** How long one call of a project's hook may take, from resolving the name to the answer (HOOK_TIMEOUT_MS). */
  hookTimeoutMs: number;
  /**
   * Calls of one project's hooks that may wait for an answer at once on one instance
   * (HOOK_MAX_IN_FLIGHT); a further call fails at once, under the hook's failure policy.
   */
  hookMaxInFlight: number;
  /** How often each instance looks for due webhook deliveries (WEBHOOK_POLL_MS). */
  webhookPollMs: number;
  /**
   * The OpenID Provider's pushed authorization requests (RFC 9126), OIDC_PAR: `off` (default),
   * `on` (offered), `required` (every authorization request must be pushed first).
   */
  oidcPar: "off" | "on" | "required";
  /** Sender-constrained tokens with DPoP (RFC 9449) at the OpenID Provider, OIDC_DPOP: off (default) or on. */
  oidcDpop: boolean;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable} ${problem}`);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

/** About a second of a browser's work (docs/security.md "Bot protection"). */
export const DEFAULT_BOT_CHALLENGE_MAX_NUMBER = 50_000;

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

export function loadConfig(env: Env = process.env): Config {
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value === "" ? undefined : value;
  };
  const port = integer(read, "PORT", 8080, 0, 65535);
  const production = read("NODE_ENV") === "production";
  const secretText = read("GATEHOUSE_SECRET");
  const databaseUrl = url(read, "DATABASE_URL", ["postgres:", "postgresql:"]);
  const workers = workerCount(read);
  const passwordMaxInFlight = integer(
    read,
    "ARGON2_MAX_IN_FLIGHT",
    defaultPasswordMaxInFlight(workers, databaseUrl !== undefined),
    1,
    64,
  );
  refuseUnsafeCombinations(read, production, databaseUrl !== undefined, secretText !== undefined);
  return {
    port,
    host: read("HOST") ?? "0.0.0.0",
    databaseUrl,
    dataDir: resolve(read("DATA_DIR") ?? "data"),
    publicUrl: (url(read, "PUBLIC_URL", ["http:", "https:"]) ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    production,
    secret: secretText === undefined ? undefined : secretKey(secretText),
    smtpUrl: url(read, "SMTP_URL", ["smtp:", "smtps:"]),
    smtpFrom: read("SMTP_FROM") ?? "Gatehouse <no-reply@localhost>",
    mailRetryMs: integer(read, "MAIL_RETRY_MS", 10_000, 100, 3_600_000),
    deliveryBacklogMaxAgeS: integer(read, "DELIVERY_BACKLOG_MAX_AGE_S", 300, 1, 7 * 24 * 3600),
    smsWebhookUrl: url(read, "SMS_WEBHOOK_URL", ["http:", "https:"]),
    trustedProxies: addressList(read, "TRUSTED_PROXIES"),
    // Shorter than /32 would put whole providers behind one budget.
    rateLimitIpv6Prefix: integer(read, "RATE_LIMIT_IPV6_PREFIX", DEFAULT_IPV6_PREFIX, 32, 128),
    redisUrl: url(read, "REDIS_URL", ["redis:", "rediss:"]),
    logLevel: oneOf(read, "LOG_LEVEL", LOG_LEVELS, "info"),
    bootstrap: bootstrap(read, env),
    passwordParams: {
      // Lowering these is for tests only; the defaults are OWASP's argon2id recommendation.
      memoryCost: integer(read, "ARGON2_MEMORY_KIB", 19456, 1024, 4_194_304),
      timeCost: integer(read, "ARGON2_TIME_COST", 2, 1, 20),
      parallelism: integer(read, "ARGON2_PARALLELISM", 1, 1, 16),
    },
    shutdownGraceMs: integer(read, "SHUTDOWN_GRACE_MS", 8000, 0, 60000),
    // 0: a signal starts the drain at once, as before (docs/operations.md#graceful-shutdown).
    shutdownDelayMs: integer(read, "SHUTDOWN_DELAY_MS", 0, 0, 120_000),
    databaseTimeoutMs: integer(read, "DATABASE_TIMEOUT_MS", 1000, 100, 60000),
    workers,
    passwordMaxInFlight,
    threadpoolNice: integer(read, "THREADPOOL_NICE", 4, 0, 19),
    auditRetentionDays: integer(read, "AUDIT_RETENTION_DAYS", DEFAULT_AUDIT_RETENTION_DAYS, 1, 36_500),
    auditSweepIntervalMs: integer(read, "AUDIT_SWEEP_INTERVAL_MS", 3_600_000, 100, 86_400_000),
    // About a second and a half of waiting at OWASP's parameters, whatever the slot count.
    passwordQueueMax: integer(read, "ARGON2_QUEUE_MAX", 32 * passwordMaxInFlight, 0, 100_000),
    passwordQueueWaitMs: integer(read, "ARGON2_QUEUE_WAIT_MS", 2000, 10, 60_000),
    metricsToken: bearerToken(read, "METRICS_TOKEN"),
    botChallengeMaxNumber: integer(read, "BOT_CHALLENGE_MAX_NUMBER", DEFAULT_BOT_CHALLENGE_MAX_NUMBER, 1, 100_000_000),
    outboundAllowHosts: allowHosts(read, "OUTBOUND_ALLOW_HOSTS"),
    webhookTimeoutMs: integer(read, "WEBHOOK_TIMEOUT_MS", 10_000, 100, 60_000),
    webhookPollMs: integer(read, "WEBHOOK_POLL_MS", 1_000, 10, 60_000),
    hookTimeoutMs: integer(read, "HOOK_TIMEOUT_MS", DEFAULT_HOOK_TIMEOUT_MS, 100, 60_000),
    hookMaxInFlight: integer(read, "HOOK_MAX_IN_FLIGHT", DEFAULT_HOOK_MAX_IN_FLIGHT, 1, 10_000),
    oidcPar: oneOf(read, "OIDC_PAR", ["off", "on", "required"], "off") as Config["oidcPar"],
    oidcDpop: oneOf(read, "OIDC_DPOP", ["off", "on"], "off") === "on",
  };
}

/** Settings that each parse but together would run an instance that cannot work with its peers. */
function refuseUnsafeCombinations(read: Reader, production: boolean, shared: boolean, hasSecret: boolean): void {
  if (production && !hasSecret) {
    throw new ConfigError("GATEHOUSE_SECRET", "is required when NODE_ENV=production (32 bytes, hex or base64)");
  }
  // A key generated per data directory is one per instance (and one more per command line):
  // each would seal with its own, and open nothing the others sealed.
  if (shared && !hasSecret) {
    throw new ConfigError(
      "GATEHOUSE_SECRET",
      "is required when DATABASE_URL is set: every instance and command on the database must use the same key (32 bytes, e.g. `openssl rand -hex 32`)",
    );
  }
  // PUBLIC_URL is the token issuer: instances that default it to their own port refuse each
  // other's tokens (`valid: false`) behind one load balancer, silently. Production names it.
  if (production && read("PUBLIC_URL") === undefined) {
    throw new ConfigError(
      "PUBLIC_URL",
      "is required when NODE_ENV=production (the URL clients reach Gatehouse at; it is the token issuer, the same on every instance)",
    );
  }
}

function allowHosts(read: Reader, name: string): AllowHosts {
  try {
    return parseAllowHosts(read(name));
  } catch (error) {
    throw new ConfigError(name, error instanceof Error ? error.message : String(error));
  }
}

/** WORKERS: 1 to 64, or `auto` for one process per core. */
function workerCount(read: Reader): number {
  if (read("WORKERS")?.toLowerCase() === "auto") return Math.min(64, availableParallelism());
  try {
    return integer(read, "WORKERS", 1, 1, 64);
  } catch {
    throw new ConfigError("WORKERS", `must be an integer from 1 to 64 or "auto" (got "${read("WORKERS")}")`);
  }
}

/** The cores divided among the processes that will run (PGlite runs one whatever WORKERS says). */
function defaultPasswordMaxInFlight(workers: number, onPostgres: boolean): number {
  return Math.max(1, Math.floor(availableParallelism() / (onPostgres ? workers : 1)));
}

type Reader = (name: string) => string | undefined;

function integer(read: Reader, name: string, fallback: number, min: number, max: number): number {
  const text = read(name);
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max} (got "${text}")`);
  }
  return Number(text);
}

function url(read: Reader, name: string, protocols: string[]): string | undefined {
  const text = read(name);
  if (text === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new ConfigError(name, `must be a URL starting with ${protocols.join(" or ")}//`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must be a URL starting with ${protocols.join(" or ")}// (got ${parsed.protocol}//…)`);
  }
  return text;
}

function oneOf(read: Reader, name: string, allowed: string[], fallback: string): string {
  const text = read(name);
  if (text === undefined) return fallback;
  if (!allowed.includes(text)) throw new ConfigError(name, `must be one of ${allowed.join(", ")} (got "${text}")`);
  return text;
}

function addressList(read: Reader, name: string): string[] {
  const items = (read(name) ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = items.find((item) => isIP(item) === 0);
  if (bad !== undefined) throw new ConfigError(name, `must be a comma-separated list of IP addresses (got "${bad}")`);
  return [...new Set(items.map(canonicalIp))];
}

/** A secret sent as `Authorization: Bearer <token>`: one word of visible ASCII. */
function bearerToken(read: Reader, name: string): string | undefined {
  const text = read(name);
  if (text !== undefined && !/^[\x21-\x7e]+$/.test(text))
    throw new ConfigError(name, "must be visible ASCII characters without spaces (e.g. `openssl rand -hex 32`)");
  return text;
}

/** Accepts 64 hex characters or base64/base64url of exactly 32 bytes. */
export function secretKey(text: string, name = "GATEHOUSE_SECRET"): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (key.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(text) && !/^[A-Za-z0-9+/_-]{43}=?$/.test(text))) {
    throw new ConfigError(name, "must be 32 bytes as 64 hex characters or base64 (e.g. `openssl rand -hex 32`)");
  }
  return key;
}

function bootstrap(read: Reader, env: Env): Config["bootstrap"] {
  const email = read("GATEHOUSE_BOOTSTRAP_EMAIL");
  // Passwords keep their spaces: only a blank value counts as absent.
  const password = read("GATEHOUSE_BOOTSTRAP_PASSWORD") === undefined ? undefined : env.GATEHOUSE_BOOTSTRAP_PASSWORD;
  if (email === undefined && password === undefined) return undefined;
  if (email === undefined)
    throw new ConfigError("GATEHOUSE_BOOTSTRAP_EMAIL", "is required when GATEHOUSE_BOOTSTRAP_PASSWORD is set");
  if (password === undefined)
    throw new ConfigError("GATEHOUSE_BOOTSTRAP_PASSWORD", "is required when GATEHOUSE_BOOTSTRAP_EMAIL is set");
  const problem = emailProblem(email);
  if (problem) throw new ConfigError("GATEHOUSE_BOOTSTRAP_EMAIL", problem);
  const length = [...password].length;
  if (length < 8 || length > 128) throw new ConfigError("GATEHOUSE_BOOTSTRAP_PASSWORD", "must be 8 to 128 characters");
  return { email, password, organization: read("GATEHOUSE_BOOTSTRAP_ORG") ?? "Default" };
}
