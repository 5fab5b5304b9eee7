import { pino, type Logger } from "pino";

// Structured JSON logs. Log lines carry ids, names and codes only; the redact list is a
// second line of defence should a secret-bearing object ever be logged by mistake.
//
// Written asynchronously: under load, lines written while a write is in flight go out together
// in the next one instead of one blocking write(2) per request line. pino flushes what is
// pending when the process exits; only a SIGKILL can lose the last lines.
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      base: { service: "gatehouse" },
      timestamp: pino.stdTimeFunctions.isoTime,
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
    pino.destination({ dest: 1, sync: false }),
  );
}

export type { Logger };
