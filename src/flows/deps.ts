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
import type { HookRunner } from "./hooks/hook-runner.js";
import type { DetachedWork } from "./auth/detached.js";

/**
 * What flows may use: the database, the clock, hashing and encryption, configuration, mail. Each
 * flow names the members it reads (`Pick<FlowDeps, …>`), so a test builds only those and a
 * reader sees what a use case touches from its signature; what only handlers or the process use
 * (the bot challenge, the webhook worker, the limiter's store) is in HandlerDeps and AppDeps.
 */
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
  /** The projects' synchronous hooks (flows/hooks/): found, called and signed. */
  hooks: HookRunner;
  /** Work a flow hands off after answering (auth/detached.ts); a shutdown waits for it. */
  detached: DetachedWork;
}
