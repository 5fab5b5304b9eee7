import { rateLimited } from "../domain/errors.js";
import { countRef, type LimitKeys, type LimitScope } from "./keys.js";
import type { RateLimits } from "./settings.js";
import type { Count, CountRef, LimiterStore } from "./store.js";

/**
 * Keycloak's failure reset time: consecutive failures of an account are forgotten 12 hours
 * after the first of them, if no success forgot them earlier.
 */
export const FAILURE_MEMORY_SECONDS = 12 * 3600;

/**
 * A try taken from the limits before its work (a password, a code, a link, a second factor):
 * its counts were added atomically in the store, so a burst of parallel tries gets no more
 * than the limit, on every instance. It ends one way, once.
 */
export interface Attempt {
  /** The answer was right: what the try took is given back, and the account's failures are forgotten. */
  succeeded(): Promise<void>;
  /**
   * The answer was wrong: what the try took stays counted, and the account may have to wait.
   * `tripped`: this failure brought the account's count to its threshold (the first wait).
   */
  failed(): Promise<{ tripped: boolean }>;
  /** The work broke before it had an answer: what the try took is given back. */
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

/**
 * Takes one try from each count at once, then refuses, giving the try back, when the address
 * or challenge is over its limit or the account must wait. An account at or past its
 * threshold may try only with a wait of its own claimed in the store (one at a time, across
 * instances); a wrong answer then turns the claim into the wait the progression asks for.
 */
export function tries(store: LimiterStore, keys: LimitKeys): (s: LimitScope, subject: TrySubject) => Promise<Attempt> {
  const { key, ipKey } = keys;
  const ipFailures = (s: LimitScope, ip: string) => countRef("fail_ip", s.limits.windowSeconds, ipKey(s, "ip", ip));
  const challengeFailures = (s: LimitScope, challenge: string) =>
    countRef("verify_challenge", s.limits.windowSeconds, key(s, "challenge", challenge));
  const accountFailures = (s: LimitScope, policy: FailurePolicy, account: string) =>
    countRef(policy.counter, FAILURE_MEMORY_SECONDS, key(s, policy.subject, account));
  // Its window is the wait's length; forgetting it needs the key only.
  const waitOf = (policy: FailurePolicy, failures: CountRef, seconds = FAILURE_MEMORY_SECONDS) =>
    countRef(policy.waits, seconds, failures.key);
  // Keycloak's progression: each failure past the threshold waits one step longer, up to the cap.
  const waitSeconds = (s: LimitScope, beyond: number) =>
    Math.min(s.limits.signInMaxWaitSeconds, s.limits.signInWaitSeconds * (beyond + 1));

  return async function begin(s, { ip, challenge, account }) {
    const ipRef = ipFailures(s, ip);
    const challengeRef = challenge === undefined ? undefined : challengeFailures(s, challenge);
    const accountRef = account && accountFailures(s, account.policy, account.id);
    const refs = [ipRef, challengeRef, accountRef].filter((r): r is CountRef => r !== undefined);
    const counts = await store.take(refs);
    const countOf = (r: CountRef | undefined) => (r === undefined ? undefined : counts[refs.indexOf(r)]!);
    const refuse = async (message: string, count: Count, limitedKey: string): Promise<never> => {
      await store.giveBack(refs);
      throw rateLimited(message, count.msBeforeReset / 1000, limitedKey);
    };

    const fromIp = countOf(ipRef)!;
    if (fromIp.count > s.limits.failuresPerIp)
      await refuse("too many failed attempts from this address; try again later", fromIp, ipRef.key);
    const ofChallenge = countOf(challengeRef);
    // Failures only: a spent or replaced code keeps answering as such, not as a limit.
    if (ofChallenge && ofChallenge.count > s.limits.verifyAttemptsPerChallenge) {
      await refuse("too many wrong attempts for this code; wait before trying again", ofChallenge, challengeRef!.key);
    }
    const ofAccount = countOf(accountRef);
    const threshold = account ? account.policy.threshold(s.limits) : 0;
    const waitRef = account && accountRef ? waitOf(account.policy, accountRef) : undefined;
    // The try that reaches the threshold claims the wait too, so a burst gets exactly the threshold.
    const claims = ofAccount !== undefined && ofAccount.count >= threshold;
    if (claims) {
      const [claim] = await store.take([
        waitOf(account!.policy, accountRef!, waitSeconds(s, ofAccount.count - threshold)),
      ]);
      if (claim!.count > 1) await refuse(account!.policy.message, claim, accountRef!.key);
    }

    let ended = false;
    const once =
      <T>(end: () => Promise<T>, otherwise: T) =>
      async (): Promise<T> => {
        if (ended) return otherwise;
        ended = true;
        return end();
      };
    return {
      succeeded: once(async () => {
        const kept = [ipRef, challengeRef].filter((r): r is CountRef => r !== undefined);
        await Promise.all([store.giveBack(kept), accountRef ? store.forget([accountRef, waitRef!]) : undefined]);
      }, undefined),
      failed: once(
        async () => {
          if (!ofAccount || !claims) return { tripped: false };
          const beyond = ofAccount.count - threshold;
          await store.put(waitOf(account!.policy, accountRef!, waitSeconds(s, beyond)), 1);
          return { tripped: beyond === 0 };
        },
        { tripped: false },
      ),
      abandoned: once(async () => {
        await Promise.all([store.giveBack(refs), claims ? store.forget([waitRef!]) : undefined]);
      }, undefined),
    };
  };
}
