import type { CliContext } from "./context.js";
import type { OptionSpec, Values } from "./options.js";
import type { Outcome } from "./output.js";

/** One `gatehouse <group> [<action>]` command. */
export interface Command {
  /** The words that select it: `project create`, `migrate`. */
  name: string;
  /** Its options, as the usage text shows them (`--json` is implied). */
  synopsis: string;
  options: OptionSpec;
  run(ctx: CliContext, values: Values): Promise<Outcome>;
}
