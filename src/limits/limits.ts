import type { CodeHasher } from "../crypto/one-time-codes.js";
import type { Project } from "../domain/account.js";
import { rateLimited } from "../domain/errors.js";
import { effectiveRateLimits, RATE_LIMIT_DEFAULTS, type RateLimits } from "./settings.js";
import { callingCodeOf } from "../domain/sms-destinations.js";
import type { Count, CountRef, Counter, LimiterStore } from "./store.js";
import { DEFAULT_IPV6_PREFIX, ipSubject } from "./ip-subject.js";

/**
 * Keycloak's failure reset time: consecutive failures of an account are forgotten 12 hours
 * after the first of them, if no success forgot them earlier.
 */
export const FAILURE_MEMORY_SECONDS = 12 * 3600;

/** Whose limits apply: a project's, or the Account interface's (members), which has the defaults. */
export interface LimitScope {
  id: string;
  limits: RateLimits;
}

export const ACCOUNT_SCOPE: LimitScope = { id: "account", limits: RATE_LIMIT_DEFAULTS };

/** An organization's own sends (invitations), with the defaults. */
export function organizationScope(organizationId: string): LimitScope {
  return { id: organizationId, limits: RATE_LIMIT_DEFAULTS };
}

export function projectScope(project: Project): LimitScope {
  return { id: project.id, limits: effectiveRateLimits(project.rateLimits) };
}

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

export type SendKind =
  "otp" | "magic_link" | "password_reset" | "verification" | "invitation" | "mfa_sms" | "signup_notice";

/** A mail or SMS about to be queued. */
export interface SendRequest {
  kind: SendKind;
  channel: "email" | "sms";
  /** The canonical address (normalized email) or the E.164 number. */
  destination: string;
  /** Whether the address or number is a user's (a member's, on the Account interface); else a first contact. */
  known: boolean;
  /**
   * Over a limit of the destination: refuse (RATE_LIMITED) or answer as usual without sending
   * (where a different answer would tell whether the address is registered).
   */
  overDestination: "reject" | "drop";
}

/** A send budget of the project that a send found spent: the caller alerts the admins. */
export interface BudgetReached {
  budget: "users" | "first_contact" | "first_contact_country";
  /** The calling code, for `first_contact_country`. */
  country?: string;
  limit: number;
  /** The budget's key in the store and its window, so the alert is raised once per window. */
  key: string;
  retryAfterSeconds: number;
}

/** Whether to queue the message; when not, the budget that stopped it, if one did. */
export type SendVerdict = { send: true } | { send: false; budgetReached?: BudgetReached };

export interface Limits {
  /**
   * Before a password is checked (end user or member): takes a try from the client address
   * and the account. RATE_LIMITED while either must wait; the right password waits too.
   */
  beginSignIn(scope: LimitScope, account: string, ip: string): Promise<Attempt>;
  /**
   * Before a code, link or second factor is checked: takes a try from the client address, the
   * challenge (a code or mfa_token) and, for a second factor, its user (`secondFactorOf`),
   * whose wrong answers count across challenges as wrong passwords count for an email.
   */
  beginVerify(
    scope: LimitScope,
    subject: { challenge?: string; secondFactorOf?: string },
    ip: string,
  ): Promise<Attempt>;
  /** Counts a request for a mail or SMS from the client address: RATE_LIMITED over its limit. */
  sendRequested(scope: LimitScope, ip: string): Promise<void>;
  /**
   * Counts a mail or SMS against the destination and the project's budget for its kind of
   * destination (users' or first contacts'). Over a limit of the destination: RATE_LIMITED
   * (overDestination "reject") or not sent. A spent budget never refuses: the answer stays the
   * same and nothing is sent, since a refusal for one kind of destination only would tell
   * whether an address is registered. A send refused by one count takes nothing from the others.
   * `only` counts one of the two, for a flow that counts the destination when it answers and
   * the budget later, once it knows a message goes out (a password reset).
   */
  send(scope: LimitScope, request: SendRequest, only?: "destination" | "budget"): Promise<SendVerdict>;
  /** Counts a refresh of the session. */
  refresh(scope: LimitScope, sessionId: string): Promise<void>;
  /** Counts a signup from the IP address. */
  signup(scope: LimitScope, ip: string): Promise<void>;
  /** Which store holds the counts. */
  store: LimiterStore["kind"];
  close(): Promise<void>;
  /**
   * Counts a refusal of a limited key (RateLimitedError.limitedKey) for `seconds`, its
   * Retry-After: true for the first refusal of the key in that wait, so the audit log records
   * a flood of refusals once.
   */
  firstRefusal(limitedKey: string, seconds: number): Promise<boolean>;
}

