import { LRUCache } from "lru-cache";
import type { SecretBox } from "../../crypto/secret-box.js";
import { newId } from "../../crypto/ids.js";
import type { Project } from "../../domain/account.js";
import type { AuditEventInput } from "../../domain/audit.js";
import type { Clock } from "../../domain/clock.js";
import { DomainError } from "../../domain/errors.js";
import type { Hook, HookKind } from "../../domain/hooks.js";
import type { Logger } from "../../log.js";
import { countHookRefused, observeHook } from "../../metrics/hooks.js";
import type { AllowHosts } from "../../outbound/allow-hosts.js";
import { HOOK_BODY_BYTES, postJson } from "../../outbound/post.js";
import { signingHeaders } from "../../outbound/standard-webhooks.js";
import type { Database, Repositories } from "../../store/database.js";

/** How long this instance trusts what it read of a project's hooks; SetHook and DeleteHook here forget at once. */
export const HOOK_CACHE_MS = 5_000;
/** At most one `hook.failed` audit event per project, kind and this long: a hook that is down fails every request. */
const FAILURE_AUDIT_EVERY_MS = 60_000;

export type HookWithSecret = Hook & { secret: string };

/** What a hook's caller learns: the parsed answer, or why there is none. */
export type HookAnswer = { ok: true; answer: Record<string, unknown> } | { ok: false; error: string };

export interface HookRunner {
  /**
   * The project's hook of `kind`, from memory for HOOK_CACHE_MS; null when none is set. Read
   * through the caller's repositories: inside its transaction on PGlite's one connection.
   */
  find(repos: Repositories, projectId: string, kind: HookKind): Promise<HookWithSecret | null>;
  /**
   * POSTs `payload` to the hook, signed as webhooks are, within HOOK_TIMEOUT_MS; counts and
   * audits a failure. With the project's HOOK_MAX_IN_FLIGHT calls already waiting on this
   * instance, fails at once without calling. Never call it inside a transaction: go through
   * askHook (hooked-transaction.ts).
   */
  call(project: Project, hook: HookWithSecret, payload: Record<string, unknown>): Promise<HookAnswer>;
  /** Logs and audits a hook whose answer its caller could not use (a wrong shape, too large). */
  report(project: Project, hook: HookWithSecret, error: string): Promise<void>;
  /** After SetHook or DeleteHook. */
  forget(projectId: string): void;
}

export interface HookRunnerDeps {
  db: Database;
  secrets: SecretBox;
  clock: Clock;
  logger: Logger;
  allow: AllowHosts;
  /** The deadline of one call, from resolving the name to the answer's last byte (HOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** Calls of one project that may wait for an answer at once on this instance (HOOK_MAX_IN_FLIGHT). */
  maxInFlight: number;
  /** Writes a failure's audit event (flows/audit/record.ts recordAlone, bound). */
  audit: (event: AuditEventInput) => Promise<void>;
}

export function createHookRunner(deps: HookRunnerDeps): HookRunner {
  const hooks = new LRUCache<string, { kinds: Map<HookKind, HookWithSecret> }>({ max: 10_000, ttl: HOOK_CACHE_MS });
  const lastFailureAudit = new LRUCache<string, true>({ max: 10_000, ttl: FAILURE_AUDIT_EVERY_MS });
  // The bulkhead: calls waiting for an answer, per project. A project's receiver that is slow
  // (or down, each call then taking the whole deadline) keeps at most maxInFlight of this
  // instance's requests waiting; its further calls fail at once, under the hook's policy, and
  // other projects' calls go on as before.
  const inFlight = new Map<string, number>();

  async function load(repos: Repositories, projectId: string): Promise<Map<HookKind, HookWithSecret>> {
    const cached = hooks.get(projectId);
    if (cached) return cached.kinds;
    const kinds = new Map<HookKind, HookWithSecret>();
    for (const kind of ["before_user_created", "custom_access_token"] as const) {
      const hook = await repos.hooks.getWithSecret(projectId, kind, deps.secrets);
      if (hook) kinds.set(kind, hook);
    }
    hooks.set(projectId, { kinds });
    return kinds;
  }

  async function failed(project: Project, hook: HookWithSecret, error: string, detail?: string): Promise<HookAnswer> {
    await report(project, hook, error, detail);
    return { ok: false, error };
  }

  /** `detail` (which address a name resolved to) goes to the log only: the audit is the project admin's. */
  async function report(project: Project, hook: HookWithSecret, error: string, detail?: string): Promise<void> {
    deps.logger.warn({ project_id: project.id, kind: hook.kind, err: detail ?? error }, "hook failed");
    const key = `${project.id}/${hook.kind}`;
    if (!lastFailureAudit.has(key)) {
      lastFailureAudit.set(key, true);
      // Not awaited: an answer its caller cannot use is reported inside the caller's transaction
      // (hooked-transaction.ts), and on PGlite's one connection this write waits for that
      // transaction to end (the event is the failure's, kept whether or not the request's
      // writes commit).
      void deps.audit({
        type: "hook.failed",
        organizationId: project.organizationId,
        projectId: project.id,
        reason: hook.failurePolicy === "closed" ? "SERVICE_UNAVAILABLE" : null,
        details: { kind: hook.kind, error: error.slice(0, 200), failure_policy: hook.failurePolicy },
        origin: { actor: { type: "anonymous", id: "" }, ip: "", userAgent: "" },
      });
    }
  }

  return {
    async find(repos, projectId, kind) {
      return (await load(repos, projectId)).get(kind) ?? null;
    },

    async call(project, hook, payload) {
      const waiting = inFlight.get(project.id) ?? 0;
      if (waiting >= deps.maxInFlight) {
        countHookRefused(hook.kind);
        return failed(
          project,
          hook,
          `not called: ${waiting} calls of this project's hooks are waiting for an answer already (HOOK_MAX_IN_FLIGHT)`,
        );
      }
      inFlight.set(project.id, waiting + 1);
      try {
        return await post(project, hook, payload);
      } finally {
        const left = (inFlight.get(project.id) ?? 1) - 1;
        if (left === 0) inFlight.delete(project.id);
        else inFlight.set(project.id, left);
      }
    },

    report,

    forget(projectId) {
      hooks.delete(projectId);
    },
  };

  async function post(project: Project, hook: HookWithSecret, payload: Record<string, unknown>): Promise<HookAnswer> {
    const body = JSON.stringify(payload);
    // The signature's time is the wall clock's: receivers compare it with theirs.
    const headers = signingHeaders(newId("msg"), new Date(), body, [hook.secret]);
    const started = performance.now();
    const result = await postJson(hook.url, body, headers, {
      timeoutMs: deps.timeoutMs,
      allow: deps.allow,
      maxBodyBytes: HOOK_BODY_BYTES,
    });
    let answer: unknown;
    if (result.ok) {
      try {
        answer = JSON.parse(result.body ?? "");
      } catch {
        answer = undefined;
      }
    }
    const usable = typeof answer === "object" && answer !== null && !Array.isArray(answer);
    observeHook(hook.kind, usable, (performance.now() - started) / 1000);
    if (!result.ok) return failed(project, hook, result.error, result.detail);
    if (!usable) return failed(project, hook, "the answer is not a JSON object");
    return { ok: true, answer: answer as Record<string, unknown> };
  }
}

/** A hook that failed under `closed`: the request cannot go on without it. */
export function hookUnavailable(kind: HookKind): DomainError {
  return new DomainError(
    "SERVICE_UNAVAILABLE",
    `the project's ${kind} hook did not answer usably; try again later`,
    [],
    5,
  );
}
