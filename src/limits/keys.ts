import type { CodeHasher } from "../crypto/one-time-codes.js";
import type { RateLimits } from "../domain/rate-limits.js";
import type { CountRef } from "./store.js";

/** Whose limits apply: a project's, or the Account interface's (members), which has the defaults. */
export interface LimitScope {
  id: string;
  limits: RateLimits;
}

/** How the limits name what they count, shared by the tries (tries.ts) and the sends (sends.ts). */
export interface LimitKeys {
  /** A key of the scope for a value of one kind (an account, a challenge, a destination). */
  key(scope: LimitScope, what: string, value: string): string;
  /** A key of the scope for a client address, by its subject (an IPv6 address by its network). */
  ipKey(scope: LimitScope, what: string, ip: string): string;
}

export function limitKeys(codes: CodeHasher, subjectOf: (ip: string) => string): LimitKeys {
  // Keys are HMACs under the service secret: the store holds no email, number, address or token.
  const key = (scope: LimitScope, what: string, value: string) =>
    `${scope.id}:${codes.hmac(`rate-limit:${what}`, value).slice(0, 32)}`;
  return { key, ipKey: (scope, what, ip) => key(scope, what, subjectOf(ip)) };
}

export const countRef = (counter: string, windowSeconds: number, key: string): CountRef => ({
  counter,
  windowSeconds,
  key,
});
