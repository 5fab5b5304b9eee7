import type { Config } from "./config.js";
import { systemClock, type Clock } from "./domain/clock.js";
import { createPasswordHasher } from "./crypto/passwords.js";
import { createSecretBox, type SecretBox } from "./crypto/secret-box.js";
import { createCursorCodec } from "./crypto/cursors.js";
import { loadOrCreateSecret, secretFilePath } from "./crypto/secret-file.js";
import { checkSecretOpensStoredRows } from "./crypto/secret-check.js";
import { bootstrapOrganization } from "./flows/create-organization.js";
import type { FlowDeps } from "./flows/deps.js";
import { checkAccessToken } from "./flows/auth/verify-access-token.js";
import { issuerOf } from "./flows/auth/issuer.js";
import { createLogger, type Logger } from "./log.js";
import { createOutbox } from "./notify/outbox.js";
import { STOP_WAIT_MS } from "./worker-loop.js";
import { createCodeHasher } from "./crypto/one-time-codes.js";
import { createOidcProviders } from "./flows/auth/sso/providers.js";
import { createHookRunner } from "./flows/hooks/hook-runner.js";
import { createWebhookWorker } from "./webhooks/worker.js";
import type { AuditEventInput } from "./domain/audit.js";
import { auditTypesFor, WEBHOOK_EVENT_TYPES } from "./domain/webhooks.js";
import { createGatehouseServer } from "./server.js";
import { warnIfRedisDown } from "./readiness.js";
import type { HttpHandler } from "./transport/http-handler.js";
import type { ServerDeps } from "./api-router.js";
import type { AppDeps } from "./app-deps.js";
import { openDatabase, type Database } from "./store/database.js";
import { createVerificationCache } from "./store/verification-cache.js";
import { createLimits } from "./limits/limits.js";
import { createDetachedWork } from "./flows/auth/detached.js";
import { startAuditRetention } from "./flows/audit/retention.js";
import { openLimiterStore } from "./limits/store.js";
import { ipSubject } from "./limits/ip-subject.js";
import { createBotChallenges } from "./crypto/bot-challenges.js";
import { BOT_CHALLENGE_SECONDS, createBotCheck } from "./flows/auth/bot-check.js";
import { operatorSocketPath, startOperatorChannel, type OperatorChannel } from "./cli/operator-channel-server.js";
import { runCli } from "./cli/run.js";
import { createOperatorApi } from "./operator-api.js";
import type { EmbeddedHolder } from "./store/embedded-postgres.js";

export interface Gatehouse {
  port: number;
  url: string;
  /** What the server was built from: tests call its services in memory with them (src/api-router.ts). */
  deps: ServerDeps;
  /** The port's request handler: tests inject requests into it in memory (test/helpers/inject.ts). */
  handle: HttpHandler;
  /** Readiness fails from now on (/healthz 503, gRPC health NOT_SERVING); the port still serves. */
  unready(): void;
  /** Graceful: stop accepting, finish in-flight requests, close the database. */
  close(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  clock?: Clock;
  /** A cluster worker: its primary has already run the bootstrap, once for all workers. */
  skipBootstrap?: boolean;
  /** More fields for the `gatehouse listening` line (the cluster worker id, the pool size). */
  listening?: Record<string, unknown>;
  /** Embedded PGlite: who takes the data directory's lock (store/data-dir-lock.ts). */
  holder?: EmbeddedHolder;
}

/**
 * The longest a graceful stop takes: the delay before the drain (SHUTDOWN_DELAY_MS), the grace
 * for requests in flight, then a delivery in flight, then closing the database (bounded by its
 * timeout when it does not answer), plus a margin. Past it the process exits anyway, with
 * status 1 (main.ts).
 */
export function shutdownBoundMs(config: Config): number {
  return config.shutdownDelayMs + config.shutdownGraceMs + STOP_WAIT_MS + config.databaseTimeoutMs + 500;
}

/** Dependencies without the network: used by the server and by the CLI. */
export async function createDeps(config: Config, options: StartOptions = {}): Promise<AppDeps> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const secret = config.secret ?? (await loadOrCreateSecret(config.dataDir));
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    logger,
    timeoutMs: config.databaseTimeoutMs,
    clock,
    holder: options.holder,
  });
  const secrets = createSecretBox(secret);
  try {
    await checkSecretOpensStoredRows(db, secrets, config.secret ? "GATEHOUSE_SECRET" : secretFilePath(config.dataDir));
  } catch (error) {
    await db.close();
    throw error;
  }
  const codes = createCodeHasher(secret);
  const limiterStore = openLimiterStore({ db, redisUrl: config.redisUrl, logger });
  return {
    config,
    db,
    clock,
    logger,
    passwords: createPasswordHasher(config.passwordParams, {
      maxInFlight: config.passwordMaxInFlight,
      maxQueue: config.passwordQueueMax,
      maxWaitMs: config.passwordQueueWaitMs,
    }),
    secrets,
    cursors: createCursorCodec(secret),
    ...createOutbox(config, { db, secrets, clock, logger }),
    codes,
    sso: createOidcProviders(clock, { allow: config.outboundAllowHosts, logger }),
    verification: createVerificationCache(db.repos, db.changes),
    limits: createLimits(limiterStore, codes, ipSubject(config.rateLimitIpv6Prefix)),
    limiterStore,
    bot: createBotCheck({
      challenges: createBotChallenges(secret),
      clock,
      maxNumber: config.botChallengeMaxNumber,
      spent: limiterStore.counter("bot_proof_spent", BOT_CHALLENGE_SECONDS),
    }),
    ...outboundCallers(config, { db, secrets, clock, logger }),
    detached: createDetachedWork(logger),
  };
}

