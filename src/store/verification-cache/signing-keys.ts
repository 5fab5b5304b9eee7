import { LRUCache } from "lru-cache";
import type { Project } from "../../domain/account.js";
import { verificationKey } from "../../crypto/access-tokens.js";
import type { ChangeFeed } from "../change-feed.js";
import { GenerationGuard } from "./generation-guard.js";
import type {
  ActiveSigningKey,
  FeedFollower,
  HitsAndMisses,
  SignedToken,
  VerificationKey,
  VerificationRepos,
} from "./types.js";

export interface SigningKeyCache extends FeedFollower {
  signingKey(project: Project, kid: string, now: Date): Promise<VerificationKey | undefined>;
  signedPayload(projectId: string, token: string): SignedToken | undefined;
  rememberSigned(projectId: string, token: string, signed: SignedToken): void;
  activeSigningKey(projectId: string, load: () => Promise<ActiveSigningKey | null>): Promise<ActiveSigningKey | null>;
}

export interface SigningKeyLimits {
  projects: number;
  signedTokens: number;
}

export interface SigningKeyStats {
  signing_keys: HitsAndMisses;
  active_signing_keys: HitsAndMisses;
  signed_tokens: HitsAndMisses;
}

/**
 * A project's keys (public ones to verify with, the active one to sign with) and the tokens
 * whose signatures they verified, all forgotten when the project or its keys change. A
 * project's settings count too: its token_expiry decides how long retired keys verify.
 */
export function createSigningKeyCache(
  repos: Pick<VerificationRepos, "signingKeys">,
  feed: ChangeFeed,
  limits: SigningKeyLimits,
  stats: SigningKeyStats,
): SigningKeyCache {
  const projectKeys = new LRUCache<string, { keys: VerificationKey[]; tokenExpiry: number }>({ max: limits.projects });
  const activeKeys = new LRUCache<string, ActiveSigningKey>({ max: limits.projects });
  // token → what its signature check found; the token string itself is the key, so no two
  // tokens can share an entry.
  const signedTokens = new LRUCache<string, SignedToken & { projectId: string }>({ max: limits.signedTokens });
  const guard = new GenerationGuard(feed);

  return {
    change(change) {
      if (change.kind !== "projects" && change.kind !== "signing_keys") return;
      guard.advance();
      projectKeys.delete(change.projectId);
      activeKeys.delete(change.projectId);
      const stale: string[] = [];
      for (const [token, signed] of signedTokens.entries())
        if (signed.projectId === change.projectId) stale.push(token);
      for (const token of stale) signedTokens.delete(token);
    },
    reset() {
      guard.advance();
      projectKeys.clear();
      activeKeys.clear();
      signedTokens.clear();
    },

    async signingKey(project, kid, now) {
      let cached = feed.live ? projectKeys.get(project.id) : undefined;
      if (cached) stats.signing_keys.hits++;
      else {
        stats.signing_keys.misses++;
        const started = guard.begin();
        const retiredAfter = new Date(now.getTime() - project.tokenExpiry * 1000);
        const rows = await repos.signingKeys.listPublic(project.id, retiredAfter);
        const keys = rows.map((k) => ({ kid: k.kid, key: verificationKey(k.publicJwk), retiredAt: k.retiredAt }));
        cached = { keys, tokenExpiry: project.tokenExpiry };
        if (guard.mayKeep(started)) projectKeys.set(project.id, cached);
      }
      const oldestRetirement = now.getTime() - cached.tokenExpiry * 1000;
      return cached.keys.find(
        (k) => k.kid === kid && (k.retiredAt === null || k.retiredAt.getTime() > oldestRetirement),
      );
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
      signedTokens.set(token, { ...signed, projectId });
    },

    async activeSigningKey(projectId, load) {
      const cached = feed.live ? activeKeys.get(projectId) : undefined;
      if (cached) {
        stats.active_signing_keys.hits++;
        return cached;
      }
      stats.active_signing_keys.misses++;
      const started = guard.begin();
      const loaded = await load();
      if (loaded && guard.mayKeep(started)) activeKeys.set(projectId, loaded);
      return loaded;
    },
  };
}
