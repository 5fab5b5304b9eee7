import type { Clock } from "../../src/domain/clock.js";

/** The service's clock in a test: real time plus an offset the test moves forward. */
export interface TestClock extends Clock {
  advance(ms: number): void;
}

export function createTestClock(): TestClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms) {
      offset += ms;
    },
  };
}
