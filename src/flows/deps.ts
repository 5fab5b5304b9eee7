import type { Clock } from "../domain/clock.js";
import type { PasswordHasher } from "../crypto/passwords.js";
import type { SecretBox } from "../crypto/secret-box.js";
import type { CursorCodec } from "../domain/pagination.js";
import type { Database } from "../store/database.js";
import type { Logger } from "../log.js";
import type { Config } from "../config.js";
import type { MailService, SmsService } from "../notify/outbox.js";
import type { CodeHasher } from "../crypto/one-time-codes.js";
import type { OidcProviders } from "./auth/sso/providers.js";
import type { VerificationCache } from "../store/verification-cache.js";
import type { Limits } from "../limits/limits.js";
import type { LimiterStore } from "../limits/store.js";
import type { BotCheck } from "./auth/bot-check.js";
import type { HookRunner } from "./hooks/hook-runner.js";
import type { WebhookWorker } from "../webhooks/worker.js";
import type { DetachedWork } from "./auth/detached.js";

/** What flows may use: the database, the clock, hashing and encryption, configuration, mail. */
export interface FlowDeps {
  config: Config;
  db: Database;
  clock: Clock;
  passwords: PasswordHasher;
  secrets: SecretBox;
  cursors: CursorCodec;
  logger: Logger;
  /** Mail through the outbox: queued in the flow's transaction, delivered after commit. */
  mail: MailService;
  /** SMS through the same outbox. */
  sms: SmsService;
  /** HMACs of one-time and recovery codes, keyed by GATEHOUSE_SECRET. */
  codes: CodeHasher;
  /** OpenID providers of the SSO connections: discovery documents and keys, cached. */
  sso: OidcProviders;
  /** The reads of every authenticated request, from memory while the change feed is live. */
  verification: VerificationCache;
  /** Rate limits, counted in PostgreSQL (or Redis) so every instance shares them. */
  limits: Limits;
  /** Where `limits` counts, for the readiness check only (src/readiness.ts); flows count through `limits`. */
  limiterStore: Pick<LimiterStore, "kind" | "ping">;
  /** Bot protection's challenges and spent proofs (flows/auth/bot-check.ts). */
  bot: BotCheck;
  /** The projects' synchronous hooks (flows/hooks/): found, called and signed. */
  hooks: HookRunner;
  /** Delivers webhook events; started by the server only (the CLI never sends). */
  webhooks: WebhookWorker;
  /** Work a flow hands off after answering (auth/detached.ts); a shutdown waits for it. */
  detached: DetachedWork;
}
