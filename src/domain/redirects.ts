import type { Project } from "./account.js";
import { DomainError } from "./errors.js";

/**
 * Where a link or an SSO sign-in may send the browser: the project's `redirect_url`, or an
 * override that shares its origin with it or with one of the project's `allowed_origins`
 * (API.md section 5). Anything else is REDIRECT_NOT_ALLOWED, so a sign-in link can never
 * carry its token to a site the project did not name.
 */
export function allowedRedirect(project: Project, override: string): string {
  if (override === "") return project.redirectUrl;
  const origin = originOf(override);
  const allowed = [originOf(project.redirectUrl), ...project.allowedOrigins.map(originOf)];
  if (origin === undefined || !allowed.includes(origin)) {
    throw new DomainError("REDIRECT_NOT_ALLOWED", "redirect_url must share its origin with the project's redirect_url or one of its allowed_origins");
  }
  return override;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin.toLowerCase();
  } catch {
    return undefined;
  }
}
