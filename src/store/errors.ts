/**
 * A uniqueness constraint refused a write. `constraint` is the constraint's name from the
 * migrations (e.g. "members_email_normalized_key"), so a flow can tell which rule fired and map
 * it to its own reason (EMAIL_EXISTS, MEMBER_EXISTS, …) without parsing messages.
 *
 * On PostgreSQL the surrounding transaction is aborted by the failed statement: let the error
 * leave the transaction (it rolls back) rather than issuing more queries in it.
 */
export class UniqueViolation extends Error {
  readonly constraint: string;

  constructor(constraint: string, options?: { cause?: unknown }) {
    super(`unique constraint violated: ${constraint}`, options);
    this.name = "UniqueViolation";
    this.constraint = constraint;
  }
}

const UNIQUE_VIOLATION = "23505";

/** Runs a write and turns a 23505 from the driver into UniqueViolation; other errors pass. */
export async function translateUniqueViolation<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    // TypeORM wraps the pg error in QueryFailedError and copies its fields; read either shape.
    const e = err as { code?: unknown; constraint?: unknown; driverError?: { code?: unknown; constraint?: unknown } };
    const source = e?.driverError ?? e;
    if (source?.code === UNIQUE_VIOLATION) {
      throw new UniqueViolation(typeof source.constraint === "string" ? source.constraint : "unknown", { cause: err });
    }
    throw err;
  }
}

// Connection failures (SQLSTATE class 08, server shutting down or starting up), a statement
// cancelled by statement_timeout (57014), socket errors, the client's own timeouts
// (db-timeouts.ts) and a closed data source mean "try again later", not a bug.
const UNAVAILABLE_SQLSTATES = /^(08...|57P0[1-3]|57014)$/;
const UNAVAILABLE_ERRNOS = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH"]);
const UNAVAILABLE_NAMES = new Set(["CannotExecuteNotConnectedError", "ConnectionIsNotSetError"]);

/** True when the database could not be reached, as opposed to a query that failed. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { name?: unknown; code?: unknown; message?: unknown; driverError?: { code?: unknown } };
  if (!e || typeof e !== "object") return false;
  if (typeof e.name === "string" && UNAVAILABLE_NAMES.has(e.name)) return true;
  const code = e.driverError?.code ?? e.code;
  if (typeof code === "string" && (UNAVAILABLE_SQLSTATES.test(code) || UNAVAILABLE_ERRNOS.has(code))) return true;
  const message = typeof e.message === "string" ? e.message : "";
  return /Connection terminated|Cannot use a pool after calling end|timeout exceeded when trying to connect|Driver not Connected|Query read timeout|is not queryable/.test(
    message,
  );
}
