import { LRUCache } from "lru-cache";
import type { ChangeFeed } from "../change-feed.js";
import { GenerationGuard } from "./generation-guard.js";
import type { FeedFollower, HitsAndMisses, SessionStanding, VerificationRepos } from "./types.js";

export interface SessionCache extends FeedFollower {
  activeSession(projectId: string, sessionId: string, now: Date): Promise<SessionStanding | undefined>;
}

interface CachedSession {
  projectId: string;
  /** undefined: the session is revoked, expired or gone for good, or its user is disabled. */
  standing: SessionStanding | undefined;
  /** Not to be remembered: a disabled user may be enabled again. */
  transient?: boolean;
}

/**
 * Sessions by id, with their user's standing. A change to a user (disabled, deleted) forgets
 * that user's sessions, found through an index by user that follows every entry out.
 */
export function createSessionCache(
  repos: Pick<VerificationRepos, "sessions" | "users">,
  feed: ChangeFeed,
  max: number,
  stats: HitsAndMisses,
): SessionCache {
  const sessionsOfUser = new Map<string, Set<string>>();
  const sessions = new LRUCache<string, CachedSession>({
    max,
    // Called for every way out (evicted, deleted, replaced, cleared), so the index never names
    // a session no longer held.
    dispose(cached, sessionId) {
      if (!cached.standing) return;
      const ids = sessionsOfUser.get(cached.standing.userId);
      ids?.delete(sessionId);
      if (ids?.size === 0) sessionsOfUser.delete(cached.standing.userId);
    },
  });
  const guard = new GenerationGuard(feed);

  const loadSession = async (projectId: string, sessionId: string, now: Date): Promise<CachedSession> => {
    const session = await repos.sessions.getActive(projectId, sessionId, now);
    if (!session) return { projectId, standing: undefined };
    const user = await repos.users.get(projectId, session.userId);
    // A disabled user may be enabled again: reported, not remembered as gone.
    if (!user || user.disabled) return { projectId, standing: undefined, transient: user !== null };
    return { projectId, standing: { userId: user.id, expiresAt: session.expiresAt } };
  };

  return {
    change(change) {
      if (change.kind !== "sessions" && change.kind !== "users") return;
      guard.advance();
      let stale: Iterable<string>;
      if (change.id === "*") {
        const ofProject: string[] = [];
        for (const [id, cached] of sessions.entries()) if (cached.projectId === change.projectId) ofProject.push(id);
        stale = ofProject;
      } else if (change.kind === "sessions") {
        stale = [change.id];
      } else {
        stale = [...(sessionsOfUser.get(change.id) ?? [])];
      }
      for (const id of stale) sessions.delete(id);
    },
    reset() {
      guard.advance();
      sessions.clear();
      sessionsOfUser.clear();
    },

    async activeSession(projectId, sessionId, now) {
      let cached = feed.live ? sessions.get(sessionId) : undefined;
      if (cached && cached.projectId === projectId) stats.hits++;
      else {
        stats.misses++;
        const started = guard.begin();
        const loaded = await loadSession(projectId, sessionId, now);
        if (guard.mayKeep(started) && !loaded.transient) {
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
