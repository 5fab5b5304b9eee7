import { runCli } from "./cli/run.js";
import { processOutput } from "./cli/output.js";
import { openOperatorServices } from "./operator-services.js";
import { PRIVATE_UMASK } from "./store/data-dir-modes.js";

// `npm run -s gatehouse -- <command> [--json]`: the operator's command line (docs/cli.md).
// A command may open the embedded database itself: what it writes stays its account's alone.
process.umask(PRIVATE_UMASK);
runCli(process.argv.slice(2), processOutput, { open: openOperatorServices }).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // runCli answers every failure itself; this is only a failure to close the database.
    console.error(`gatehouse: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
