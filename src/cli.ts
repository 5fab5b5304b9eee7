import { runCli } from "./cli/run.js";
import { processOutput } from "./cli/output.js";

// `npm run -s gatehouse -- <command> [--json]`: the operator's command line (docs/cli.md).
runCli(process.argv.slice(2), processOutput).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // runCli answers every failure itself; this is only a failure to close the database.
    console.error(`gatehouse: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
