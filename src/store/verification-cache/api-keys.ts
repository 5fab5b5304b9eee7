import { LRUCache } from "lru-cache";
import type { ChangeFeed } from "../change-feed.js";
import { GenerationGuard } from "./generation-guard.js";
import type { ActiveApiKey, FeedFollower, HitsAndMisses, VerificationRepos } from "./types.js";

export interface ApiKeyCache extends FeedFollower {
  findActiveApiKey(keyHash: string, now: Date): Promise<ActiveApiKey | null>;
}

/** API keys by their hash; a change to a project or any of its keys forgets all of its keys. */
export function createApiKeyCache(
  repos: Pick<VerificationRepos, "apiKeys">,
  feed: ChangeFeed,
  max: number,
  stats: HitsAndMisses,
): ApiKeyCache {
  const apiKeys = new LRUCache<string, ActiveApiKey>({ max });
  const guard = new GenerationGuard(feed);

  return {
    change(change) {
      if (change.kind !== "projects" && change.kind !== "api_keys") return;
      guard.advance();
      const stale: string[] = [];
      for (const [hash, found] of apiKeys.entries()) if (found.project.id === change.projectId) stale.push(hash);
      for (const hash of stale) apiKeys.delete(hash);
    },
    reset() {
      guard.advance();
      apiKeys.clear();
    },

    async findActiveApiKey(keyHash, now) {
      if (!feed.live) {
        stats.misses++;
        return repos.apiKeys.findActive(keyHash, now);
      }
      let found = apiKeys.get(keyHash);
      if (found) stats.hits++;
      else {
        stats.misses++;
        const started = guard.begin();
        const loaded = await repos.apiKeys.findActive(keyHash, now);
        // Unknown keys are not remembered: a flood of made-up keys must not evict real ones.
        if (!loaded) return null;
        if (guard.mayKeep(started)) apiKeys.set(keyHash, loaded);
        found = loaded;
      }
      const expiresAt = found.apiKey.expiresAt;
      return expiresAt !== null && expiresAt <= now ? null : found;
    },
  };
}
