import type { KeyObject } from "node:crypto";
import type { ApiKey, Project } from "../domain/account.js";
import { verificationKey } from "../crypto/access-tokens.js";
import type { Change, ChangeFeed } from "./change-feed.js";
import type { Repositories } from "./repositories/index.js";

export interface ActiveApiKey {
  apiKey: ApiKey;
  project: Project;
}

export interface VerificationKey {
  kid: string;
  key: KeyObject;
  retiredAt: Date | null;
}

/** The session a token names, as far as verification cares: whose it is and until when. */
export interface SessionStanding {
  userId: string;
  expiresAt: Date;
}

/** A token whose signature held: the key that made it and its (unchecked) claims. */
export interface SignedToken {
  kid: string;
  payload: Record<string, unknown>;
}

/** The key new tokens of a project are signed with, opened. */
export interface ActiveSigningKey {
  kid: string;
  key: KeyObject;
}

/**
 * What every authenticated Auth request reads (its API key; for a user token, the project's
 * public keys, the revoked jtis, the session and the user), kept in memory so the hot path
 * does not touch the database. Correct only because the change feed clears an entry whenever
 * the database changes it: while the feed is not live, every read goes to the database.
 *
 * Expiry is judged at each use against the clock, never cached. Entries are bounded in count
 * (oldest out first).
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

export const VERIFICATION_CACHES = ["api_keys", "signing_keys", "active_signing_keys", "signed_tokens", "revoked", "sessions"] as const;
export type VerificationCacheName = (typeof VERIFICATION_CACHES)[number];
/** Plain counters, bumped on the hot path without allocating; read when metrics are scraped. */
export type VerificationCacheStats = Record<VerificationCacheName, { hits: number; misses: number }>;

export interface VerificationCacheLimits {
  apiKeys: number;
  projects: number;
  sessions: number;
  signedTokens: number;
}

const DEFAULT_LIMITS: VerificationCacheLimits = { apiKeys: 10_000, projects: 10_000, sessions: 50_000, signedTokens: 10_000 };
const DENY_SWEEP_MS = 60_000;

type Repos = Pick<Repositories, "apiKeys" | "signingKeys" | "revokedAccessTokens" | "sessions" | "users">;

interface CachedSession {
  projectId: string;
  /** undefined: the session is revoked, expired or gone for good, or its user is disabled. */
  standing: SessionStanding | undefined;
  /** Not to be remembered: a disabled user may be enabled again. */
  transient?: boolean;
}

