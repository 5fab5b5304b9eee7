import type { Readable } from "node:stream";
import type { Config } from "../config.js";
import type { AuditOrigin } from "../domain/audit.js";
import type { FlowDeps } from "../flows/deps.js";
import type { Logger } from "../log.js";
import type { Output } from "./output.js";

/** What a command runs with. */
export interface CliContext {
  config: Config;
  logger: Logger;
  output: Output;
  /**
   * The service's dependencies on the service's database, opened on first use and closed after
   * the command; or, run inside the server (`served`), the server's own, left open.
   */
  deps(): Promise<FlowDeps>;
  /** The operator, for the audit events the command's flows record. */
  origin: AuditOrigin;
  /** The operator's working directory, which relative file names are relative to. */
  cwd: string;
  /** The operator's standard input. */
  stdin(): Readable;
  /** Run inside the running server, through its operator channel. */
  served: boolean;
}
