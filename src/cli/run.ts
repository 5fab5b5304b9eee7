import type { Readable } from "node:stream";
import { loadConfig, type Config } from "../config.js";
import type { AuditOrigin } from "../domain/audit.js";
import type { FlowDeps } from "../flows/deps.js";
import { createLogger, type Logger } from "../log.js";
import type { OperatorApi } from "./api.js";
import type { Command } from "./command.js";
import { apiKeyCommands } from "./commands/api-keys.js";
import { auditCommands } from "./commands/audit.js";
import { emailConflictCommands } from "./commands/email-conflicts.js";
import { hookCommands } from "./commands/hooks.js";
import { memberCommands } from "./commands/members.js";
import { messageTemplateCommands } from "./commands/message-templates.js";
import { oauthClientCommands } from "./commands/oauth-clients.js";
import { operationCommands } from "./commands/operations.js";
import { projectCommands } from "./commands/projects.js";
import { userCommands } from "./commands/users.js";
import { webhookDeliveryCommands } from "./commands/webhook-deliveries.js";
import { webhookCommands } from "./commands/webhooks.js";
import type { CliContext } from "./context.js";
import { EXIT, toCliError, usageError } from "./errors.js";
import { runThroughServer } from "./operator-channel-client.js";
import { operatorOrigin } from "./operator.js";
import { flag, parseOptions } from "./options.js";
import { errorLines, printError, printOutcome, type Output } from "./output.js";

export const COMMANDS: Command[] = [
  ...operationCommands,
  ...projectCommands,
  ...apiKeyCommands,
  ...memberCommands,
  ...webhookCommands,
  ...webhookDeliveryCommands,
  ...hookCommands,
  ...messageTemplateCommands,
  ...oauthClientCommands,
  ...userCommands,
  ...auditCommands,
  ...emailConflictCommands,
];

export function usage(commands: Command[] = COMMANDS): string {
  return [
    "usage:",
    // --json and --help are every command's (COMMON_OPTIONS).
    ...commands.map(
      (c) => `  npm run -s gatehouse -- ${c.name}${c.synopsis ? ` ${c.synopsis}` : ""} [--json] [--help]`,
    ),
  ].join("\n");
}

/** What commands run with: the service's dependencies, and the API as the operator calls it. */
export interface Services {
  deps: FlowDeps;
  api: OperatorApi;
}

/**
 * Opens the services on the service's database, for one command run in this process, and
 * closes them after it. The composition root gives it (src/operator-services.ts): the CLI
 * imports no part of the server's wiring.
 */
export type OpenServices = (config: Config, logger: Logger) => Promise<Services & { close(): Promise<void> }>;

/**
 * A command line run in this process: the environment its configuration is read from, its
 * working directory and standard input (by default the process's own), and how it opens the
 * services. Tests run commands this way, each with its own environment, one after another in
 * one process.
 */
export interface Local {
  env?: Record<string, string | undefined>;
  cwd?: string;
  stdin?: () => Readable;
  open: OpenServices;
}

/** A command run inside the running server, for a command line that sent it (operator-channel-server.ts). */
export interface Served {
  services: Services;
  origin: AuditOrigin;
  cwd: string;
  stdin(): Readable;
}

/**
 * Runs one command and answers its exit status. The CLI is an operator's tool on the server's
 * machine: it reads the service's own configuration (the environment), opens its database and
 * calls the API in this process (a command that mirrors an RPC calls that RPC), so its rules,
 * limits, audit events and errors apply alike. When a running server holds the embedded
 * database, the command runs inside that server instead, with the server's configuration and
 * services (`Served`). Whatever the command opened is closed before it answers, so runs in one
 * process share nothing.
 */
export async function runCli(argv: string[], output: Output, from: Local | Served): Promise<number> {
  const served = "services" in from ? from : undefined;
  const command = COMMANDS.find((c) => {
    const words = c.name.split(" ");
    return words.every((word, i) => argv[i] === word);
  });
  const json = argv.includes("--json");
  if (!command) return answerWithoutCommand(argv, output, json);
  let opened: (Services & { close(): Promise<void> }) | undefined;
  try {
    const values = parseOptions(argv.slice(command.name.split(" ").length), command.options);
    if (flag(values, "help")) {
      output.out(usage([command]));
      return EXIT.OK;
    }
    const config = served ? served.services.deps.config : loadConfig((from as Local).env);
    const cwd = from.cwd ?? process.cwd();
    const stdin = from.stdin ?? (() => process.stdin);
    if (!served && !config.databaseUrl) {
      const code = await runThroughServer(config.dataDir, argv, output, { cwd, stdin: stdin() });
      if (code !== undefined) return code;
    }
    // Library warnings and errors only, on stderr: stdout holds the answer.
    const logger =
      served?.services.deps.logger ??
      createLogger(config.logLevel === "info" ? "warn" : config.logLevel, errorLines(output));
    const origin = served?.origin ?? operatorOrigin();
    const services = async (): Promise<Services> => {
      if (served) return served.services;
      opened ??= await (from as Local).open(config, logger);
      return opened;
    };
    const ctx = commandContext({ config, logger, output, origin, cwd, stdin, served: served !== undefined }, services);
    const outcome = await command.run(ctx, values);
    printOutcome(output, outcome, flag(values, "json"));
    return outcome.exitCode ?? EXIT.OK;
  } catch (thrown) {
    const error = toCliError(thrown);
    printError(output, error, json, error.reason === "USAGE" && !json ? usage([command]) : undefined);
    return error.exitCode;
  } finally {
    await opened?.close();
  }
}

/** No command matched: the usage when asked for (or nothing was given), a usage error otherwise. */
function answerWithoutCommand(argv: string[], output: Output, json: boolean): number {
  const help = argv.length === 0 || argv[0] === "help" || argv[0] === "--help";
  if (help) {
    output.out(usage());
    return EXIT.OK;
  }
  const error = usageError(`unknown command: ${argv.slice(0, 2).join(" ") || "(none)"}`);
  printError(output, error, json, json ? undefined : usage());
  return error.exitCode;
}

/** What a command sees: its settings and streams, and the services opened only when it asks. */
function commandContext(
  base: Omit<CliContext, "deps" | "account" | "restJson">,
  services: () => Promise<Services>,
): CliContext {
  let api: OperatorApi | undefined;
  return {
    ...base,
    deps: async () => (await services()).deps,
    async account(organizationId) {
      api = (await services()).api;
      return api.account(organizationId, base.origin.actor.id);
    },
    restJson(schema, message) {
      if (!api) throw new Error("restJson before account: the answer is an RPC's");
      return api.restJson(schema, message);
    },
  };
}
