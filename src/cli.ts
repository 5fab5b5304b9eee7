import { runCli, type OpenServices } from "./cli/run.js";
import { processOutput } from "./cli/output.js";
import { PRIVATE_UMASK } from "./store/data-dir-modes.js";

// `npm run -s gatehouse -- <command> [--json]`: the operator's command line (docs/cli.md).
// A command may open the embedded database itself: what it writes stays its account's alone.
process.umask(PRIVATE_UMASK);
// Loaded when a command opens the database itself, not for --help nor for a command the
// running server runs (its operator channel): the server's modules are most of a start's time.
const open: OpenServices = async (config, logger) =>
  (await import("./operator-services.js")).openOperatorServices(config, logger);
runCli(process.argv.slice(2), processOutput, { open }).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // runCli answers every failure itself; this is only a failure to close the database.
    console.error(`gatehouse: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
