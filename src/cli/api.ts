import type { DescMessage, JsonValue, MessageShape } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import type { AccountService } from "../../gen/gatehouse/account/v1/account_pb.js";

/** The Account interface as a client calls it: the CLI's commands that mirror an RPC call it. */
export type AccountClient = Client<typeof AccountService>;

/**
 * The API as the operator calls it: the router the server serves, in this process, behind the
 * same interceptors (credentials, validation, audit, errors), with the operator as the caller.
 * The composition root builds it (src/operator-api.ts); the CLI knows only this.
 */
export interface OperatorApi {
  /** The Account interface as the administrator of `organizationId`, on behalf of the operating-system account `operator`. */
  account(organizationId: string, operator: string): AccountClient;
  /** An answer's JSON as the REST paths write it (the router's JSON options): what `--json` prints. */
  restJson<D extends DescMessage>(schema: D, message: MessageShape<D>): JsonValue;
}
