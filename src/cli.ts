import { parseArgs } from "node:util";
import { createDeps } from "./app.js";
import { ConfigError, loadConfig } from "./config.js";
import { DomainError } from "./domain/errors.js";
import { checkEmail } from "./domain/formats.js";
import { createOrganization } from "./flows/create-organization.js";
import { createLogger } from "./log.js";
import { formatPendingMessages } from "./notify/outbox-list.js";
import { runMigrationsOnly } from "./store/database.js";

const USAGE = `usage:
  npm run gatehouse -- org create --name NAME --email EMAIL --password PASSWORD
  npm run gatehouse -- migrate
  npm run gatehouse -- outbox list [--limit N]`;

// Operator commands. They use the same configuration (environment) as the server.
async function main(argv: string[]): Promise<number> {
  const config = loadConfig();
  // The CLI talks to people: only warnings and errors from the libraries.
  const logger = createLogger(config.logLevel === "info" ? "warn" : config.logLevel);
  const [group, action] = argv;
  if (group === "migrate" && action === undefined) {
    const applied = await runMigrationsOnly({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, logger });
    console.log(applied.length === 0 ? "migrations: up to date" : `migrations applied: ${applied.join(", ")}`);
    return 0;
  }
  if (group === "org" && action === "create") {
    const { values } = parseArgs({
      args: argv.slice(2),
      options: { name: { type: "string" }, email: { type: "string" }, password: { type: "string" } },
    });
    const problem = orgCreateProblem(values);
    if (problem) {
      console.error(`gatehouse: ${problem}\n${USAGE}`);
      return 64;
    }
    const deps = await createDeps(config, { logger });
    try {
      const { organization, admin } = await createOrganization(deps, {
        name: values.name!,
        email: values.email!,
        password: values.password!,
      });
      console.log(`created organization ${organization.id} (${organization.name}) with admin ${admin.id} <${admin.email}>`);
      return 0;
    } finally {
      await deps.db.close();
    }
  }
  if (group === "outbox" && action === "list") {
    const { values } = parseArgs({ args: argv.slice(2), options: { limit: { type: "string" } } });
    const limit = values.limit === undefined ? 100 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      console.error(`gatehouse: --limit must be an integer from 1 to 1000\n${USAGE}`);
      return 64;
    }
    const deps = await createDeps(config, { logger });
    try {
      console.log(formatPendingMessages(deps.secrets, await deps.db.repos.outbox.listPending(limit)));
      return 0;
    } finally {
      await deps.db.close();
    }
  }
  console.error(USAGE);
  return 64; // EX_USAGE
}

function orgCreateProblem(values: { name?: string; email?: string; password?: string }): string | undefined {
  if (!values.name?.trim()) return "--name is required";
  if (values.name.length > 100) return "--name must be at most 100 characters";
  if (!values.email || checkEmail(values.email)) return "--email must be an email address";
  const length = [...(values.password ?? "")].length;
  if (length < 8 || length > 128) return "--password must be 8 to 128 characters";
  return undefined;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError) console.error(`gatehouse: invalid configuration: ${error.message}`);
    else if (error instanceof DomainError) console.error(`gatehouse: ${error.message}`);
    else console.error(`gatehouse: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
