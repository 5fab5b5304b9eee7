import { Counter } from "prom-client";
import { registry } from "./registry.js";

export type BotCheckOutcome = "passed" | "missing" | "invalid" | "expired" | "replayed";

const botChecks = new Counter({
  name: "gatehouse_bot_checks_total",
  help: "Bot checks of public sends and signups in projects with bot_protection, by RPC and outcome: passed, or why the request was refused BOT_CHECK_FAILED (missing, invalid, expired, replayed).",
  labelNames: ["rpc", "outcome"] as const,
  registers: [registry],
});

/** `rpc` is the method's name (SendOtp), one of the four that carry bot_proof. */
export function countBotCheck(rpc: string, outcome: BotCheckOutcome): void {
  botChecks.inc({ rpc, outcome });
}
