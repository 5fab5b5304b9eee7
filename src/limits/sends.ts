import { rateLimited } from "../domain/errors.js";
import { callingCodeOf } from "../domain/sms-destinations.js";
import { countRef, type LimitKeys, type LimitScope } from "./keys.js";
import type { CountRef, LimiterStore } from "./store.js";

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

/** Which counts a send takes: both, or one of them (`Limits.send` says when). */
export type SendCounts = "destination" | "budget" | undefined;

const DAY_SECONDS = 86_400;

/**
 * Counts a mail or SMS against its destination's limits and the project's budget for its kind
 * of destination, all at once; a send refused by one count takes nothing from the others.
 */
export function sends(
  store: LimiterStore,
  { key }: LimitKeys,
): (s: LimitScope, request: SendRequest, only: SendCounts) => Promise<SendVerdict> {
  return async function send(s, request, only) {
    const { limits } = s;
    const destination = `${request.channel}:${request.destination}`;
    const perDestination: Array<[CountRef, number, string]> = [];
    if (only !== "budget") {
      perDestination.push([
        countRef("send_destination", limits.sendWindowSeconds, key(s, "send", destination)),
        limits.sendsPerDestination,
        "too many messages were sent to this destination; try again later",
      ]);
    }
    if (request.channel === "sms" && only !== "budget") {
      // One a minute is each kind's own rule, on the service's clock (a code's resend
      // interval, an enrollment's); the day's cap counts every kind.
      perDestination.push([
        countRef("sms_day", DAY_SECONDS, key(s, "sms_day", request.destination)),
        limits.smsPerDestinationPerDay,
        "this number got as many SMS as it may today; try again tomorrow",
      ]);
    }
    const budgets: Array<[CountRef, number, BudgetReached["budget"], string?]> = [];
    if (only === "destination") {
      // no budget: counted once the message is known to go out
    } else if (request.known) {
      budgets.push([countRef("send_project", limits.sendWindowSeconds, s.id), limits.sendsPerProject, "users"]);
    } else {
      budgets.push([
        countRef("send_first_contact", limits.sendWindowSeconds, s.id),
        limits.firstContactSendsPerProject,
        "first_contact",
      ]);
      if (request.channel === "sms") {
        const country = callingCodeOf(request.destination);
        budgets.push([
          countRef("send_first_contact_country", limits.sendWindowSeconds, `${s.id}:${country}`),
          limits.firstContactSmsPerCountry,
          "first_contact_country",
          country,
        ]);
      }
    }
    const refs = [...perDestination.map(([r]) => r), ...budgets.map(([r]) => r)];
    const counts = await store.take(refs);
    const overDestination = perDestination.findIndex(([, limit], i) => counts[i].count > limit);
    if (overDestination >= 0) {
      await store.giveBack(refs);
      if (request.overDestination === "drop") return { send: false };
      const [r, , message] = perDestination[overDestination];
      throw rateLimited(message, counts[overDestination].msBeforeReset / 1000, r.key);
    }
    const spent = budgets.findIndex(([, limit], i) => counts[perDestination.length + i].count > limit);
    if (spent < 0) return { send: true };
    await store.giveBack(refs);
    const [r, limit, budget, country] = budgets[spent];
    const count = counts[perDestination.length + spent];
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
  };
}
