import { DomainError } from "../../../domain/errors.js";

/**
 * Who asks for a user-administration operation: an admin (the API key alone, no user token) or
 * the user behind a valid access token, which the credential interceptor has checked.
 */
export type UserActor = { kind: "admin" } | { kind: "user"; userId: string };

/**
 * A user token limits the request to that user's own record. Another id is ADMIN_REQUIRED,
 * decided before any lookup, so the answer tells nothing about whether that id exists.
 */
export function requireSelfOrAdmin(actor: UserActor, id: string, what: string): void {
  if (actor.kind === "user" && id !== actor.userId) {
    throw new DomainError("ADMIN_REQUIRED", `with a user access token, only the user's own ${what}`);
  }
}

/**
 * Whether the request acts as admin: the one place that decides it, for ListUsers, the
 * admin-only fields of UpdateUser (`disabled`, `app_metadata`) and an email change that takes
 * effect at once. (When keys come in kinds, this is where a secret key is required as well.)
 */
export function isAdmin(actor: UserActor): boolean {
  return actor.kind === "admin";
}

/** Operations over many users (ListUsers) and admin-only fields are for an admin only. */
export function adminOnly(actor: UserActor, what: string): void {
  if (!isAdmin(actor)) {
    throw new DomainError("ADMIN_REQUIRED", `${what} needs an admin: the API key without a user access token`);
  }
}
