import type { ChangeFeed } from "../change-feed.js";
import { GenerationGuard } from "./generation-guard.js";
import type { FeedFollower, HitsAndMisses, VerificationRepos } from "./types.js";

export interface DenyList extends FeedFollower {
  isRevoked(projectId: string, jti: string, now: Date): Promise<boolean>;
}

const SWEEP_MS = 60_000;

/**
 * The revoked access tokens still unexpired, all of them, loaded once and then kept current by
 * the feed. Not an LRU cache: an entry evicted would be a revoked token accepted, so the list
 * is complete or not used, and shrinks only as its tokens expire.
 */
export function createDenyList(
  repos: Pick<VerificationRepos, "revokedAccessTokens">,
  feed: ChangeFeed,
  stats: HitsAndMisses,
): DenyList {
  // `${projectId}:${jti}` → the token's expiry (epoch s); complete only once `loaded`.
  const denied = new Map<string, number>();
  let loaded = false;
  let loading: Promise<void> | undefined;
  let lastSweep = 0;
  const guard = new GenerationGuard(feed);

  const load = (now: Date) => {
    const started = guard.begin();
    loading ??= repos.revokedAccessTokens.listUnexpired(now).then(
      (rows) => {
        if (!guard.unchanged(started)) return;
        for (const r of rows) denied.set(`${r.projectId}:${r.jti}`, r.expiresAt);
        loaded = true;
      },
      () => {
        if (guard.unchanged(started)) loading = undefined;
      },
    );
  };

  const sweep = (now: Date) => {
    if (now.getTime() - lastSweep < SWEEP_MS) return;
    lastSweep = now.getTime();
    const seconds = now.getTime() / 1000;
    for (const [key, exp] of denied) if (exp <= seconds) denied.delete(key);
  };

  return {
    change(change) {
      // Added even before the list has loaded: the load only ever adds as well.
      if (change.kind === "revoked")
        denied.set(`${change.projectId}:${change.id}`, change.expiresAt ?? Number.MAX_SAFE_INTEGER);
    },
    reset() {
      guard.advance();
      denied.clear();
      loaded = false;
      loading = undefined;
    },

    async isRevoked(projectId, jti, now) {
      if (!feed.live) {
        stats.misses++;
        return repos.revokedAccessTokens.isRevoked(projectId, jti);
      }
      if (!loaded) {
        stats.misses++;
        load(now);
        return repos.revokedAccessTokens.isRevoked(projectId, jti);
      }
      stats.hits++;
      sweep(now);
      return denied.has(`${projectId}:${jti}`);
    },
  };
}
