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

export function printOutcome(output: Output, outcome: Outcome, json: boolean): void {
  output.out(json ? JSON.stringify(outcome.json) : outcome.text);
}

/**
 * On stderr, so stdout holds an answer or nothing. With `--json`, `{reason, message}` (and the
 * `violations` of a VALIDATION_FAILED, as the API reports them).
 */
export function printError(output: Output, error: CliError, json: boolean, usage?: string): void {
  if (json) {
    const body = { reason: error.reason, message: error.message, ...(error.violations.length > 0 ? { violations: error.violations } : {}) };
    output.err(JSON.stringify(body));
    return;
  }
  output.err(`gatehouse: ${error.message}${usage ? `\n${usage}` : ""}`);
}
