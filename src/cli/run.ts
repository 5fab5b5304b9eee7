import type { Readable } from "node:stream";
import { createDeps } from "../app.js";
import { loadConfig } from "../config.js";
import type { AuditOrigin } from "../domain/audit.js";
import type { FlowDeps } from "../flows/deps.js";
import { createLogger } from "../log.js";
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

/**
 * A command line run in this process: the environment its configuration is read from, its
 * working directory and standard input; by default the process's own. Tests run commands this
 * way, each with its own environment, one after another in one process.
 */
export interface Local {
  env?: Record<string, string | undefined>;
  cwd?: string;
  stdin?: () => Readable;
}

/** A command run inside the running server, for a command line that sent it (operator-channel-server.ts). */
export interface Served {
  deps: FlowDeps;
  origin: AuditOrigin;
  cwd: string;
  stdin(): Readable;
}

/**
 * Runs one command and answers its exit status. The CLI is an operator's tool on the server's
 * machine: it reads the service's own configuration (the environment), opens its database and
 * calls the same flows as the RPCs, so their rules, limits and audit events apply alike. When a
 * running server holds the embedded database, the command runs inside that server instead, with
 * the server's configuration and dependencies (`Served`). Whatever the command opened is closed
 * before it answers, so runs in one process share nothing.
 */
export async function runCli(argv: string[], output: Output, from: Local | Served = {}): Promise<number> {
  const served = "deps" in from ? from : undefined;
  const command = COMMANDS.find((c) => {
    const words = c.name.split(" ");
    return words.every((word, i) => argv[i] === word);
  });
  const json = argv.includes("--json");
  if (!command) {
    const help = argv.length === 0 || argv[0] === "help" || argv[0] === "--help";
    if (help) {
      output.out(usage());
      return EXIT.OK;
    }
    const error = usageError(`unknown command: ${argv.slice(0, 2).join(" ") || "(none)"}`);
    printError(output, error, json, json ? undefined : usage());
    return error.exitCode;
  }
  let deps: FlowDeps | undefined;
  try {
    const values = parseOptions(argv.slice(command.name.split(" ").length), command.options);
    if (flag(values, "help")) {
      output.out(usage([command]));
      return EXIT.OK;
    }
    const config = "deps" in from ? from.deps.config : loadConfig(from.env);
    const cwd = from.cwd ?? process.cwd();
    const stdin = from.stdin ?? (() => process.stdin);
    if (!served && !config.databaseUrl) {
      const code = await runThroughServer(config.dataDir, argv, output, { cwd, stdin: stdin() });
      if (code !== undefined) return code;
    }
    // Library warnings and errors only, on stderr: stdout holds the answer.
    const logger =
      served?.deps.logger ?? createLogger(config.logLevel === "info" ? "warn" : config.logLevel, errorLines(output));
    const ctx: CliContext = {
      config,
      logger,
      output,
      origin: served?.origin ?? operatorOrigin(),
      cwd,
      stdin,
      served: served !== undefined,
      async deps() {
        if (served) return served.deps;
        deps ??= await createDeps(config, { logger });
        return deps;
      },
    };
    const outcome = await command.run(ctx, values);
    printOutcome(output, outcome, flag(values, "json"));
    return outcome.exitCode ?? EXIT.OK;
  } catch (thrown) {
    const error = toCliError(thrown);
    printError(output, error, json, error.reason === "USAGE" && !json ? usage([command]) : undefined);
    return error.exitCode;
  } finally {
    if (deps) {
      // What createDeps opened, in the order the server closes it (app.ts).
      await deps.mail.stop();
      await deps.limits.close();
      await deps.db.close();
    }
  }
}
