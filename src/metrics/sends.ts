import { Counter } from "prom-client";
import { registry } from "./registry.js";

const budgetReached = new Counter({
  name: "gatehouse_send_budget_reached_total",
  help: "Mails and SMS not sent because a project's send budget was spent, by budget (users, first_contact, first_contact_country) and channel (email, sms).",
  labelNames: ["budget", "channel"] as const,
  registers: [registry],
});

const mfaLocked = new Counter({
  name: "gatehouse_mfa_failures_exceeded_total",
  help: "Times a user's wrong second factors reached the project's mfa_failures_per_account (someone knows the password).",
  registers: [registry],
});

/** A send dropped by a spent budget; both labels are fixed sets. */
export function countBudgetReached(budget: string, channel: string): void {
  budgetReached.inc({ budget, channel });
}

export function countMfaFailuresExceeded(): void {
  mfaLocked.inc();
}
