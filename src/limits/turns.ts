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
 *   instances. The line is bounded, as the argon2 queue is: past MAX_WAITING the try is refused.
 */

/** How often the first try of a line looks again for room made on other instances. */
const POLL_MS = 40;
/** Tries waiting on one key at most; a flood past it is refused at once, not held in memory. */
export const MAX_WAITING = 64;

interface Waiter {
  wake(): void;
}

export interface Turns {
  /** Runs `work` holding the turn of each key (taken in sorted order, so two tries cannot deadlock). */
  exclusive<T>(keys: string[], work: () => Promise<T>): Promise<T>;
  /**
   * Waits in `key`'s line until woken, or `until` (epoch ms) passes: true when woken. `first`
   * puts the try back at the head (it was woken and found no room yet). False at once when the
   * line is full.
   */
  room(key: string, until: number, first: boolean): Promise<boolean>;
  /** A try of these keys ended or was admitted with room to spare: wakes the first of each line. */
  next(keys: string[]): void;
}

export function localTurns(): Turns {
  const tails = new Map<string, Promise<void>>();
  const lines = new Map<string, Waiter[]>();
  const pollers = new Map<string, NodeJS.Timeout>();

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

  const wakeFirst = (key: string) => {
    const line = lines.get(key);
    const first = line?.shift();
    if (line?.length === 0) stopPolling(key);
    first?.wake();
  };
  const stopPolling = (key: string) => {
    clearInterval(pollers.get(key));
    pollers.delete(key);
    lines.delete(key);
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

    room(key, until, first) {
      let line = lines.get(key);
      if (!line) lines.set(key, (line = []));
      if (line.length >= MAX_WAITING) return Promise.resolve(false);
      if (!pollers.has(key)) pollers.set(key, setInterval(() => wakeFirst(key), POLL_MS).unref());
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(
          () => {
            const waiting = lines.get(key);
            const at = waiting?.indexOf(waiter) ?? -1;
            if (at >= 0) waiting!.splice(at, 1);
            if (waiting?.length === 0) stopPolling(key);
            resolve(false);
          },
          Math.max(0, until - Date.now()),
        );
        const waiter: Waiter = {
          wake() {
            clearTimeout(timer);
            resolve(true);
          },
        };
        if (first) line.unshift(waiter);
        else line.push(waiter);
      });
    },

    next(keys) {
      for (const key of new Set(keys)) wakeFirst(key);
    },
  };
}
