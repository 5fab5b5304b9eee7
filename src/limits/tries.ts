import { randomUUID } from "node:crypto";
import { rateLimited } from "../domain/errors.js";
import { countKey } from "./counts.js";
import { countRef, type LimitKeys, type LimitScope } from "./keys.js";
import type { RateLimits } from "../domain/rate-limits.js";
import type { Looked } from "./in-flight.js";
import type { Count, CountRef, LimiterStore } from "./store.js";
import { localTurns, type Turns } from "./turns.js";

/**
 * Keycloak's failure reset time: consecutive failures of an account are forgotten 12 hours
 * after the first of them, if no success forgot them earlier.
 */
export const FAILURE_MEMORY_SECONDS = 12 * 3600;

/**
 * How long a try holds its place while it is checked: far longer than a check (the argon2
 * queue's wait, a few lookups), and short enough that the places of an instance that died
 * mid-check come back within two minutes.
 */
export const TRY_LEASE_SECONDS = 120;

/**
 * A try admitted by the limits before its work (a password, a code, a link, a second factor):
 * it holds a place among each subject's remaining guesses in the store, so a burst of parallel
 * tries gets no more than the limit checked, on every instance. It ends one way, once.
 */
export interface Attempt {
  /**
   * The answer was right: the try gives its places back, counted nowhere, and the account's
   * failures are forgotten. Never throws: the answer stands if the store cannot be told.
   */
  succeeded(): Promise<void>;
  /**
   * The answer was wrong: it is counted as a failure of each subject, and the account may
   * have to wait. `tripped`: this failure brought the account's count to its threshold (the
   * first wait).
   */
  failed(): Promise<{ tripped: boolean }>;
  /** The work broke before it had an answer: the try gives its places back. Never throws. */
  abandoned(): Promise<void>;
}

/** Runs the check a try was taken for; if it throws, the try is given back (abandoned) and the error passes on. */
export async function checking<T>(attempt: Attempt, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    await attempt.abandoned();
    throw error;
  }
}

/** The consecutive failures of one account (an email's passwords, a user's second factors) and their waits. */
export interface FailurePolicy {
  /** The counter of failures, and its key's kind. */
  counter: string;
  subject: string;
  /** The counter of waits: a key present is a wait running (ours, so a success forgets it with the failures). */
  waits: string;
  threshold(limits: RateLimits): number;
  message: string;
}

export const PASSWORDS: FailurePolicy = {
  counter: "fail_account",
  subject: "account",
  waits: "wait_account",
  threshold: (l) => l.signInFailuresPerAccount,
  message: "too many failed sign-ins for this account; wait before trying again",
};

export const SECOND_FACTORS: FailurePolicy = {
  counter: "fail_mfa",
  subject: "mfa_account",
  waits: "wait_mfa",
  threshold: (l) => l.mfaFailuresPerAccount,
  message: "too many wrong second factors for this account; wait before trying again",
};

/** What a try counts: always its client address; a code or mfa_token; an account under a failure policy. */
export interface TrySubject {
  ip: string;
  challenge?: string;
  account?: { policy: FailurePolicy; id: string };
}

/** One thing a try counts against: its failures' count and how many it allows. */
interface Limited {
  ref: CountRef;
  limit: number;
  message: string;
}

/** An account's failures, with what its wait is kept under. */
interface AccountLimited extends Limited {
  policy: FailurePolicy;
  wait: CountRef;
}

type Admission = { admitted: true; spare: boolean } | { admitted: false; busy: Limited };

/** A subject over its limit by failures alone, and the count that says until when. */
interface Refusal {
  of: Limited;
  count: Count;
}

const BUSY_MESSAGE = "too many attempts at once; try again in a moment";

