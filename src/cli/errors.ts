import { ConnectError } from "@connectrpc/connect";
import { BadRequestSchema, ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { ConfigError } from "../config.js";
import { DomainError, type Violation } from "../domain/errors.js";
import { DataDirInUse } from "../store/data-dir-lock.js";
import { isDatabaseUnavailable } from "../store/errors.js";

/** Exit statuses, from BSD's sysexits.h where one fits, so scripts can tell the cases apart. */
export const EXIT = {
  OK: 0,
  /** Refused by the service's rules: not found, already exists, rate limited, an internal error. */
  FAILED: 1,
  /** EX_USAGE: an unknown command or option, or an option value the API's rules refuse. */
  USAGE: 64,
  /** EX_DATAERR: `user import` refused some lines (the others were imported). */
  DATA: 65,
  /** EX_NOINPUT: the import file cannot be read. */
  NO_INPUT: 66,
  /** EX_UNAVAILABLE: the database does not answer. */
  UNAVAILABLE: 69,
  /** EX_CONFIG: the environment is not a valid configuration. */
  CONFIG: 78,
} as const;

/**
 * What a command reports when it fails: an API reason (errors.ts) when a flow refused, or one of
 * the CLI's own (`USAGE`, `ORGANIZATION_NOT_FOUND`, `FILE_UNREADABLE`, `INVALID_CONFIGURATION`).
 */
export class CliError extends Error {
  constructor(
    readonly reason: string,
    message: string,
    readonly exitCode: number,
    readonly violations: readonly Violation[] = [],
  ) {
    super(message);
    this.name = "CliError";
  }
}

export function usageError(message: string): CliError {
  return new CliError("USAGE", message, EXIT.USAGE);
}

function refusal(reason: string, message: string, violations: readonly Violation[]): CliError {
  const input = reason === "VALIDATION_FAILED" || reason === "INVALID_CURSOR";
  const down = reason === "SERVICE_UNAVAILABLE";
  return new CliError(reason, message, input ? EXIT.USAGE : down ? EXIT.UNAVAILABLE : EXIT.FAILED, violations);
}

/** Anything a command threw, as the reason, message and status the CLI reports. */
export function toCliError(error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof ConfigError)
    return new CliError("INVALID_CONFIGURATION", `invalid configuration: ${error.message}`, EXIT.CONFIG);
  if (error instanceof DomainError) return refusal(error.reason, error.message, error.violations);
  // An RPC's refusal, as the API answers it: the reason in ErrorInfo, the violations in BadRequest.
  if (error instanceof ConnectError) {
    const violations = error
      .findDetails(BadRequestSchema)
      .flatMap((bad) => bad.fieldViolations.map((v) => ({ field: v.field, description: v.description })));
    return refusal(error.findDetails(ErrorInfoSchema)[0]?.reason ?? "INTERNAL_ERROR", error.rawMessage, violations);
  }
  if (error instanceof DataDirInUse) {
    // A server that took the directory since this command looked: it now runs commands itself.
    const advice =
      error.holder.role === "server" ? "run the command again to run it through the server" : "wait for it to finish";
    return new CliError("SERVICE_UNAVAILABLE", `${error.inUse}; ${advice}`, EXIT.UNAVAILABLE);
  }
  if (isDatabaseUnavailable(error))
    return new CliError("SERVICE_UNAVAILABLE", "the database does not answer", EXIT.UNAVAILABLE);
  // An operator's tool on the server's machine: the message helps more than it reveals.
  return new CliError("INTERNAL_ERROR", error instanceof Error ? error.message : String(error), EXIT.FAILED);
}
