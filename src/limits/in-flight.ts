import type { Count, CountRef } from "./counts.js";

/**
 * The tries being checked right now, per subject (an account, a client address, a challenge),
 * beside the subjects' failure counts (counts.ts). A try announces itself under each of its
 * subjects before its password or code is checked and withdraws when it has its answer, so a
 * try that looks can count the failures plus the tries that may still become failures, and
 * wait rather than be refused when only tries in flight stand in its way. A right answer then
 * writes nothing that other tries share: its own rows come and go, and no count row is
 * updated by every sign-in of one account.
 *
 * On PostgreSQL the announcement is committed before the look, so of two tries announced at
 * once the one that looks last sees the other (the store never has two tries both admitted
 * without either having counted the other); on Redis announce and look are one Lua call.
 */
export interface Standing {
  /** The subject's failures in their window (count 0 when none). */
  failures: Count;
  /** Other tries announced under the subject and not yet withdrawn. */
  others: number;
}

/** An account's wait, set in the same step as the failure that reaches its threshold. */
export interface FailureWait {
  /** The account's failures: one of the failing try's subjects. */
  of: CountRef;
  /** The account's wait (its window is computed here). */
  wait: CountRef;
  threshold: number;
  /** Keycloak's progression: `stepSeconds` × (failures past the threshold + 1), at most `maxSeconds`. */
  stepSeconds: number;
  maxSeconds: number;
}

/** What a look answers: each subject's standing, and the counts of `also` (read only). */
export interface Looked {
  standings: Standing[];
  also: Count[];
}

export interface InFlightTries {
  /**
   * Announces try `id` under each subject (the refs of the subjects' failure counts) for
   * `leaseSeconds`, then looks: each subject's standing (others: but this try) and `also`.
   */
  enter(id: string, subjects: CountRef[], leaseSeconds: number, also: CountRef[]): Promise<Looked>;
  /** Looks without announcing anything: one round trip, for a try that is likely refused. */
  look(subjects: CountRef[], also: CountRef[]): Promise<Looked>;
  /** Withdraws try `id` from its subjects and deletes the counts of `forget`: one round trip. */
  leave(id: string, subjects: CountRef[], forget: CountRef[]): Promise<void>;
  /**
   * The try was wrong: adds one failure to each subject and withdraws the try, atomically (a
   * look sees it in flight or failed, never neither), and sets `wait` when due. Answers the
   * subjects' failure counts with this one.
   */
  fail(id: string, subjects: CountRef[], wait?: FailureWait): Promise<Count[]>;
  /** Stops what runs in the background (the PostgreSQL sweep of expired announcements). */
  stop(): void;
}
