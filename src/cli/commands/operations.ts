import type { Member, Organization } from "../../domain/account.js";
import { checkEmail } from "../../domain/formats.js";
import { createOrganization } from "../../flows/create-organization.js";
import { openMailBody } from "../../notify/mail-body.js";
import { formatPendingMessages } from "../../notify/outbox-list.js";
import { runMigrationsOnly } from "../../store/database.js";
import type { Command } from "../command.js";
import { CliError, EXIT } from "../errors.js";
import { integer, text, type Values } from "../options.js";

// The commands that act on the installation rather than inside one organization.
export const operationCommands: Command[] = [
  {
    name: "org create",
    synopsis: "--name NAME --email EMAIL --password PASSWORD",
    options: { name: { type: "string" }, email: { type: "string" }, password: { type: "string" } },
    async run(ctx, values) {
      const input = orgCreateInput(values);
      const { organization, admin } = await createOrganization(await ctx.deps(), input);
      return {
        json: { organization: organizationJson(organization), admin: memberJson(admin) },
        text: `created organization ${organization.id} (${organization.name}) with admin ${admin.id} <${admin.email}>`,
      };
    },
  },
  {
    name: "org list",
    synopsis: "",
    options: {},
    async run(ctx) {
      const organizations = await (await ctx.deps()).db.repos.organizations.listAll();
      return {
        json: { data: organizations.map(organizationJson) },
        text:
          organizations.map((o) => `${o.id}  ${o.name}  created ${o.createdAt.toISOString()}`).join("\n") ||
          "no organizations",
      };
    },
  },
  {
    name: "migrate",
    synopsis: "",
    options: {},
    async run(ctx) {
      const { config, logger } = ctx;
      // Inside the running server (it holds the embedded database): on its session. It applied
      // its own migrations at start; a newer release's are applied by starting it on that code.
      const applied = ctx.served
        ? (await (await ctx.deps()).db.dataSource.runMigrations({ transaction: "each" })).map((m) => m.name)
        : await runMigrationsOnly({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
      return {
        json: { applied },
        text: applied.length === 0 ? "migrations: up to date" : `migrations applied: ${applied.join(", ")}`,
      };
    },
  },
  {
    name: "outbox list",
    synopsis: "[--limit N]",
    options: { limit: { type: "string" } },
    async run(ctx, values) {
      const limit = integer(values, "limit", "limit") ?? 100;
      if (limit < 1 || limit > 1000) throw invalid("limit", "--limit must be an integer from 1 to 1000");
      const deps = await ctx.deps();
      const messages = await deps.db.repos.outbox.listPending(limit);
      return {
        // The bodies hold live links and codes: this is for an operator's terminal, not a log.
        json: {
          data: messages.map((m) => ({
            id: m.id,
            channel: m.channel,
            recipient: m.recipient,
            subject: m.subject,
            queued_at: m.createdAt.toISOString(),
            attempts: m.attempts,
            last_error: m.lastError,
            text: bodyText(deps.secrets, m),
          })),
        },
        text: formatPendingMessages(deps.secrets, messages),
      };
    },
  },
];

function orgCreateInput(values: Values): { name: string; email: string; password: string } {
  const [name, email, password] = [text(values, "name"), text(values, "email"), text(values, "password")];
  if (!name?.trim()) throw invalid("name", "--name is required");
  if (name.length > 100) throw invalid("name", "--name must be at most 100 characters");
  const emailProblem = checkEmail(email ?? "");
  // checkEmail("") names the problem of a missing --email; the undefined test is for the type.
  if (emailProblem || email === undefined) throw invalid("email", `--email ${emailProblem ?? "is required"}`);
  const length = [...(password ?? "")].length;
  if (password === undefined || length < 8 || length > 128)
    throw invalid("password", "--password must be 8 to 128 characters");
  return { name, email, password };
}

function invalid(field: string, message: string): CliError {
  return new CliError("VALIDATION_FAILED", message, EXIT.USAGE, [{ field, description: message }]);
}

function bodyText(
  secrets: Parameters<typeof openMailBody>[0],
  message: Parameters<typeof openMailBody>[1],
): string | null {
  try {
    return openMailBody(secrets, message).text;
  } catch {
    return null; // sealed with another GATEHOUSE_SECRET
  }
}

function organizationJson(o: Organization) {
  return { id: o.id, name: o.name, created_at: o.createdAt.toISOString() };
}

function memberJson(m: Member) {
  return { id: m.id, email: m.email, role: m.role, created_at: m.createdAt.toISOString() };
}
