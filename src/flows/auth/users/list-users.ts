import type { Project } from "../../../domain/account.js";
import type { User } from "../../../domain/auth.js";
import { pageRequest, toPage, type Page } from "../../../domain/pagination.js";
import type { FlowDeps } from "../../deps.js";
import { adminOnly, type UserActor } from "./actor.js";

export interface ListUsersInput {
  limit?: number;
  cursor?: string;
  /** Case-insensitive substring of the email; empty: all users. */
  search?: string;
}

/** One page of the project's users, newest first (keyset pagination, never OFFSET); admin only. */
export async function listUsers(
  deps: FlowDeps,
  project: Project,
  actor: UserActor,
  input: ListUsersInput,
): Promise<Page<User>> {
  adminOnly(actor, "listing users");
  const search = (input.search ?? "").toLowerCase();
  // The project and the filter are the list's identity: a cursor replayed on another project's
  // list, or with another search, is INVALID_CURSOR.
  const list = `users:${project.id}:${JSON.stringify(search)}`;
  const page = pageRequest(deps.cursors, list, input);
  const rows = await deps.db.repos.users.list(project.id, page, search || undefined);
  return toPage(deps.cursors, list, rows, page.limit);
}
