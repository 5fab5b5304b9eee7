import { Role } from "../../../gen/gatehouse/options/v1/options_pb.js";
import type { Clock } from "../../domain/clock.js";
import { DomainError } from "../../domain/errors.js";
import { hashToken } from "../../crypto/tokens.js";
import type { Repositories } from "../../store/repositories/index.js";
import type { MemberPrincipal } from "../../domain/principals.js";
import type { Authenticator } from "./authenticator.js";
import { bearerToken } from "./bearer.js";
import { CONSOLE_HINT, requireOrigin } from "./origin.js";

export interface ManagementTokenDeps {
  managementTokens: Repositories["managementTokens"];
  clock: Clock;
  /** The console's origins: the only browser pages the Account interface answers. */
  consoleOrigins: readonly string[];
}

/**
 * An organization member's management token in `Authorization: Bearer`, on the Account
 * interface. It is read from the database on every request, so a revoke or an expiry counts
 * at once. The origin is judged before the token: a foreign page's request does no work.
 */
export function managementTokenAuthenticator(deps: ManagementTokenDeps): Authenticator {
  return {
    presented: (request) => request.authorization !== null,
    async authenticate(request) {
      requireOrigin(request.record, request.origin, deps.consoleOrigins, CONSOLE_HINT);
      const member = await memberFor(deps, request.authorization);
      if (request.access.role === Role.ADMIN && member.member.role !== "admin") {
        throw new DomainError("ROLE_REQUIRED", "this operation needs the admin role");
      }
      return { member };
    },
  };
}

/** The member behind `Authorization`, or MISSING_ / INVALID_MANAGEMENT_TOKEN (also the console's). */
export async function memberFor(
  deps: Pick<ManagementTokenDeps, "managementTokens" | "clock">,
  authorization: string | null,
): Promise<MemberPrincipal> {
  if (authorization === null) {
    throw new DomainError("MISSING_MANAGEMENT_TOKEN", "send the management token in Authorization: Bearer");
  }
  const token = bearerToken(authorization);
  const found = token === undefined ? null : await deps.managementTokens.findActive(hashToken(token), deps.clock.now());
  if (!found)
    throw new DomainError(
      "INVALID_MANAGEMENT_TOKEN",
      "the management token is invalid or expired; send it as Authorization: Bearer <token>",
    );
  return { member: found.member, organizationId: found.organizationId, tokenId: found.id };
}