/**
 * The two callers of addresses projects configure: hooks (a sign-in waits for them) and the
 * webhook worker. Both record their failures in the audit log, and as recordAlone does, what
 * called them goes on whether or not that row was stored.
 */
function outboundCallers(
  config: Config,
  { db, secrets, clock, logger }: { db: Database; secrets: SecretBox; clock: Clock; logger: Logger },
): Pick<AppDeps, "hooks" | "webhooks"> {
  const audit = (event: AuditEventInput) =>
    db.repos.auditEvents
      .record(event)
      .catch((err: unknown) => logger.error({ err, type: event.type }, "audit event not recorded"));
  return {
    hooks: createHookRunner({
      db,
      secrets,
      clock,
      logger,
      allow: config.outboundAllowHosts,
      timeoutMs: config.hookTimeoutMs,
      maxInFlight: config.hookMaxInFlight,
      audit,
    }),
    webhooks: createWebhookWorker({
      db,
      secrets,
      clock,
      logger,
      allow: config.outboundAllowHosts,
      timeoutMs: config.webhookTimeoutMs,
      pollMs: config.webhookPollMs,
      audit,
    }),
  };
}

/** The server's dependencies: the flows' and the check of end users' access tokens. */
export function serverDepsOf(deps: AppDeps): ServerDeps {
  const userTokens = {
    verify: async (project: Parameters<typeof checkAccessToken>[1], token: string) => {
      const verified = await checkAccessToken(deps, project, token);
      return verified && { userId: verified.userId, sessionId: verified.sessionId, claims: verified.claims };
    },
  };
  return { ...deps, userTokens };
}

/** The first organization from the GATEHOUSE_BOOTSTRAP_* variables, if they are set. */
export async function bootstrap(deps: FlowDeps, config: Config): Promise<void> {
  if (config.bootstrap) await bootstrapOrganization(deps, { name: config.bootstrap.organization, ...config.bootstrap });
}

export async function startGatehouse(config: Config, options: StartOptions = {}): Promise<Gatehouse> {
  // On embedded PGlite this process holds the database: commands come in through its channel.
  const embedded = !config.databaseUrl;
  const holder: EmbeddedHolder | undefined = embedded
    ? { role: "server", socket: operatorSocketPath(config.dataDir) }
    : undefined;
  const deps = await createDeps(config, { ...options, holder });
  let operators: OperatorChannel | undefined;
  try {
    if (!options.skipBootstrap) await bootstrap(deps, config);
    await deps.db.repos.webhookEndpoints.syncAllTypes(auditTypesFor(WEBHOOK_EVENT_TYPES));
    const serverDeps = serverDepsOf(deps);
    const server = createGatehouseServer(serverDeps);
    if (embedded) {
      // A command line's command runs here, on this server's services, as the operator it proved.
      const services = { deps, api: createOperatorApi(serverDeps) };
      operators = await startOperatorChannel(config.dataDir, deps, (argv, output, from) =>
        runCli(argv, output, { ...from, services }),
      );
    }
    await warnIfRedisDown(deps);
    const port = await server.listen(config.port, config.host);
    // The issuer names this instance's tokens: every instance behind one address must log the same.
    const tokenIssuer = issuerOf(config.publicUrl, { loginId: "{login_id}" });
    deps.logger.info(
      { port, database: deps.db.kind, token_issuer: tokenIssuer, ...options.listening },
      "gatehouse listening",
    );
    deps.mail.start();
    deps.webhooks.start();
    const retention = startAuditRetention(deps);
    return {
      port,
      url: `http://127.0.0.1:${port}`,
      deps: serverDeps,
      handle: server.handle,
      unready: server.unready,
      async close() {
        await Promise.all([server.close(config.shutdownGraceMs), operators?.close(config.shutdownGraceMs)]);
        // Work the requests handed off after answering (it may queue mail too).
        await deps.detached.settle();
        // After the requests (they may queue mail), before the database the worker writes to.
        await Promise.all([deps.mail.stop(), deps.webhooks.stop()]);
        await retention.stop();
        await deps.limits.close();
        await deps.db.close();
      },
    };
  } catch (error) {
    await operators?.close(0);
    await Promise.all([deps.mail.stop(), deps.webhooks.stop()]);
    await deps.limits.close();
    await deps.db.close();
    throw error;
  }
}
