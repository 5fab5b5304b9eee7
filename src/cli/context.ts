import type { Readable } from "node:stream";
import type { DescMessage, JsonValue, MessageShape } from "@bufbuild/protobuf";
import type { Config } from "../config.js";
import type { AuditOrigin } from "../domain/audit.js";
import type { FlowDeps } from "../flows/deps.js";
import type { Logger } from "../log.js";
import type { AccountClient } from "./api.js";
import type { Output } from "./output.js";

/** What a command runs with. */
export interface CliContext {
  config: Config;
  logger: Logger;
  output: Output;
  /**
   * The service's dependencies on the service's database, opened on first use and closed after
   * the command; or, run inside the server (`served`), the server's own, left open. For what no
   * RPC does (the installation's commands, the scope of a command, `user import`).
   */
  deps(): Promise<FlowDeps>;
  /**
   * The Account interface as `organizationId`'s administrator, for the operator: a command that
   * mirrors an RPC calls it, so the API's credential check, validation, audit and errors apply.
   */
  account(organizationId: string): Promise<AccountClient>;
  /** An RPC's answer as its REST answer's JSON (after `account` was called): what `--json` prints. */
  restJson<D extends DescMessage>(schema: D, message: MessageShape<D>): JsonValue;
  /** The operator, for the audit events the flows of commands without an RPC record. */
  origin: AuditOrigin;
  /** The operator's working directory, which relative file names are relative to. */
  cwd: string;
  /** The operator's standard input. */
  stdin(): Readable;
  /** Run inside the running server, through its operator channel. */
  served: boolean;
}
