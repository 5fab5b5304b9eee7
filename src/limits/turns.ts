/**
 * This instance's side of admitting tries (tries.ts), per subject key (an account, a client
 * address, a challenge):
 *
 * - one admission at a time: the tries of one instance announce and look in the store one
 *   after the other, so a burst on this instance never sees its own half-announced tries and
 *   backs off as a whole;
 * - a line of tries waiting for room (a place among the subject's remaining guesses, held by
 *   tries still being checked), first come first served: a try of the key that ends here wakes
 *   the first, and the first also looks again every POLL_MS for tries that ended on other
 *   instances. A try waits while its line moves: one that has seen no try of its key end or be
 *   admitted for PATIENCE_MS gives up, and the line is bounded, as the argon2 queue is (past
 *   MAX_WAITING a try is refused at once rather than held in memory);
 * - which keys were refusing tries by their failures a moment ago: a try of such a key looks
 *   first, without announcing itself, and is refused in one round trip if it still is.
 */

/** How often the first try of a line looks again for room made on other instances. */
export const POLL_MS = 100;
/** How long a try waits in a line that does not move. */
export const PATIENCE_MS = 10_000;
/** Tries waiting on one key at most. */
export const MAX_WAITING = 64;
/** Keys remembered as refusing at most; past it the hints start again from none. */
const MAX_HINTS = 10_000;

export interface Turns {
  /** Runs `work` holding the turn of each key (taken in sorted order, so two tries cannot deadlock). */
  exclusive<T>(keys: string[], work: () => Promise<T>): Promise<T>;
  /**
   * Waits in `key`'s line until woken (true), or until the line has not moved for PATIENCE_MS
   * (false; at once when the line is full). `first` puts the try back at the head: it was
   * woken and found no room yet.
   */
  room(key: string, first: boolean): Promise<boolean>;
  /** One of `keys` whose line has tries waiting, if any. */
  waiting(keys: string[]): string | undefined;
  /** A try of these keys was admitted: the lines move. */
  moved(keys: string[]): void;
  /** A try of these keys ended, or was admitted with room to spare: wakes the first of each line. */
  next(keys: string[]): void;
  /** `key` refused a try by its failures until `until` (epoch ms): a hint for the next tries, not a decision. */
  refused(key: string, until: number): void;
  /** Whether one of `keys` was refusing tries a moment ago and may still be. */
  likelyRefused(keys: string[]): boolean;
}

interface Line {
  waiters: Array<() => void>;
  movedAt: number;
  poller: NodeJS.Timeout;
}

export function localTurns(): Turns {
  const tails = new Map<string, Promise<void>>();
  const lines = new Map<string, Line>();
  const refusing = new Map<string, number>();

  const take = async (key: string): Promise<() => void> => {
    const before = tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const turn = new Promise<void>((resolve) => (release = resolve));
    const mine = before.then(() => turn);
    tails.set(key, mine);
    await before;
    return () => {
      release();
      if (tails.get(key) === mine) tails.delete(key);
    };
  };

  const close = (key: string, line: Line) => {
    if (line.waiters.length > 0 || lines.get(key) !== line) return;
    clearInterval(line.poller);
    lines.delete(key);
  };
  const wakeFirst = (key: string) => {
    const line = lines.get(key);
    if (!line) return;
    const wake = line.waiters.shift();
    close(key, line);
    wake?.();
  };
  const lineOf = (key: string): Line => {
    let line = lines.get(key);
    if (!line) {
      line = { waiters: [], movedAt: Date.now(), poller: setInterval(() => wakeFirst(key), POLL_MS).unref() };
      lines.set(key, line);
    }
    return line;
  };
  const moved = (keys: string[]) => {
    for (const key of keys) {
      const line = lines.get(key);
      if (line) line.movedAt = Date.now();
    }
  };

  return {
    async exclusive(keys, work) {
      const releases: Array<() => void> = [];
      try {
        for (const key of [...new Set(keys)].sort()) releases.push(await take(key));
        return await work();
      } finally {
        for (const release of releases.reverse()) release();
      }
    },

    room(key, first) {
      const line = lineOf(key);
      if (line.waiters.length >= MAX_WAITING) return Promise.resolve(false);
      const joined = Date.now();
      return new Promise<boolean>((resolve) => {
        let timer: NodeJS.Timeout;
        const wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
        const patience = () => {
          const since = Math.max(joined, line.movedAt);
          const left = since + PATIENCE_MS - Date.now();
          if (left > 0) {
            timer = setTimeout(patience, left);
            return;
          }
          const at = line.waiters.indexOf(wake);
          if (at >= 0) line.waiters.splice(at, 1);
          close(key, line);
          resolve(false);
        };
        timer = setTimeout(patience, PATIENCE_MS);
        if (first) line.waiters.unshift(wake);
        else line.waiters.push(wake);
      });
    },

    waiting: (keys) => keys.find((key) => (lines.get(key)?.waiters.length ?? 0) > 0),

    moved,

    next(keys) {
      moved(keys);
      for (const key of new Set(keys)) wakeFirst(key);
    },

    refused(key, until) {
      if (refusing.size >= MAX_HINTS) refusing.clear();
      refusing.set(key, until);
    },

    likelyRefused(keys) {
      const now = Date.now();
      return keys.some((key) => {
        const until = refusing.get(key);
        if (until !== undefined && until <= now) refusing.delete(key);
        return until !== undefined && until > now;
      });
    },
  };
}
