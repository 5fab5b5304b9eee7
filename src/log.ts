import { AsyncLocalStorage } from "node:async_hooks";
import { pino, type Logger } from "pino";
import { batchedStdout } from "./log-destination.js";

// The request a line is written for, wherever it is written from: a flow, the SQL logger, the
// error interceptor. The HTTP handler runs each request inside runInRequest, and every line
// logged while it runs carries its `request_id` without being handed a logger of its own.
const currentRequest = new AsyncLocalStorage<string>();

/** Runs `fn` (and everything it awaits) as part of the request: log lines carry its id. */
export function runInRequest<T>(requestId: string, fn: () => T): T {
  return currentRequest.run(requestId, fn);
}

function requestIdField(): { request_id?: string } {
  const id = currentRequest.getStore();
  return id === undefined ? {} : { request_id: id };
}

// Structured JSON logs. Log lines carry ids, names and codes only; the redact list is a
// second line of defence should a secret-bearing object ever be logged by mistake.
//
// Written asynchronously, one write per turn of the event loop (log-destination.ts): under load,
// the lines of many requests go out together instead of one write per request line. What is
// pending when the process exits is flushed then; only a SIGKILL can lose the last lines.
export function createLogger(level: string, destination: pino.DestinationStream = batchedStdout()): Logger {
  return pino(
    {
      level,
      base: { service: "gatehouse" },
      mixin: requestIdField,
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: errorWithoutValues },
      redact: {
        paths: [
          "password",
          "*.password",
          "token",
          "*.token",
          "key",
          "*.key",
          // Not "code": request lines use it for the status code.
          "otp",
          "*.otp",
          "recovery_codes",
          "*.recovery_codes",
          "secret",
          "*.secret",
          "headers.authorization",
          'headers["x-service-key"]',
        ],
        censor: "[redacted]",
      },
    },
    destination,
  );
}

// A failed query's error carries what was sent and found: TypeORM's QueryFailedError its
// `parameters` (password and token hashes, emails), pg's DatabaseError a `detail` naming the
// clashing row's values ("Key (email)=(…) already exists"), `where` and `internalQuery` the
// statement's context. The log keeps the message, the SQLSTATE code and the query text only.
const VALUE_FIELDS = new Set(["parameters", "detail", "where", "internalQuery"]);

function errorWithoutValues(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  return withoutValues(pino.stdSerializers.err(value), 0);
}

function withoutValues(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== "object" || depth > 8) return value;
  if (Array.isArray(value)) return value.map((item) => withoutValues(item, depth + 1));
  const kept: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (!VALUE_FIELDS.has(key)) kept[key] = withoutValues(field, depth + 1);
  }
  return kept;
}

export type { Logger };
