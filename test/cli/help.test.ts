import { describe, expect, it } from "vitest";
import type { Command } from "../../src/cli/command.js";
import { COMMON_OPTIONS, type OptionSpec } from "../../src/cli/options.js";
import { COMMANDS } from "../../src/cli/run.js";
import { runCommand } from "./helpers.js";

// `--help` lists every flag a command accepts, and accepts every flag it lists (issue 46: the
// project commands took three passkey flags their help did not show). Read from the parser's
// own option table (Command.options and COMMON_OPTIONS), so a flag added to one and not the
// other fails here. --help answers before any configuration or database is read.

/** The flags a line of help shows, each with the value it takes ("" for a switch) and whether it repeats. */
function shown(line: string): Map<string, { value: string; repeats: boolean }> {
  const flags = new Map<string, { value: string; repeats: boolean }>();
  // `--name VALUE`, `[--name VALUE]...`, `--name a|b|c...`, `[--a | --b]`.
  for (const m of line.matchAll(/--([a-z][a-z0-9-]*)(?: ([^\s\]|-][^\s\]]*))?(\])?(\.\.\.)?/g)) {
    const value = m[2] ?? "";
    flags.set(m[1], { value: value.replace(/\.\.\.$/, ""), repeats: value.endsWith("...") || m[4] === "..." });
  }
  return flags;
}

const words = (command: Command) => command.name.split(" ");

describe("--help", () => {
  it("the overall help has one line per command, and each command's --help that same line", async () => {
    const all = await runCommand(["--help"], {});
    expect(all.code).toBe(0);
    const lines = all.stdout.trim().split("\n").slice(1);
    expect(lines).toHaveLength(COMMANDS.length);
    for (const [index, command] of COMMANDS.entries()) {
      const own = await runCommand([...words(command), "--help"], {});
      expect([own.code, own.stderr], command.name).toEqual([0, ""]);
      expect(own.stdout.trim().split("\n"), command.name).toEqual(["usage:", lines[index]]);
    }
  });

  it.each(COMMANDS.map((command) => [command.name, command] as const))(
    "%s: lists every flag it accepts, each as it is taken (a value or none, repeated or not)",
    async (name, command) => {
      const help = (await runCommand([...words(command), "--help"], {})).stdout;
      const flags = shown(help);
      const accepted: OptionSpec = { ...COMMON_OPTIONS, ...command.options };
      for (const [flag, spec] of Object.entries(accepted)) {
        const seen = flags.get(flag);
        expect(seen, `${name} --${flag} is accepted but not in its help`).toBeDefined();
        expect(seen!.value === "", `${name} --${flag} ${spec.type === "string" ? "takes" : "takes no"} value`).toBe(
          spec.type === "boolean",
        );
        expect(seen!.repeats, `${name} --${flag} ${spec.multiple ? "repeats" : "does not repeat"}`).toBe(
          spec.multiple === true,
        );
      }
    },
  );

  it.each(COMMANDS.map((command) => [command.name, command] as const))(
    "%s: accepts every flag its help lists",
    async (name, command) => {
      const flags = shown((await runCommand([...words(command), "--help"], {})).stdout);
      for (const [flag, { value }] of flags) {
        // The flag as the help spells it, then --help: the parser refuses an unknown flag first.
        const run = await runCommand([...words(command), `--${flag}`, ...(value ? ["x"] : []), "--help"], {});
        expect([run.code, run.stderr], `${name} --${flag}`).toEqual([0, ""]);
      }
      const unknown = await runCommand([...words(command), "--no-such-flag", "--help"], {});
      expect(unknown.code, "an unknown flag is a usage error, even beside --help").not.toBe(0);
    },
  );
});
