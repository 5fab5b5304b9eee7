import type { ChangeFeed } from "../change-feed.js";

/**
 * What keeps a read that raced a change from caching a stale answer. The database may answer a
 * read before a change commits and the change's notice may arrive before the read's answer; so
 * a read notes the generation it began under, every change advances it, and the answer is kept
 * only if no change came in between and the feed is still live (were it not, a notice might
 * have been missed). Each topic has its own guard, so that a change to sessions does not void
 * a read of keys.
 */
export class GenerationGuard {
  private generation = 0;

  constructor(private readonly feed: Pick<ChangeFeed, "live">) {}

  /** A read from the database begins: what it finds is kept only if `mayKeep(begin())`. */
  begin(): number {
    return this.generation;
  }

  /** A change (or a reset) arrived: reads under way may no longer keep what they find. */
  advance(): void {
    this.generation++;
  }

  /** No change arrived since `started` (a load's failure may still be forgotten). */
  unchanged(started: number): boolean {
    return this.generation === started;
  }

  mayKeep(started: number): boolean {
    return this.feed.live && this.generation === started;
  }
}