/**
 * Admits a try, or refuses it: over a subject's limit by its failures alone (the address's,
 * the challenge's, an account that must wait), 429 at once, the right answer too. Otherwise
 * the try needs room: its subjects' failures plus the tries in flight plus itself within each
 * limit; without it the try waits (turns.ts) until a try in flight ends, since that one may be
 * right and fail nothing. Only failures are counted, so right answers in parallel are never
 * refused for each other, and however many tries arrive at once no more than the limit's
 * guesses are checked. An account at or past its threshold admits one try at a time, holding
 * its wait claimed in the store; a wrong answer then turns the claim into the wait the
 * progression asks for.
 */
export function tries(
  store: LimiterStore,
  keys: LimitKeys,
  turns: Turns = localTurns(),
): (s: LimitScope, subject: TrySubject) => Promise<Attempt> {
  const { key, ipKey } = keys;
  const ipFailures = (s: LimitScope, ip: string) => countRef("fail_ip", s.limits.windowSeconds, ipKey(s, "ip", ip));
  const challengeFailures = (s: LimitScope, challenge: string) =>
    countRef("verify_challenge", s.limits.windowSeconds, key(s, "challenge", challenge));
  const accountFailures = (s: LimitScope, policy: FailurePolicy, account: string) =>
    countRef(policy.counter, FAILURE_MEMORY_SECONDS, key(s, policy.subject, account));
  // Its window is the wait's length; forgetting it needs the key only.
  const waitOf = (policy: FailurePolicy, failures: CountRef, seconds = FAILURE_MEMORY_SECONDS) =>
    countRef(policy.waits, seconds, failures.key);
  const accountLimited = (s: LimitScope, policy: FailurePolicy, account: string): AccountLimited => {
    const ref = accountFailures(s, policy, account);
    return { ref, limit: policy.threshold(s.limits), message: policy.message, policy, wait: waitOf(policy, ref) };
  };
  // Keycloak's progression: each failure past the threshold waits one step longer, up to the cap.
  const waitSeconds = (s: LimitScope, beyond: number) =>
    Math.min(s.limits.signInMaxWaitSeconds, s.limits.signInWaitSeconds * (beyond + 1));

  return async function begin(s, { ip, challenge, account }) {
    const id = randomUUID();
    const ofAccount = account && accountLimited(s, account.policy, account.id);
    const ofChallenge: Limited | undefined =
      challenge === undefined
        ? undefined
        : {
            ref: challengeFailures(s, challenge),
            limit: s.limits.verifyAttemptsPerChallenge,
            message: "too many wrong attempts for this code; wait before trying again",
          };
    const ofIp: Limited = {
      ref: ipFailures(s, ip),
      limit: s.limits.failuresPerIp,
      message: "too many failed attempts from this address; try again later",
    };
    const limited = [ofAccount, ofChallenge, ofIp].filter((l): l is Limited => l !== undefined);
    const refs = limited.map((l) => l.ref);
    const turnKeys = refs.map(countKey);
    const waitRef = ofAccount?.wait;
    let claimed = false;

    const standingIn = (looked: Looked, l: Limited) => looked.standings[limited.indexOf(l)];
    // By failures alone (the address's, the challenge's, an account's wait): no try in flight changes it.
    const refusalOf = (looked: Looked): Refusal | undefined => {
      for (const l of [ofIp, ofChallenge]) {
        if (l && standingIn(looked, l).failures.count >= l.limit)
          return { of: l, count: standingIn(looked, l).failures };
      }
      const pastThreshold = ofAccount && standingIn(looked, ofAccount).failures.count >= ofAccount.limit;
      if (pastThreshold && looked.also[0].count > 0) return { of: ofAccount, count: looked.also[0] };
      return undefined;
    };
    const refuse = ({ of, count }: Refusal): never => {
      turns.refused(countKey(of.ref), Date.now() + count.msBeforeReset);
      throw rateLimited(of.message, count.msBeforeReset / 1000, of.ref.key);
    };
    const admit = async (): Promise<Admission> => {
      const looked = await store.enter(id, refs, TRY_LEASE_SECONDS, waitRef ? [waitRef] : []);
      try {
        return await decide(looked);
      } catch (error) {
        // Refused, or the store failed after the announcement: the place is given back.
        await store.leave(id, refs, []).catch(() => undefined);
        throw error;
      }
    };
    const decide = async (looked: Looked): Promise<Admission> => {
      const refusal = refusalOf(looked);
      if (refusal) refuse(refusal);
      const standing = (l: Limited) => standingIn(looked, l);
      const failures = ofAccount ? standing(ofAccount).failures.count : 0;
      const pastThreshold = ofAccount !== undefined && failures >= ofAccount.limit;
      // Room among the remaining guesses; past the threshold the claim below decides instead.
      const counted = limited.filter((l) => l !== ofAccount || !pastThreshold);
      const busy = counted.find((l) => standing(l).failures.count + standing(l).others + 1 > l.limit);
      if (busy) {
        await store.leave(id, refs, []);
        return { admitted: false, busy };
      }
      if (pastThreshold) {
        // One try at a time past the threshold: it claims the wait for as long as its next step.
        const [claim] = await store.take([
          waitOf(ofAccount.policy, ofAccount.ref, waitSeconds(s, failures + 1 - ofAccount.limit)),
        ]);
        if (claim.count > 1) refuse({ of: ofAccount, count: claim });
        claimed = true;
      }
      const spare =
        !pastThreshold && counted.every((l) => standing(l).failures.count + standing(l).others + 2 <= l.limit);
      return { admitted: true, spare };
    };

    // A subject that was refusing a moment ago most likely still is: one look, nothing announced.
    if (turns.likelyRefused(turnKeys)) {
      const refusal = refusalOf(await store.look(refs, waitRef ? [waitRef] : []));
      if (refusal) refuse(refusal);
    }

    // Behind tries already waiting on one of its subjects, a try joins the line without looking.
    let busy = turns.waiting(turnKeys);
    for (let waited = false; ; waited = true) {
      if (busy !== undefined && !(await turns.room(busy, waited))) {
        // No room while tries are checked, and the line stalled or is full.
        throw rateLimited(BUSY_MESSAGE, 1, limited[turnKeys.indexOf(busy)].ref.key);
      }
      const admission = await turns.exclusive(turnKeys, admit).catch((error: unknown) => {
        // Refused: the next in line looks for itself (it may count other subjects).
        turns.next(turnKeys);
        throw error;
      });
      if (admission.admitted) {
        if (admission.spare) turns.next(turnKeys);
        else turns.moved(turnKeys);
        break;
      }
      busy = countKey(admission.busy.ref);
    }

    let ended = false;
    const once =
      <T>(end: () => Promise<T>, otherwise: T) =>
      async (): Promise<T> => {
        if (ended) return otherwise;
        ended = true;
        try {
          return await end();
        } finally {
          turns.next(turnKeys);
        }
      };
    // The store has logged what it could not do; a place not given back ends with its lease.
    const quietly = (work: Promise<void>) => work.catch(() => undefined);
    return {
      succeeded: once(
        () => quietly(store.leave(id, refs, ofAccount ? [ofAccount.ref, ofAccount.wait] : [])),
        undefined,
      ),
      failed: once(
        async () => {
          const wait = ofAccount && {
            of: ofAccount.ref,
            wait: ofAccount.wait,
            threshold: ofAccount.limit,
            stepSeconds: s.limits.signInWaitSeconds,
            maxSeconds: s.limits.signInMaxWaitSeconds,
          };
          const counts = await store.fail(id, refs, wait);
          return { tripped: ofAccount !== undefined && counts[0].count === ofAccount.limit };
        },
        { tripped: false },
      ),
      abandoned: once(() => quietly(store.leave(id, refs, claimed && ofAccount ? [ofAccount.wait] : [])), undefined),
    };
  };
}
