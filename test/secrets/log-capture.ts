import { Writable } from "node:stream";
import { createLogger, type Logger } from "../../src/log.js";

export interface CapturedLog {
  /** The service's logger, at `level`, writing here instead of to stdout. */
  logger: Logger;
  /** Every line written so far, as written (JSON text). */
  text(): string;
  lines(): Array<Record<string, unknown>>;
}

/** The logger the service makes (src/log.ts, redaction and serializers included), captured. */
export function captureLog(level = "trace"): CapturedLog {
  let written = "";
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written += chunk.toString("utf8");
      done();
    },
  });
  return {
    logger: createLogger(level, sink),
    text: () => written,
    lines: () =>
      written
        .split("\n")
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
