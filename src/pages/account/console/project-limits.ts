// A project's sixteen rate limits (RateLimits in account.proto, docs/security.md "Rate limits"),
// in three groups by what they count: one account's failures, what one IP address, code or
// session may do per window, and the emails and SMS a project sends per send window. Each
// control is named `rate_limits.<field>`, as a violation names it, and carries the API's bounds.
import type { RateLimits } from "../../../../gen/gatehouse/account/v1/projects_pb.js";
import { t } from "../../shared/words.js";
import type { ConsoleForm } from "./form.js";

type Limit = [field: string, property: Exclude<keyof RateLimits, "$typeName" | "$unknown">, words: string, max: number];

const GROUPS: Array<[legend: string, limits: Limit[]]> = [
  [
    "console.limits.accountGroup",
    [
      ["sign_in_failures_per_account", "signInFailuresPerAccount", "console.limits.signInFailures", 100],
      ["sign_in_wait_seconds", "signInWaitSeconds", "console.limits.signInWait", 3600],
      ["sign_in_max_wait_seconds", "signInMaxWaitSeconds", "console.limits.signInMaxWait", 86400],
      ["mfa_failures_per_account", "mfaFailuresPerAccount", "console.limits.mfaFailures", 100],
    ],
  ],
  [
    "console.limits.windowGroup",
    [
      ["failures_per_ip", "failuresPerIp", "console.limits.failuresPerIp", 100000],
      ["signups_per_ip", "signupsPerIp", "console.limits.signupsPerIp", 100000],
      ["sends_per_ip", "sendsPerIp", "console.limits.sendsPerIp", 100000],
      ["verify_attempts_per_challenge", "verifyAttemptsPerChallenge", "console.limits.verifyAttempts", 1000],
      ["refreshes_per_session", "refreshesPerSession", "console.limits.refreshesPerSession", 100000],
      ["window_seconds", "windowSeconds", "console.limits.windowSeconds", 86400],
    ],
  ],
  [
    "console.limits.sendGroup",
    [
      ["sends_per_destination", "sendsPerDestination", "console.limits.sendsPerDestination", 1000],
      ["sends_per_project", "sendsPerProject", "console.limits.sendsPerProject", 10000000],
      ["first_contact_sends_per_project", "firstContactSendsPerProject", "console.limits.firstContactSends", 10000000],
      ["first_contact_sms_per_country", "firstContactSmsPerCountry", "console.limits.firstContactSms", 100000],
      ["send_window_seconds", "sendWindowSeconds", "console.limits.sendWindowSeconds", 86400],
      ["sms_per_destination_per_day", "smsPerDestinationPerDay", "console.limits.smsPerNumberPerDay", 1000],
    ],
  ],
];

/** The limits' fieldsets, filled with the values in force. */
export function limitGroups(form: ConsoleForm, limits: RateLimits | undefined): HTMLFieldSetElement[] {
  const current = limits as unknown as Record<string, number | undefined> | undefined;
  return GROUPS.map(([legend, fields]) =>
    form.group(
      t(legend),
      ...fields.map(([field, property, words, max]) =>
        form.text(`rate_limits.${field}`, t(words), {
          type: "number",
          min: 1,
          max,
          value: current?.[property] === undefined ? "" : String(current[property]),
        }),
      ),
    ),
  );
}

/** The limits as typed (an emptied field is left out, so it keeps its value). */
export function limitsOf(form: ConsoleForm): Record<string, number> {
  const limits: Record<string, number> = {};
  for (const [, fields] of GROUPS) {
    for (const [field, property] of fields) {
      const value = form.number(`rate_limits.${field}`);
      if (value !== undefined) limits[property] = value;
    }
  }
  return limits;
}