/** The consecutive failures of one account (an email's passwords, a user's second factors) and their waits. */
interface FailurePolicy {
  /** The counter of failures, and its key's kind. */
  counter: string;
  subject: string;
  /** The counter of waits: a key present is a wait running (ours, so a success forgets it with the failures). */
  waits: string;
  threshold(limits: RateLimits): number;
  message: string;
}

const PASSWORDS: FailurePolicy = {
  counter: "fail_account",
  subject: "account",
  waits: "wait_account",
  threshold: (l) => l.signInFailuresPerAccount,
  message: "too many failed sign-ins for this account; wait before trying again",
};

const SECOND_FACTORS: FailurePolicy = {
  counter: "fail_mfa",
  subject: "mfa_account",
  waits: "wait_mfa",
  threshold: (l) => l.mfaFailuresPerAccount,
  message: "too many wrong second factors for this account; wait before trying again",
};

const DAY_SECONDS = 86_400;

export function createLimits(
  store: LimiterStore,
  codes: CodeHasher,
  subjectOf = ipSubject(DEFAULT_IPV6_PREFIX),
): Limits {
  // Keys are HMACs under the service secret: the store holds no email, number, address or token.
  const key = (scope: LimitScope, what: string, value: string) =>
    `${scope.id}:${codes.hmac(`rate-limit:${what}`, value).slice(0, 32)}`;
  // A client address counts by its subject: an IPv6 address by its network (ip-subject.ts).
  const ipKey = (scope: LimitScope, what: string, ip: string) => key(scope, what, subjectOf(ip));
  const ref = (counter: string, windowSeconds: number, k: string): CountRef => ({ counter, windowSeconds, key: k });
  const ipFailures = (s: LimitScope, ip: string) => ref("fail_ip", s.limits.windowSeconds, ipKey(s, "ip", ip));
  const challengeFailures = (s: LimitScope, challenge: string) =>
    ref("verify_challenge", s.limits.windowSeconds, key(s, "challenge", challenge));
  const accountFailures = (s: LimitScope, policy: FailurePolicy, account: string) =>
    ref(policy.counter, FAILURE_MEMORY_SECONDS, key(s, policy.subject, account));
  // Its window is the wait's length; forgetting it needs the key only.
  const waitOf = (policy: FailurePolicy, failures: CountRef, seconds = FAILURE_MEMORY_SECONDS) =>
    ref(policy.waits, seconds, failures.key);
  // Keycloak's progression: each failure past the threshold waits one step longer, up to the cap.
  const waitSeconds = (s: LimitScope, beyond: number) =>
    Math.min(s.limits.signInMaxWaitSeconds, s.limits.signInWaitSeconds * (beyond + 1));

  const over = (counter: Counter, k: string, limit: number, message: string) =>
    counter.hit(k).then((c) => {
      if (c.count > limit) throw rateLimited(message, c.msBeforeReset / 1000, k);
      return c;
    });

  /**
   * Takes one try from each count at once, then refuses, giving the try back, when the address
   * or challenge is over its limit or the account must wait. An account at or past its
   * threshold may try only with a wait of its own claimed in the store (one at a time, across
   * instances); a wrong answer then turns the claim into the wait the progression asks for.
   */
  async function begin(
    s: LimitScope,
    ip: string,
    challenge: string | undefined,
    account: { policy: FailurePolicy; id: string } | undefined,
  ): Promise<Attempt> {
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
  }

  return {
    store: store.kind,
    close: () => store.close(),

    beginSignIn: (s, account, ip) => begin(s, ip, undefined, { policy: PASSWORDS, id: account }),

    beginVerify: (s, subject, ip) =>
      begin(
        s,
        ip,
        subject.challenge,
        subject.secondFactorOf === undefined ? undefined : { policy: SECOND_FACTORS, id: subject.secondFactorOf },
      ),

    async sendRequested(s, ip) {
      await over(
        store.counter("send_ip", s.limits.windowSeconds),
        ipKey(s, "send_ip", ip),
        s.limits.sendsPerIp,
        "too many messages asked for from this address; try again later",
      );
    },

    async send(s, request, only) {
      const { limits } = s;
      const destination = `${request.channel}:${request.destination}`;
      const perDestination: Array<[CountRef, number, string]> = [];
      if (only !== "budget") {
        perDestination.push([
          ref("send_destination", limits.sendWindowSeconds, key(s, "send", destination)),
          limits.sendsPerDestination,
          "too many messages were sent to this destination; try again later",
        ]);
      }
      if (request.channel === "sms" && only !== "budget") {
        // One a minute is each kind's own rule, on the service's clock (a code's resend
        // interval, an enrollment's); the day's cap counts every kind.
        perDestination.push([
          ref("sms_day", DAY_SECONDS, key(s, "sms_day", request.destination)),
          limits.smsPerDestinationPerDay,
          "this number got as many SMS as it may today; try again tomorrow",
        ]);
      }
      const budgets: Array<[CountRef, number, BudgetReached["budget"], string?]> = [];
      if (only === "destination") {
        // no budget: counted once the message is known to go out
      } else if (request.known) {
        budgets.push([ref("send_project", limits.sendWindowSeconds, s.id), limits.sendsPerProject, "users"]);
      } else {
        budgets.push([
          ref("send_first_contact", limits.sendWindowSeconds, s.id),
          limits.firstContactSendsPerProject,
          "first_contact",
        ]);
        if (request.channel === "sms") {
          const country = callingCodeOf(request.destination);
          budgets.push([
            ref("send_first_contact_country", limits.sendWindowSeconds, `${s.id}:${country}`),
            limits.firstContactSmsPerCountry,
            "first_contact_country",
            country,
          ]);
        }
      }
      const refs = [...perDestination.map(([r]) => r), ...budgets.map(([r]) => r)];
      const counts = await store.take(refs);
      const overDestination = perDestination.findIndex(([, limit], i) => counts[i]!.count > limit);
      if (overDestination >= 0) {
        await store.giveBack(refs);
        if (request.overDestination === "drop") return { send: false };
        const [r, , message] = perDestination[overDestination]!;
        throw rateLimited(message, counts[overDestination]!.msBeforeReset / 1000, r.key);
      }
      const spent = budgets.findIndex(([, limit], i) => counts[perDestination.length + i]!.count > limit);
      if (spent < 0) return { send: true };
      await store.giveBack(refs);
      const [r, limit, budget, country] = budgets[spent]!;
      const count = counts[perDestination.length + spent]!;
      return {
        send: false,
        budgetReached: {
          budget,
          country,
          limit,
          key: `${r.counter}:${r.key}`,
          retryAfterSeconds: Math.max(1, Math.ceil(count.msBeforeReset / 1000)),
        },
      };
    },

    async refresh(s, sessionId) {
      await over(
        store.counter("refresh_session", s.limits.windowSeconds),
        key(s, "session", sessionId),
        s.limits.refreshesPerSession,
        "this session is refreshed too often; wait before trying again",
      );
    },

    async signup(s, ip) {
      await over(
        store.counter("signup_ip", s.limits.windowSeconds),
        ipKey(s, "signup_ip", ip),
        s.limits.signupsPerIp,
        "too many signups from this address; try again later",
      );
    },

    async firstRefusal(limitedKey, seconds) {
      // The counter's own window is never used: every hit brings the refusal's wait.
      return (await store.counter("refused", FAILURE_MEMORY_SECONDS).hitFor(limitedKey, seconds)).count === 1;
    },
  };
}