export function createVerificationCache(repos: Repos, feed: ChangeFeed, limits: VerificationCacheLimits = DEFAULT_LIMITS): VerificationCache {
  const apiKeys = new Map<string, ActiveApiKey>();
  const projectKeys = new Map<string, { keys: VerificationKey[]; tokenExpiry: number }>();
  const activeKeys = new Map<string, ActiveSigningKey>();
  const sessions = new Map<string, CachedSession>();
  // token → what its signature check found; the token string itself is the key, so no two
  // tokens can share an entry.
  const signedTokens = new Map<string, SignedToken & { projectId: string }>();
  const sessionsOfUser = new Map<string, Set<string>>();
  // `${projectId}:${jti}` → the token's expiry (epoch s); complete only once `denyLoaded`.
  const denied = new Map<string, number>();
  let denyLoaded = false;
  let denyLoading: Promise<void> | undefined;
  let lastSweep = 0;
  const stats = Object.fromEntries(VERIFICATION_CACHES.map((name) => [name, { hits: 0, misses: 0 }])) as VerificationCacheStats;
  // A read that started before a change must not store what it read after the change was
  // applied: each cache stores only when its generation is the one the read started under.
  const generation = { apiKeys: 0, keys: 0, sessions: 0, deny: 0 };

  const bounded = <K, V>(map: Map<K, V>, limit: number, onEvict?: (key: K, value: V) => void) => {
    while (map.size >= limit) {
      const oldest = map.entries().next().value as [K, V];
      map.delete(oldest[0]);
      onEvict?.(oldest[0], oldest[1]);
    }
  };
  // Stores what a read found only if nothing it read can have changed meanwhile: the feed is
  // still live and no change to this cache arrived since the read began (`started`).
  // (Sessions apply the same rule in activeSession, with their index by user.)
  const keep = <K, V>(cache: keyof typeof generation, started: number, map: Map<K, V>, limit: number, key: K, value: V) => {
    if (!feed.live || generation[cache] !== started) return;
    bounded(map, limit);
    map.set(key, value);
  };

  const dropSession = (sessionId: string) => {
    const cached = sessions.get(sessionId);
    if (!cached) return;
    sessions.delete(sessionId);
    if (cached.standing) forgetUserSession(cached.standing.userId, sessionId);
  };
  const forgetUserSession = (userId: string, sessionId: string) => {
    const ids = sessionsOfUser.get(userId);
    ids?.delete(sessionId);
    if (ids?.size === 0) sessionsOfUser.delete(userId);
  };

  const dropKeysOf = (projectId: string) => {
    generation.keys++;
    projectKeys.delete(projectId);
    activeKeys.delete(projectId);
    for (const [token, signed] of signedTokens) if (signed.projectId === projectId) signedTokens.delete(token);
  };

  const apply = (change: Change) => {
    switch (change.kind) {
      case "projects":
      case "api_keys":
        generation.apiKeys++;
        for (const [hash, found] of apiKeys) if (found.project.id === change.projectId) apiKeys.delete(hash);
        // A project's settings include token_expiry, which decides how long retired keys count.
        if (change.kind === "projects") dropKeysOf(change.projectId);
        break;
      case "signing_keys":
        dropKeysOf(change.projectId);
        break;
      case "revoked":
        // Added even before the list has loaded: the load only ever adds as well.
        denied.set(`${change.projectId}:${change.id}`, change.expiresAt ?? Number.MAX_SAFE_INTEGER);
        break;
      case "sessions":
      case "users":
        generation.sessions++;
        if (change.id === "*") {
          for (const [id, cached] of sessions) if (cached.projectId === change.projectId) dropSession(id);
        } else if (change.kind === "sessions") {
          dropSession(change.id);
        } else {
          for (const id of [...(sessionsOfUser.get(change.id) ?? [])]) dropSession(id);
          sessionsOfUser.delete(change.id);
        }
        break;
    }
  };

  feed.subscribe({
    change: apply,
    reset() {
      for (const key of Object.keys(generation) as Array<keyof typeof generation>) generation[key]++;
      apiKeys.clear();
      projectKeys.clear();
      activeKeys.clear();
      signedTokens.clear();
      sessions.clear();
      sessionsOfUser.clear();
      denied.clear();
      denyLoaded = false;
      denyLoading = undefined;
    },
  });

  const loadDenyList = (now: Date) => {
    const started = generation.deny;
    denyLoading ??= repos.revokedAccessTokens.listUnexpired(now).then(
      (rows) => {
        if (generation.deny !== started) return;
        for (const r of rows) denied.set(`${r.projectId}:${r.jti}`, r.expiresAt);
        denyLoaded = true;
      },
      () => {
        if (generation.deny === started) denyLoading = undefined;
      },
    );
  };

  const sweepDenied = (now: Date) => {
    if (now.getTime() - lastSweep < DENY_SWEEP_MS) return;
    lastSweep = now.getTime();
    const seconds = now.getTime() / 1000;
    for (const [key, exp] of denied) if (exp <= seconds) denied.delete(key);
  };

  const loadSession = async (projectId: string, sessionId: string, now: Date): Promise<CachedSession> => {
    const session = await repos.sessions.getActive(projectId, sessionId, now);
    if (!session) return { projectId, standing: undefined };
    const user = await repos.users.get(projectId, session.userId);
    // A disabled user may be enabled again: reported, not remembered as gone.
    if (!user || user.disabled) return { projectId, standing: undefined, transient: user !== null };
    return { projectId, standing: { userId: user.id, expiresAt: session.expiresAt } };
  };

  return {
    stats,

    async findActiveApiKey(keyHash, now) {
      if (!feed.live) {
        stats.api_keys.misses++;
        return repos.apiKeys.findActive(keyHash, now);
      }
      let found = apiKeys.get(keyHash);
      if (found) stats.api_keys.hits++;
      else {
        stats.api_keys.misses++;
        const started = generation.apiKeys;
        const loaded = await repos.apiKeys.findActive(keyHash, now);
        // Unknown keys are not remembered: a flood of made-up keys must not evict real ones.
        if (!loaded) return null;
        keep("apiKeys", started, apiKeys, limits.apiKeys, keyHash, loaded);
        found = loaded;
      }
      const expiresAt = found.apiKey.expiresAt;
      return expiresAt !== null && expiresAt <= now ? null : found;
    },

    async signingKey(project, kid, now) {
      let cached = feed.live ? projectKeys.get(project.id) : undefined;
      if (cached) stats.signing_keys.hits++;
      else {
        stats.signing_keys.misses++;
        const started = generation.keys;
        const retiredAfter = new Date(now.getTime() - project.tokenExpiry * 1000);
        const rows = await repos.signingKeys.listPublic(project.id, retiredAfter);
        const keys = rows.map((k) => ({ kid: k.kid, key: verificationKey(k.publicJwk), retiredAt: k.retiredAt }));
        cached = { keys, tokenExpiry: project.tokenExpiry };
        keep("keys", started, projectKeys, limits.projects, project.id, cached);
      }
      const oldestRetirement = now.getTime() - cached.tokenExpiry * 1000;
      return cached.keys.find((k) => k.kid === kid && (k.retiredAt === null || k.retiredAt.getTime() > oldestRetirement));
    },

    signedPayload(projectId, token) {
      const signed = feed.live ? signedTokens.get(token) : undefined;
      const found = signed && signed.projectId === projectId ? signed : undefined;
      if (found) stats.signed_tokens.hits++;
      else stats.signed_tokens.misses++;
      return found;
    },

    rememberSigned(projectId, token, signed) {
      if (!feed.live) return;
      bounded(signedTokens, limits.signedTokens);
      signedTokens.set(token, { ...signed, projectId });
    },

    async activeSigningKey(projectId, load) {
      const cached = feed.live ? activeKeys.get(projectId) : undefined;
      if (cached) {
        stats.active_signing_keys.hits++;
        return cached;
      }
      stats.active_signing_keys.misses++;
      const started = generation.keys;
      const loaded = await load();
      if (loaded) keep("keys", started, activeKeys, limits.projects, projectId, loaded);
      return loaded;
    },

    async isRevoked(projectId, jti, now) {
      if (!feed.live) {
        stats.revoked.misses++;
        return repos.revokedAccessTokens.isRevoked(projectId, jti);
      }
      if (!denyLoaded) {
        stats.revoked.misses++;
        loadDenyList(now);
        return repos.revokedAccessTokens.isRevoked(projectId, jti);
      }
      stats.revoked.hits++;
      sweepDenied(now);
      return denied.has(`${projectId}:${jti}`);
    },

    async activeSession(projectId, sessionId, now) {
      let cached = feed.live ? sessions.get(sessionId) : undefined;
      if (cached && cached.projectId === projectId) stats.sessions.hits++;
      else {
        stats.sessions.misses++;
        const started = generation.sessions;
        const loaded = await loadSession(projectId, sessionId, now);
        if (feed.live && generation.sessions === started && !loaded.transient) {
          bounded(sessions, limits.sessions, (id, evicted) => {
            if (evicted.standing) forgetUserSession(evicted.standing.userId, id);
          });
          dropSession(sessionId);
          sessions.set(sessionId, loaded);
          if (loaded.standing) {
            const ids = sessionsOfUser.get(loaded.standing.userId) ?? new Set<string>();
            ids.add(sessionId);
            sessionsOfUser.set(loaded.standing.userId, ids);
          }
        }
        cached = loaded;
      }
      const standing = cached.standing;
      return standing && standing.expiresAt > now ? standing : undefined;
    },
  };
}
