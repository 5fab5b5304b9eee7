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
  /** The service's dependencies on the service's database, opened on first use and closed after the command. */
  deps(): Promise<FlowDeps>;
  /** The operator, for the audit events the command's flows record. */
  origin: AuditOrigin;
}
