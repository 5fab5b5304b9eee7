import { Counter, Histogram } from "prom-client";
import { HOOK_KINDS } from "../domain/hooks.js";
import { registry } from "./registry.js";

const hookCalls = new Histogram({
  name: "gatehouse_hook_duration_seconds",
  help: "Calls of projects' synchronous hooks, by kind (before_user_created, custom_access_token) and outcome (ok, failed).",
  labelNames: ["kind", "outcome"] as const,
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2],
  registers: [registry],
});

const hookRefusals = new Counter({
  name: "gatehouse_hook_refused_total",
  help: "Hook calls not made because the project's calls already waiting on this instance reached HOOK_MAX_IN_FLIGHT, by kind; each fails under the hook's policy.",
  labelNames: ["kind"] as const,
  registers: [registry],
});
// Exported at 0 from the start: a refusal is rare, and a series that appears only after the
// first would leave rate() and alerts on it with nothing to read until then.
for (const kind of HOOK_KINDS) hookRefusals.labels({ kind }).inc(0);

const webhookAttempts = new Histogram({
  name: "gatehouse_webhook_attempt_duration_seconds",
  help: "Webhook delivery attempts, by outcome (succeeded, failed).",
  labelNames: ["outcome"] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const webhooksDisabled = new Counter({
  name: "gatehouse_webhook_endpoints_disabled_total",
  help: "Webhook endpoints disabled because every attempt failed for 3 days.",
  registers: [registry],
});

export function observeHook(kind: string, ok: boolean, seconds: number): void {
  hookCalls.observe({ kind, outcome: ok ? "ok" : "failed" }, seconds);
}

export function countHookRefused(kind: string): void {
  hookRefusals.inc({ kind });
}

export function observeWebhookAttempt(ok: boolean, seconds: number): void {
  webhookAttempts.observe({ outcome: ok ? "succeeded" : "failed" }, seconds);
}

export function countWebhookDisabled(): void {
  webhooksDisabled.inc();
}
