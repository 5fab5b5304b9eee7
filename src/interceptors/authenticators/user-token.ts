import type { Project } from "../../domain/account.js";
import { DomainError } from "../../domain/errors.js";
import type { UserPrincipal } from "../context.js";
import { bearerToken } from "./bearer.js";

/** Checks an end user's access token (flows/auth/verify-access-token.ts). */
export interface UserTokenVerifier {
  verify(project: Project, token: string): Promise<UserPrincipal | undefined>;
}

/**
 * The end user's access token that comes beside a project credential (an API key or the hosted
 * pages' login_id): none without a header, else a valid token of that project or
 * INVALID_ACCESS_TOKEN. A header that is present is never ignored.
 */
export async function userFor(
  userTokens: UserTokenVerifier,
  project: Project,
  authorization: string | null,
): Promise<UserPrincipal | undefined> {
  if (authorization === null) return undefined;
  const token = bearerToken(authorization);
  const user = token === undefined ? undefined : await userTokens.verify(project, token);
  if (!user) {
    throw new DomainError(
      "INVALID_ACCESS_TOKEN",
      "the access token is invalid or expired; send it as Authorization: Bearer <access_token>, or send no Authorization header",
    );
  }
  return user;
}

export function missingAccessToken(): DomainError {
  return new DomainError(
    "MISSING_ACCESS_TOKEN",
    "this operation needs the user's access token in Authorization: Bearer",
  );
}
