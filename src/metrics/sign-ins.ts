import { signIns } from "./registry.js";

const labels = new Map<string, { method: string; outcome: string }>();

/**
 * One end-user sign-in attempt, by the method of its first factor: `succeeded` or `signed_up`
 * when its session is written, `mfa_required` when the first factor held and a challenge was
 * answered instead of tokens, or the reason of a failure in lower case. Methods and reasons are
 * the flows' own fixed sets.
 */
export function countSignIn(method: string, outcome: string): void {
  const key = `${method}\u0000${outcome}`;
  let found = labels.get(key);
  if (!found) labels.set(key, (found = { method, outcome }));
  signIns.inc(found);
}

/** Whether a sign-in's answer is an MFA challenge in place of tokens (`{challenge}` or `{outcome: {challenge}}`). */
export function isChallenge(result: unknown): boolean {
  const outcome = (result as { outcome?: unknown } | null)?.outcome ?? result;
  return Boolean((outcome as { challenge?: unknown } | null)?.challenge);
}
