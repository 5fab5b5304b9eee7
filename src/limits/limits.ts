import type { CodeHasher } from "../crypto/one-time-codes.js";
import type { Project } from "../domain/account.js";
import { rateLimited } from "../domain/errors.js";
import { DEFAULT_IPV6_PREFIX, ipSubject } from "./ip-subject.js";
import { limitKeys, type LimitScope } from "./keys.js";
import { sends, type SendCounts, type SendRequest, type SendVerdict } from "./sends.js";
import { effectiveRateLimits, RATE_LIMIT_DEFAULTS } from "../domain/rate-limits.js";
import type { Counter, LimiterStore } from "./store.js";
import { FAILURE_MEMORY_SECONDS, PASSWORDS, SECOND_FACTORS, tries, type Attempt } from "./tries.js";

// What the flows use of the limits, in one import.
export type { LimitScope } from "./keys.js";
export { checking, type Attempt } from "./tries.js";
export type { BudgetReached, SendKind, SendRequest, SendVerdict } from "./sends.js";

export const ACCOUNT_SCOPE: LimitScope = { id: "account", limits: RATE_LIMIT_DEFAULTS };

/** An organization's own sends (invitations), with the defaults. */
export function organizationScope(organizationId: string): LimitScope {
  return { id: organizationId, limits: RATE_LIMIT_DEFAULTS };
}

export function projectScope(project: Project): LimitScope {
  return { id: project.id, limits: effectiveRateLimits(project.rateLimits) };
}

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
  send(scope: LimitScope, request: SendRequest, only?: SendCounts): Promise<SendVerdict>;
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

export function createLimits(
  store: LimiterStore,
  codes: CodeHasher,
  subjectOf = ipSubject(DEFAULT_IPV6_PREFIX),
): Limits {
  const keys = limitKeys(codes, subjectOf);
  const { key, ipKey } = keys;
  const begin = tries(store, keys);
  // A count of one key: refused with `message` once past `limit` in the window.
  const over = (counter: Counter, k: string, limit: number, message: string) =>
    counter.hit(k).then((c) => {
      if (c.count > limit) throw rateLimited(message, c.msBeforeReset / 1000, k);
      return c;
    });

  return {
    store: store.kind,
    close: () => store.close(),

    beginSignIn: (s, account, ip) => begin(s, { ip, account: { policy: PASSWORDS, id: account } }),

    beginVerify: (s, subject, ip) =>
      begin(s, {
        ip,
        challenge: subject.challenge,
        account:
          subject.secondFactorOf === undefined ? undefined : { policy: SECOND_FACTORS, id: subject.secondFactorOf },
      }),

    async sendRequested(s, ip) {
      await over(
        store.counter("send_ip", s.limits.windowSeconds),
        ipKey(s, "send_ip", ip),
        s.limits.sendsPerIp,
        "too many messages asked for from this address; try again later",
      );
    },

    send: sends(store, keys),

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
