import type { Project } from "../../domain/account.js";
import type { Repositories } from "../../store/database.js";
import { isReservedClaim, MAX_CUSTOM_CLAIMS_BYTES } from "../../domain/hooks.js";
import type { FlowDeps } from "../deps.js";
import { hookUnavailable } from "./hook-runner.js";
import { askHook } from "./hooked-transaction.js";

/**
 * The claims the project's custom_access_token hook adds to a token about to be signed (at
 * sign-in and at refresh): `{}` without a hook. Reserved claims in the answer are dropped
 * (isReservedClaim: Gatehouse's stay as they are, the others absent); more than MAX_CUSTOM_CLAIMS_BYTES of JSON, or an answer
 * without a `claims` object, is a failure, handled by the hook's policy (open: no extra
 * claims; closed: SERVICE_UNAVAILABLE). Inside a transaction, only one opened by
 * hookedTransaction: the call is made between its rounds, with no connection held.
 */
export async function customClaims(
  deps: Pick<FlowDeps, "db" | "hooks">,
  repos: Repositories,
  project: Project,
  /** Made only when the project has the hook: the hot path of a sign-in without one builds nothing. */
  claims: () => Record<string, unknown>,
  user: { id: string; email: string; appMetadata: Record<string, unknown> },
): Promise<Record<string, unknown>> {
  const hook = await deps.hooks.find(repos, project.id, "custom_access_token");
  if (!hook) return {};
  const fail = async (why?: string) => {
    if (why) await deps.hooks.report(project, hook, why);
    if (hook.failurePolicy === "closed") throw hookUnavailable("custom_access_token");
    return {};
  };
  const result = await askHook(deps, repos, project, hook, {
    type: "custom_access_token",
    project_id: project.id,
    claims: claims(),
    user: { id: user.id, email: user.email, app_metadata: user.appMetadata },
  });
  if (!result.ok) return fail();
  const answered = result.answer.claims;
  if (typeof answered !== "object" || answered === null || Array.isArray(answered))
    return fail("the answer has no `claims` object");
  const added = Object.fromEntries(Object.entries(answered).filter(([name]) => !isReservedClaim(name)));
  if (Buffer.byteLength(JSON.stringify(added)) > MAX_CUSTOM_CLAIMS_BYTES)
    return fail(`the added claims take more than ${MAX_CUSTOM_CLAIMS_BYTES} bytes of JSON`);
  return added;
}
