import type { Project } from "../../domain/account.js";
import type { Repositories } from "../../store/database.js";
import type { FlowDeps } from "../deps.js";
import type { HookAnswer, HookRunner } from "./hook-runner.js";

// No hook is called while a transaction holds a database connection (docs/security.md,
// "Webhooks and hooks"): a receiver that takes its 2 seconds would hold the connection that
// long, and ten such sign-ins held PostgreSQL's whole pool (PGlite has one connection), so
// every other tenant's request waited or failed (issue 46).
//
// A flow whose transaction may reach a hook opens it with hookedTransaction. When the work
// reaches a hook it has no answer for, the round ends: the transaction rolls back (nothing
// was written, no lock is kept), the hook is called with no connection held, and the work
// runs again from the start with the answer in hand. Everything the work read and checked is
// read and checked again in the new round (a refresh token rotated meanwhile, a code spent,
// a user disabled), so the rules that hold without hooks hold with them. An answer is used
// only for the very question it answered: if the new round asks something else (the user's
// app_metadata changed meanwhile), the hook is asked again, at most MAX_HOOK_CALLS times per
// transaction; past that the question counts as a hook failure, handled by its policy.
//
// Outside a transaction (a flow on `deps.db.repos`, one statement at a time) a hook is called
// at once: no connection is held between statements.

type HookWithSecret = NonNullable<Awaited<ReturnType<HookRunner["find"]>>>;

/** Hook calls one transaction may make before a question that keeps changing counts as a failure. */
export const MAX_HOOK_CALLS = 4;

interface Rounds {
  answers: Map<string, HookAnswer>;
  /** Values the work chose in a round (a new user's or session's id, the token's time), kept for the next. */
  kept: Map<string, unknown>;
  calls: number;
}

/** The rounds of each open hookedTransaction, by the repositories bound to its transaction. */
const open = new WeakMap<Repositories, Rounds>();

/** Thrown to end a round: the transaction rolls back, then `ask` runs with no connection held. */
class HookNeeded extends Error {
  constructor(
    readonly key: string,
    readonly ask: () => Promise<HookAnswer>,
  ) {
    super("a hook must be asked outside the transaction");
  }
}

/**
 * `deps.db.transaction(work)`, for work that may ask a project's hook: see above. `work` runs
 * once per hook it needs, plus once, so it must be safe to run again after a rollback, as any
 * transaction's work is after a serialization failure.
 */
export async function hookedTransaction<T>(
  deps: Pick<FlowDeps, "db">,
  work: (repos: Repositories) => Promise<T>,
): Promise<T> {
  const rounds: Rounds = { answers: new Map(), kept: new Map(), calls: 0 };
  for (;;) {
    try {
      return await deps.db.transaction((repos) => {
        open.set(repos, rounds);
        return work(repos);
      });
    } catch (error) {
      if (!(error instanceof HookNeeded)) throw error;
      rounds.calls++;
      rounds.answers.set(error.key, await error.ask());
    }
  }
}

/**
 * The hook's answer to `payload`: called now outside a transaction; inside a hookedTransaction,
 * the answer of an earlier round to the same question, or the end of this round.
 */
export async function askHook(
  deps: Pick<FlowDeps, "db" | "hooks">,
  repos: Repositories,
  project: Project,
  hook: HookWithSecret,
  payload: Record<string, unknown>,
): Promise<HookAnswer> {
  if (repos === deps.db.repos) return deps.hooks.call(project, hook, payload);
  const rounds = open.get(repos);
  // A flow that opened its transaction with deps.db.transaction: a bug, loud rather than a held connection.
  if (!rounds) throw new Error(`the ${hook.kind} hook was asked inside a transaction not opened by hookedTransaction`);
  const key = `${hook.url}\n${JSON.stringify(payload)}`;
  const answered = rounds.answers.get(key);
  if (answered) return answered;
  if (rounds.calls >= MAX_HOOK_CALLS) {
    const error = `what the hook is asked about changed ${MAX_HOOK_CALLS} times while it was asked`;
    await deps.hooks.report(project, hook, error);
    return { ok: false, error };
  }
  throw new HookNeeded(key, () => deps.hooks.call(project, hook, payload));
}

/**
 * A value the work chooses (a new row's id, the time a token is signed at), the same in every
 * round of a hookedTransaction, so that the question a hook answered is asked again unchanged.
 * Outside one: `choose()`.
 */
export function kept<T>(repos: Repositories, name: string, choose: () => T): T {
  const rounds = open.get(repos);
  if (!rounds) return choose();
  if (!rounds.kept.has(name)) rounds.kept.set(name, choose());
  return rounds.kept.get(name) as T;
}
