import { pino, type Logger } from "pino";

// Structured JSON logs. Log lines carry ids, names and codes only; the redact list is a
// second line of defence should a secret-bearing object ever be logged by mistake.
export function createLogger(level: string): Logger {
  return pino({
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
  });
}

export type { Logger };
