import type { CodeHasher } from "../crypto/one-time-codes.js";
import type { Project } from "../domain/account.js";
import { rateLimited } from "../domain/errors.js";
import { effectiveRateLimits, RATE_LIMIT_DEFAULTS, type RateLimits } from "./settings.js";
import type { Count, Counter, LimiterStore } from "./store.js";
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

/** What the check before a password told the outcome that follows it. */
export interface SignInTicket {
  accountFailures: number;
}

export type SendKind = "otp" | "magic_link" | "password_reset" | "verification" | "invitation" | "mfa_sms";

export interface Limits {
  /** Before the password is checked: RATE_LIMITED while the IP address or the account must wait. */
  beforeSignIn(scope: LimitScope, account: string, ip: string): Promise<SignInTicket>;
  /** A wrong password (or unknown account): counted for the IP and the account; may start a wait. */
  signInFailed(scope: LimitScope, account: string, ip: string): Promise<void>;
  /** The right password: the account's consecutive failures are forgotten (the IP's are not). */
  signInSucceeded(scope: LimitScope, account: string, ticket: SignInTicket): Promise<void>;
  /** Before a code, link or MFA check: RATE_LIMITED for a blocked IP or a challenge failed too often. */
  beforeVerify(scope: LimitScope, challenge: string | undefined, ip: string): Promise<void>;
  /** A wrong code, link or MFA answer: counted against the IP and the challenge. */
  verifyFailed(scope: LimitScope, ip: string, challenge?: string): Promise<void>;
  /**
   * Counts a mail or SMS. RATE_LIMITED when the IP address or the project is over its limit;
   * over the destination's limit, RATE_LIMITED too unless `overDestination` is "drop": then
   * false, and the caller answers as usual without sending (where answering differently
   * would tell whether the address is registered).
   */
  send(scope: LimitScope, kind: SendKind, destination: string, ip: string, overDestination: "reject" | "drop"): Promise<boolean>;
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

export function createLimits(store: LimiterStore, codes: CodeHasher, subjectOf = ipSubject(DEFAULT_IPV6_PREFIX)): Limits {
  // Keys are HMACs under the service secret: the store holds no email, number, address or token.
  const key = (scope: LimitScope, what: string, value: string) => `${scope.id}:${codes.hmac(`rate-limit:${what}`, value).slice(0, 32)}`;
  // Each read names the counter that writes it, so one round trip can read several (peekMany).
  // A client address counts by its subject: an IPv6 address by its network (ip-subject.ts).
  const ipKey = (scope: LimitScope, what: string, ip: string) => key(scope, what, subjectOf(ip));
  const ipFailures = (s: LimitScope, ip: string) => ({ counter: "fail_ip", windowSeconds: s.limits.windowSeconds, key: ipKey(s, "ip", ip) });
  const accountFailures = (s: LimitScope, account: string) => ({ counter: "fail_account", windowSeconds: FAILURE_MEMORY_SECONDS, key: key(s, "account", account) });
  const challengeFailures = (s: LimitScope, challenge: string) => ({ counter: "verify_challenge", windowSeconds: s.limits.windowSeconds, key: key(s, "challenge", challenge) });
  const hit = (read: { counter: string; windowSeconds: number; key: string }) => store.counter(read.counter, read.windowSeconds).hit(read.key);
  // Its window is never used: every write is a set() with the wait's own length.
  const waits = () => store.counter("wait_account", FAILURE_MEMORY_SECONDS);

  const refuseIp = (s: LimitScope, failures: Count, ip: string) => {
    if (failures.count >= s.limits.failuresPerIp) {
      throw rateLimited("too many failed attempts from this address; try again later", failures.msBeforeReset / 1000, ipKey(s, "ip", ip));
    }
  };
  const over = (counter: Counter, k: string, limit: number, message: string) =>
    counter.hit(k).then((c) => {
      if (c.count > limit) throw rateLimited(message, c.msBeforeReset / 1000, k);
      return c;
    });

  return {
    store: store.kind,
    close: () => store.close(),

    async beforeSignIn(s, account, ip) {
      const ofAccountRead = accountFailures(s, account);
      const [fromIp, ofAccount] = await store.peekMany([ipFailures(s, ip), ofAccountRead]);
      refuseIp(s, fromIp, ip);
      if (ofAccount.count >= s.limits.signInFailuresPerAccount) {
        const wait = await waits().peek(ofAccountRead.key);
        if (wait.count > 0) {
          throw rateLimited("too many failed sign-ins for this account; wait before trying again", wait.msBeforeReset / 1000, ofAccountRead.key);
        }
      }
      return { accountFailures: ofAccount.count };
    },

    async signInFailed(s, account, ip) {
      const ofAccountRead = accountFailures(s, account);
      const [, failures] = await Promise.all([hit(ipFailures(s, ip)), hit(ofAccountRead)]);
      const beyond = failures.count - s.limits.signInFailuresPerAccount;
      if (beyond < 0) return;
      // Keycloak's progression: each failure past the threshold waits one step longer, up to the cap.
      const seconds = Math.min(s.limits.signInMaxWaitSeconds, s.limits.signInWaitSeconds * (beyond + 1));
      await waits().set(ofAccountRead.key, 1, seconds);
    },

    async signInSucceeded(s, account, ticket) {
      if (ticket.accountFailures === 0) return;
      const read = accountFailures(s, account);
      await Promise.all([store.counter(read.counter, read.windowSeconds).reset(read.key), waits().reset(read.key)]);
    },

    async beforeVerify(s, challenge, ip) {
      if (challenge === undefined) return refuseIp(s, (await store.peekMany([ipFailures(s, ip)]))[0], ip);
      const [fromIp, ofChallenge] = await store.peekMany([ipFailures(s, ip), challengeFailures(s, challenge)]);
      refuseIp(s, fromIp, ip);
      // Failures only: a spent or replaced code keeps answering as such, not as a limit.
      if (ofChallenge.count >= s.limits.verifyAttemptsPerChallenge) {
        throw rateLimited("too many wrong attempts for this code; wait before trying again", ofChallenge.msBeforeReset / 1000, key(s, "challenge", challenge));
      }
    },

    async verifyFailed(s, ip, challenge) {
      await Promise.all([hit(ipFailures(s, ip)), challenge === undefined ? undefined : hit(challengeFailures(s, challenge))]);
    },

    async send(s, kind, destination, ip, overDestination) {
      const { limits } = s;
      await over(store.counter("send_ip", limits.windowSeconds), ipKey(s, "send_ip", ip), limits.sendsPerIp, "too many messages asked for from this address; try again later");
      await over(store.counter("send_project", limits.sendWindowSeconds), s.id, limits.sendsPerProject, "this project has sent too many messages; try again later");
      const perDestination = await store.counter("send_destination", limits.sendWindowSeconds).hit(key(s, "send", destination));
      if (perDestination.count <= limits.sendsPerDestination) return true;
      if (overDestination === "drop") return false;
      throw rateLimited("too many messages were sent to this destination; try again later", perDestination.msBeforeReset / 1000, key(s, "send", destination));
    },

    async refresh(s, sessionId) {
      await over(store.counter("refresh_session", s.limits.windowSeconds), key(s, "session", sessionId), s.limits.refreshesPerSession, "this session is refreshed too often; wait before trying again");
    },

    async signup(s, ip) {
      await over(store.counter("signup_ip", s.limits.windowSeconds), ipKey(s, "signup_ip", ip), s.limits.signupsPerIp, "too many signups from this address; try again later");
    },

    async firstRefusal(limitedKey, seconds) {
      // The counter's own window is never used: every hit brings the refusal's wait.
      return (await store.counter("refused", FAILURE_MEMORY_SECONDS).hitFor(limitedKey, seconds)).count === 1;
    },
  };
}
