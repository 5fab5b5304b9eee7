import type { Project } from "../domain/account.js";
import type { ChangeFeed } from "./change-feed.js";
import { createApiKeyCache } from "./verification-cache/api-keys.js";
import { createDenyList } from "./verification-cache/deny-list.js";
import { createSessionCache } from "./verification-cache/sessions.js";
import { createSigningKeyCache } from "./verification-cache/signing-keys.js";
import type {
  ActiveApiKey,
  ActiveSigningKey,
  HitsAndMisses,
  SessionStanding,
  SignedToken,
  VerificationKey,
  VerificationRepos,
} from "./verification-cache/types.js";

export type {
  ActiveApiKey,
  ActiveSigningKey,
  SessionStanding,
  SignedToken,
  VerificationKey,
} from "./verification-cache/types.js";

/**
 * What every authenticated Auth request reads (its API key; for a user token, the project's
 * public keys, the revoked jtis, the session and the user), kept in memory so the hot path
 * does not touch the database. Correct only because the change feed clears an entry whenever
 * the database changes it: while the feed is not live, every read goes to the database.
 * One topic a file (verification-cache/), each with its own generation guard against a read
 * racing a change.
 *
 * Expiry is judged at each use against the clock, never cached. Entries are bounded in count
 * (least recently used out first); the deny list is complete instead (deny-list.ts).
 */
export interface VerificationCache {
  findActiveApiKey(keyHash: string, now: Date): Promise<ActiveApiKey | null>;
  /** Keys that may have signed a token still alive at `now` (retired less than token_expiry ago). */
  signingKey(project: Project, kid: string, now: Date): Promise<VerificationKey | undefined>;
  isRevoked(projectId: string, jti: string, now: Date): Promise<boolean>;
  /** A token of this project whose signature was verified before (while the feed was live). */
  signedPayload(projectId: string, token: string): SignedToken | undefined;
  rememberSigned(projectId: string, token: string, signed: SignedToken): void;
  /**
   * The project's active signing key, opened by `load` on a miss (the caller reads it in its
   * own transaction). Kept in memory, like the keys of any signer, until the keys change.
   */
  activeSigningKey(projectId: string, load: () => Promise<ActiveSigningKey | null>): Promise<ActiveSigningKey | null>;
  /** The session when it is unrevoked, unexpired and its user exists and is enabled. */
  activeSession(projectId: string, sessionId: string, now: Date): Promise<SessionStanding | undefined>;
  /** Lookups answered from memory (hits) or not (misses), per cache, since start (src/metrics). */
  readonly stats: VerificationCacheStats;
}

export const VERIFICATION_CACHES = [
  "api_keys",
  "signing_keys",
  "active_signing_keys",
  "signed_tokens",
  "revoked",
  "sessions",
] as const;
export type VerificationCacheName = (typeof VERIFICATION_CACHES)[number];
export type VerificationCacheStats = Record<VerificationCacheName, HitsAndMisses>;

export interface VerificationCacheLimits {
  apiKeys: number;
  projects: number;
  sessions: number;
  signedTokens: number;
}

const DEFAULT_LIMITS: VerificationCacheLimits = {
  apiKeys: 10_000,
  projects: 10_000,
  sessions: 50_000,
  signedTokens: 10_000,
};

export function createVerificationCache(
  repos: VerificationRepos,
  feed: ChangeFeed,
  limits: VerificationCacheLimits = DEFAULT_LIMITS,
): VerificationCache {
  const stats = Object.fromEntries(
    VERIFICATION_CACHES.map((name) => [name, { hits: 0, misses: 0 }]),
  ) as VerificationCacheStats;
  const apiKeys = createApiKeyCache(repos, feed, limits.apiKeys, stats.api_keys);
  const signingKeys = createSigningKeyCache(repos, feed, limits, stats);
  const denyList = createDenyList(repos, feed, stats.revoked);
  const sessions = createSessionCache(repos, feed, limits.sessions, stats.sessions);
  const topics = [apiKeys, signingKeys, denyList, sessions];

  feed.subscribe({
    change(change) {
      for (const topic of topics) topic.change(change);
    },
    reset() {
      for (const topic of topics) topic.reset();
    },
  });

  return {
    stats,
    findActiveApiKey: apiKeys.findActiveApiKey,
    signingKey: signingKeys.signingKey,
    signedPayload: signingKeys.signedPayload,
    rememberSigned: signingKeys.rememberSigned,
    activeSigningKey: signingKeys.activeSigningKey,
    isRevoked: denyList.isRevoked,
    activeSession: sessions.activeSession,
  };
}
