import type { Project } from "../../domain/account.js";
import { withoutBidiControls } from "../../domain/bidi.js";
import { DomainError } from "../../domain/errors.js";
import type { Repositories } from "../../store/database.js";
import type { FlowDeps } from "../deps.js";
import { hookUnavailable } from "./hook-runner.js";
import { askHook } from "./hooked-transaction.js";

/** How a user is being created: a public method, or the administrator's paths. */
export type CreationPath = "password" | "otp" | "magic_link" | "sso" | "admin" | "invite" | "import";

/** The user about to be created, as the hook sees it: no password, hash or code. */
export interface Candidate {
  email: string;
  phone: string | null;
  emailVerified: boolean;
  metadata: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
}

/** What a refusal may show the user: one line of text that reads as it is (no bidi controls), bounded. */
const MAX_MESSAGE = 500;
const CONTROL = /[\u0000-\u001f\u007f]/g;

/**
 * Asks the project's before_user_created hook, if it has one, before anything is written.
 * `deny` is SIGNUP_REFUSED_BY_HOOK with the hook's message; a hook that fails refuses under
 * `closed` (SERVICE_UNAVAILABLE) and is ignored under `open`. Inside a transaction, only one
 * opened by hookedTransaction: the call is made between its rounds, with no connection held.
 */
export async function askBeforeUserCreated(
  deps: Pick<FlowDeps, "db" | "hooks">,
  repos: Repositories,
  project: Project,
  candidate: Candidate,
  path: CreationPath,
): Promise<void> {
  const hook = await deps.hooks.find(repos, project.id, "before_user_created");
  if (!hook) return;
  const result = await askHook(deps, repos, project, hook, {
    type: "before_user_created",
    project_id: project.id,
    method: path,
    user: {
      email: candidate.email,
      phone: candidate.phone ?? "",
      email_verified: candidate.emailVerified,
      metadata: candidate.metadata,
      app_metadata: candidate.appMetadata ?? {},
    },
  });
  if (!result.ok) {
    if (hook.failurePolicy === "closed") throw hookUnavailable("before_user_created");
    return;
  }
  const { decision, message } = result.answer;
  if (decision === "allow") return;
  if (decision === "deny") {
    const text =
      typeof message === "string"
        ? withoutBidiControls(message).replace(CONTROL, " ").trim().slice(0, MAX_MESSAGE)
        : "";
    throw new DomainError("SIGNUP_REFUSED_BY_HOOK", text || "this signup was refused");
  }
  await deps.hooks.report(project, hook, `the answer's decision is neither "allow" nor "deny"`);
  if (hook.failurePolicy === "closed") throw hookUnavailable("before_user_created");
}
