import type { EmailConflict } from "../../store/repositories/email-conflicts.js";
import type { Command } from "../command.js";
import { flag } from "../options.js";

// The stored addresses the email canonical-form migration left with their old key: refused by
// the rule, or sharing their canonical form with another row (docs/security.md, "Email
// addresses: one canonical form"). What to do about each is the operator's decision.
export const emailConflictCommands: Command[] = [
  {
    name: "email-conflicts",
    synopsis: "[--open]",
    options: { open: { type: "boolean" } },
    async run(ctx, values) {
      const all = await (await ctx.deps()).db.repos.emailConflicts.list();
      const shown = flag(values, "open") ? all.filter((c) => !c.resolved) : all;
      return {
        json: { data: shown.map(conflictJson) },
        text: shown.map(conflictLine).join("\n") || "no email conflicts",
      };
    },
  },
];

function conflictJson(c: EmailConflict) {
  return {
    id: c.id,
    table: c.table,
    row_id: c.rowId,
    project_id: c.projectId,
    organization_id: c.organizationId,
    email: c.email,
    canonical: c.canonical,
    reason: c.reason,
    description: c.description,
    found_at: c.foundAt.toISOString(),
    resolved: c.resolved,
  };
}

function conflictLine(c: EmailConflict): string {
  const scope = c.projectId
    ? `project ${c.projectId}`
    : c.organizationId
      ? `organization ${c.organizationId}`
      : "all organizations";
  // JSON string quoting, so a look-alike's code points show as such and not as the letter it mimics.
  const shown = JSON.stringify(c.email).replace(
    /[^\x20-\x7e]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `${c.reason}  ${c.table} ${c.rowId}  ${scope}  ${shown}${c.canonical ? ` -> ${c.canonical}` : ""}  ${c.description}${c.resolved ? "  (resolved)" : ""}`;
}
