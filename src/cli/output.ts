import type { DestinationStream } from "pino";
import type { CliError } from "./errors.js";

/** What a command answers: one JSON document for `--json`, text for people otherwise. */
export interface Outcome {
  json: unknown;
  text: string;
  /** Non-zero when the command did its work but not all of it (`user import` refusing lines). */
  exitCode?: number;
}

export interface Output {
  /** Whole lines on stdout: the answer. */
  out(text: string): void;
  /** Whole lines on stderr: errors and progress. */
  err(text: string): void;
}

export const processOutput: Output = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

/**
 * The command's log lines (pino writes each whole, ending in a newline) as lines on its stderr,
 * wherever that is: the process's, or a caller's that runs the command in its own process.
 */
export function errorLines(output: Output): DestinationStream {
  return { write: (line: string) => output.err(line.endsWith("\n") ? line.slice(0, -1) : line) };
}

export function printOutcome(output: Output, outcome: Outcome, json: boolean): void {
  output.out(json ? JSON.stringify(outcome.json) : outcome.text);
}

/**
 * On stderr, so stdout holds an answer or nothing. With `--json`, `{reason, message}` (and the
 * `violations` of a VALIDATION_FAILED, as the API reports them).
 */
export function printError(output: Output, error: CliError, json: boolean, usage?: string): void {
  if (json) {
    const body = {
      reason: error.reason,
      message: error.message,
      ...(error.violations.length > 0 ? { violations: error.violations } : {}),
    };
    output.err(JSON.stringify(body));
    return;
  }
  output.err(`gatehouse: ${error.message}${usage ? `\n${usage}` : ""}`);
}
