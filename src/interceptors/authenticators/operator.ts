import { Credential } from "../../../gen/gatehouse/options/v1/options_pb.js";
import { DomainError } from "../../domain/errors.js";
import { kOperator } from "../operator-credential.js";
import type { Authenticator } from "./authenticator.js";

/**
 * The operator on the server's machine (the CLI, docs/cli.md), first in every row: presented
 * only by the CLI's in-process transport, which sets kOperator before the chain (no header can).
 * It may call what an organization's administrator calls with a management token, whatever the
 * role (whoever runs the CLI there can read the database anyway). An RPC about the calling member
 * itself, or of another credential kind, is refused: the operator is no member and holds no key.
 */
export const operatorAuthenticator: Authenticator = {
  presented: (request) => request.contextValues.get(kOperator) !== undefined,
  authenticate: (request) => {
    if (request.access.credential !== Credential.MANAGEMENT_TOKEN) {
      return Promise.reject(
        new DomainError(
          "MISSING_MANAGEMENT_TOKEN",
          "the operator acts as an organization's administrator: this operation needs a member's or a project's own credential",
        ),
      );
    }
    // Its principal is kOperator itself, already in the context.
    return Promise.resolve({});
  },
};
