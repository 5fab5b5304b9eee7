/**
 * Hang guards: the limits that exist only to end a test that hangs. They are not measurements:
 * a test that passes in 2 s on an idle machine takes 10–15 s on two cores at a load average of
 * 15, and a newcomer's machine is often that busy (issue 23). So they are generous, and all
 * derived from here; a test that really hangs still fails, only later. What a test measures
 * (a documented bound) is checked against the machine's lateness in the same run instead
 * (lateness.ts). docs/testing.md, "On a busy machine".
 */

/** Any test or hook (vitest.config.ts). A test known to be longer asks for `longTest(n)`. */
export const TEST_GUARD_MS = 180_000;

/**
 * One wait inside a test: a mail, a process starting, a state reached (eventually.ts, the SMTP
 * and SMS sinks, child processes). A third of the test's guard, so the wait fails first and
 * names what it awaited rather than vitest's generic timeout.
 */
export const WAIT_GUARD_MS = TEST_GUARD_MS / 3;

/** The guard of a test known to take `times` as long as most (builds, compiles, big imports). */
export function longTest(times: number): number {
  return times * TEST_GUARD_MS;
}

/**
 * DATABASE_TIMEOUT_MS for a service under test. The product bounds each wait for the database
 * at 1 s, so that a partition answers 503 quickly; on two starved cores a healthy wait can take
 * longer, and a test that is not about partitions would then see a 503 it did not cause. Tests
 * that measure the bound (test/faults, the partition case of test/shutdown/sigterm.test.ts) set
 * PRODUCT_DATABASE_TIMEOUT_MS explicitly.
 */
export const TEST_DATABASE_TIMEOUT_MS = "10000";
export const PRODUCT_DATABASE_TIMEOUT_MS = "1000";
