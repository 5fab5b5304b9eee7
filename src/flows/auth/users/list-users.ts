import type { Project } from "../../../domain/account.js";
import type { User, UserFilters } from "../../../domain/auth.js";
import { pageRequest, toPage, type Page } from "../../../domain/pagination.js";
import type { FlowDeps } from "../../deps.js";
import { adminOnly, type UserActor } from "./actor.js";

export interface ListUsersInput {
  limit?: number;
  cursor?: string;
  /** Case-insensitive substring of the email; empty: all users. */
  search?: string;
  filters?: UserFilters;
}

/** One page of the project's users, newest first (keyset pagination, never OFFSET); admin only. */
export async function listUsers(
  deps: Pick<FlowDeps, "db" | "cursors">,
  project: Project,
  actor: UserActor,
  input: ListUsersInput,
): Promise<Page<User>> {
  adminOnly(actor, "listing users");
  const search = (input.search ?? "").toLowerCase();
  const filters = input.filters ?? {};
  // The project and the filters are the list's identity: a cursor replayed on another project's
  // list, or with another search or filter, is INVALID_CURSOR.
  // (Without filters the identity is what it was before they existed, so cursors handed out
  // then still continue.)
  const flags = [filters.disabled, filters.emailVerified, filters.mfaEnabled];
  const filtered = flags.some((f) => f !== undefined) ? `:${JSON.stringify(flags.map((f) => f ?? null))}` : "";
  const list = `users:${project.id}:${JSON.stringify(search)}${filtered}`;
  const page = pageRequest(deps.cursors, list, input);
  const rows = await deps.db.repos.users.list(project.id, page, search || undefined, filters);
  return toPage(deps.cursors, list, rows, page.limit);
}
