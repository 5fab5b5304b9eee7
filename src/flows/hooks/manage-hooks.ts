import type { AuditOrigin } from "../../domain/audit.js";
import { DomainError } from "../../domain/errors.js";
import { DEFAULT_FAILURE_POLICY, type FailurePolicy, type Hook, type HookKind } from "../../domain/hooks.js";
import { isIdOf } from "../../domain/ids.js";
import { newSigningSecret } from "../../outbound/standard-webhooks.js";
import type { FlowDeps } from "../deps.js";
import { projectNotFound } from "../projects/not-found.js";
import { throwIfAny, urlViolations } from "../webhooks/endpoint-rules.js";

// SetHook, DeleteHook, ListHooks (Account interface, admin). A change reaches this instance's
// requests at once and other instances' within HOOK_CACHE_MS (hook-runner.ts).

export interface SetHookInput {
  projectId: string;
  kind: HookKind;
  url: string;
  /** Absent: the kind's default. */
  failurePolicy?: FailurePolicy;
  rotateSecret: boolean;
}

export async function setHook(
  deps: Pick<FlowDeps, "config" | "db" | "secrets" | "hooks">,
  organizationId: string,
  input: SetHookInput,
  origin: AuditOrigin,
): Promise<{ hook: Hook; secret: string }> {
  throwIfAny(urlViolations(deps, "url", input.url));
  if (!isIdOf("proj", input.projectId)) throw projectNotFound();
  const secret = newSigningSecret();
  const failurePolicy = input.failurePolicy ?? DEFAULT_FAILURE_POLICY[input.kind];
  const { hook, created } = await deps.db.transaction(async (repos) => {
    if (!(await repos.projects.getForShare(organizationId, input.projectId))) throw projectNotFound();
    const result = await repos.hooks.set(
      organizationId,
      input.projectId,
      input.kind,
      { url: input.url, failurePolicy, secret, rotate: input.rotateSecret },
      deps.secrets,
    );
    await repos.auditEvents.record({
      type: "hook.set",
      organizationId,
      projectId: input.projectId,
      details: { kind: input.kind, url: input.url, failure_policy: failurePolicy, rotated: input.rotateSecret },
      origin,
    });
    return result;
  });
  deps.hooks.forget(input.projectId);
  return { hook, secret: created || input.rotateSecret ? secret : "" };
}

export async function deleteHook(
  deps: Pick<FlowDeps, "db" | "hooks">,
  organizationId: string,
  projectId: string,
  kind: HookKind,
  origin: AuditOrigin,
): Promise<{ deleted: true; kind: HookKind }> {
  if (!isIdOf("proj", projectId)) throw projectNotFound();
  await deps.db.transaction(async (repos) => {
    if (!(await repos.projects.get(organizationId, projectId))) throw projectNotFound();
    if (!(await repos.hooks.delete(organizationId, projectId, kind)))
      throw new DomainError("HOOK_NOT_FOUND", `this project has no ${kind} hook`);
    await repos.auditEvents.record({ type: "hook.deleted", organizationId, projectId, details: { kind }, origin });
  });
  deps.hooks.forget(projectId);
  return { deleted: true, kind };
}

export async function listHooks(
  deps: Pick<FlowDeps, "db">,
  organizationId: string,
  projectId: string,
): Promise<Hook[]> {
  if (!isIdOf("proj", projectId)) throw projectNotFound();
  const { repos } = deps.db;
  if (!(await repos.projects.get(organizationId, projectId))) throw projectNotFound();
  return repos.hooks.list(organizationId, projectId);
}
