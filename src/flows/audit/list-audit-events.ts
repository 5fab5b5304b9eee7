import { AUDIT_EVENT_TYPES, type AuditEvent, type AuditEventType } from "../../domain/audit.js";
import { DomainError } from "../../domain/errors.js";
import { pageRequest, toPage, type Page } from "../../domain/pagination.js";
import type { FlowDeps } from "../deps.js";

export interface ListAuditEventsInput {
  projectId?: string;
  userId?: string;
  types?: string[];
  /** RFC 3339, inclusive. */
  from?: string;
  /** RFC 3339, exclusive. */
  to?: string;
  limit?: number;
  cursor?: string;
}

/**
 * One page of the organization's audit events, newest first. Only ever the caller's
 * organization: the repository's first condition is the organization id. A project or user
 * filter is not looked up: a deleted project's events stay listable by its id, and a deleted
 * user's by its pseudonym; an id the organization never had just matches nothing.
 */
export async function listAuditEvents(
  deps: Pick<FlowDeps, "db" | "cursors">,
  organizationId: string,
  input: ListAuditEventsInput,
): Promise<Page<AuditEvent>> {
  const projectId = input.projectId || undefined;
  const userId = input.userId || undefined;
  const types = [...new Set(input.types ?? [])].sort() as AuditEventType[];
  const unknown = types.find((t) => !(AUDIT_EVENT_TYPES as readonly string[]).includes(t));
  if (unknown !== undefined)
    throw new DomainError("VALIDATION_FAILED", `unknown audit event type "${unknown}"`, [
      { field: "type", description: "not an audit event type" },
    ]);
  const from = input.from ? new Date(input.from) : undefined;
  const to = input.to ? new Date(input.to) : undefined;
  if (from && to && from.getTime() > to.getTime()) {
    throw new DomainError("VALIDATION_FAILED", "from is after to", [
      { field: "from", description: "must not be after to" },
    ]);
  }
  // Bound to the organization and every filter: replayed on another list it is INVALID_CURSOR.
  const list = `audit:${organizationId}:${projectId ?? "*"}:${userId ?? "*"}:${types.join(",")}:${from?.toISOString() ?? ""}:${to?.toISOString() ?? ""}`;
  const page = pageRequest(deps.cursors, list, input);
  const rows = await deps.db.repos.auditEvents.list(organizationId, { projectId, userId, types, from, to }, page);
  return toPage(deps.cursors, list, rows, page.limit);
}
