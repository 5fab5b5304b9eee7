import { RateLimitedError } from "../../domain/errors.js";
import { checking, projectScope } from "../../limits/limits.js";
import { firstRefusal, rateLimitDetails, throttleKey } from "../audit/rate-limit.js";
import { recordAlone } from "../audit/record.js";
import type { FlowDeps } from "../deps.js";

/**
 * How many client addresses' worth of wrong user codes the whole project takes per window:
 * with the defaults (30 failures per address per 5 minutes) 300, about 86,000 a day. Against
 * the 20^8 user codes (about 2.6 × 10^10) of the ten minutes a device code lives, that keeps
 * the chance of guessing any of 10 codes open at once about 1 in 30,000 a day, however many
 * addresses guess. The price: guessers with 10 addresses can make the project's code entry
 * wait out the window, as a flood of wrong passwords can make one account wait.
 */
export const USER_CODE_ADDRESSES_PER_PROJECT = 10;

/** The project's user-code entry as one challenge, so its wrong codes are counted together. */
const PROJECT_WIDE = "oauth device user code entry";

/** Who typed the code, as the transport saw them (after TRUSTED_PROXIES). */
export interface UserCodeEntry {
  ip: string;
  userAgent: string;
}

/**
 * The device page's answer when a limit refuses a user code before it is looked up: the engine
 * draws its code entry page again with this error (engine-pages.ts, 429 with Retry-After).
 * `expose`, `status` and `statusCode` are what the engine's error handler reads of an error.
 */
export class UserCodeEntryLimited extends Error {
  readonly expose = true;
  readonly status = 429;
  readonly statusCode = 429;

  constructor(readonly retryAfterSeconds: number) {
    super("rate_limited");
    this.name = "UserCodeEntryLimited";
  }
}

/** Looks a user code up under the limits; the engine's only use of a code a person typed. */
export type UserCodeLookup = <T>(entry: UserCodeEntry, lookup: () => Promise<T | undefined>) => Promise<T | undefined>;

/**
 * RFC 8628 section 5.1: a user code is short enough to type, so its entry is limited as every
 * other code is. A lookup takes a try from the client address (the project's failures per
 * address, shared with wrong passwords, codes and links: one budget per guesser) and from the
 * project's user-code entry as a whole (USER_CODE_ADDRESSES_PER_PROJECT addresses' worth); a
 * code found gives its try back, a wrong one keeps it. Over either limit the code is not looked
 * up at all, so a right code is refused too until the wait ends: a guesser learns nothing
 * from the answer. The first refusal of each limit and wait is audited.
 */
export function userCodeLookup(deps: Pick<FlowDeps, "db" | "logger" | "limits">, projectId: string): UserCodeLookup {
  return async (entry, lookup) => {
    // Read again: the engine that asks was built with the project as it was then.
    const project = await deps.db.repos.projects.getByIdForFlow(projectId);
    if (!project) return undefined;
    const scope = projectScope(project);
    const limits = {
      ...scope.limits,
      verifyAttemptsPerChallenge: USER_CODE_ADDRESSES_PER_PROJECT * scope.limits.failuresPerIp,
    };
    let attempt;
    try {
      attempt = await deps.limits.beginVerify({ ...scope, limits }, { challenge: PROJECT_WIDE }, entry.ip);
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error;
      if (
        await firstRefusal(
          deps,
          throttleKey(error, () => PROJECT_WIDE),
          error,
        )
      )
        await recordAlone(deps, {
          type: "rate_limit.exceeded",
          organizationId: project.organizationId,
          projectId: project.id,
          reason: error.reason,
          details: { endpoint: "oauth/device", ...rateLimitDetails(error) },
          origin: { actor: { type: "anonymous", id: "" }, ip: entry.ip, userAgent: entry.userAgent },
        });
      throw new UserCodeEntryLimited(error.retryAfterSeconds ?? 1);
    }
    const found = await checking(attempt, lookup);
    if (found === undefined) await attempt.failed();
    else await attempt.succeeded();
    return found;
  };
}
