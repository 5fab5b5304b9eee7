import { parseArgs, type ParseArgsConfig } from "node:util";
import { validationFailed } from "../domain/errors.js";
import { usageError } from "./errors.js";

export type OptionSpec = NonNullable<ParseArgsConfig["options"]>;
export type Values = Record<string, string | boolean | Array<string | boolean> | undefined>;

/** Every command takes these. */
export const COMMON_OPTIONS = { json: { type: "boolean" }, help: { type: "boolean" } } as const satisfies OptionSpec;

/** `--name value` options only: a positional argument or an unknown option is a usage error. */
export function parseOptions(args: string[], options: OptionSpec): Values {
  try {
    return parseArgs({ args, options: { ...COMMON_OPTIONS, ...options }, strict: true, allowPositionals: false })
      .values;
  } catch (error) {
    // node:util names the option in its message ("Unknown option '--nmae'").
    throw usageError(error instanceof Error ? error.message.split("\n")[0] : String(error));
  }
}

export function text(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
}

export function list(values: Values, name: string): string[] {
  const value = values[name];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

export function flag(values: Values, name: string): boolean {
  return values[name] === true;
}

/**
 * An integer option, absent as undefined. Its range is the API's rule (the proto), checked with
 * the rest of the request; only "not an integer" is this step's to say, named by the API field.
 */
export function integer(values: Values, name: string, field: string): number | undefined {
  const value = text(values, name);
  if (value === undefined) return undefined;
  if (
    !/^-?\d{1,10}$/.test(value.trim()) ||
    !Number.isSafeInteger(Number(value)) ||
    Math.abs(Number(value)) > 2 ** 31 - 1
  ) {
    throw validationFailed([{ field, description: `must be an integer (--${name})` }]);
  }
  return Number(value);
}
