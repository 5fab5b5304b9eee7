import type { User } from "../../domain/auth.js";

/** The claims each scope releases (OpenID Connect Core 5.4), as the discovery document lists them. */
export const SCOPE_CLAIMS = {
  openid: ["sub"],
  email: ["email", "email_verified"],
  profile: ["name", "picture", "locale", "updated_at"],
  app_metadata: ["app_metadata"],
} as const;

/**
 * A user's claims for the scopes granted. `name`, `picture` and `locale` come from the user's
 * metadata when it holds strings under those keys (the user writes them); nothing else of the
 * metadata is released. `app_metadata` (written by admins only) goes to clients allowed the
 * `app_metadata` scope.
 */
export function userClaims(user: User, scopes: ReadonlySet<string>): Record<string, unknown> {
  const claims: Record<string, unknown> = { sub: user.id };
  if (scopes.has("email")) {
    claims.email = user.email;
    claims.email_verified = user.emailVerified;
  }
  if (scopes.has("profile")) {
    for (const key of ["name", "picture", "locale"] as const) {
      const value = user.metadata[key];
      if (typeof value === "string" && value) claims[key] = value;
    }
    claims.updated_at = Math.floor(user.updatedAt.getTime() / 1000);
  }
  if (scopes.has("app_metadata")) claims.app_metadata = user.appMetadata;
  return claims;
}
