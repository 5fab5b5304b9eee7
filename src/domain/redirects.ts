import type { Project } from "./account.js";
import { DomainError } from "./errors.js";

/**
 * Where a link or an SSO sign-in may send the browser: the project's `redirect_url`, an
 * override that shares its origin with it or with one of the project's `allowed_origins`
 * (API.md section 5), or one of the project's own hosted pages under
 * `{PUBLIC_URL}/v1/auth/{login_id}/` (docs/pages.md). Anything else is REDIRECT_NOT_ALLOWED,
 * so a sign-in link can never carry its token to a site the project did not name. `publicUrl`
 * is Gatehouse's own address; without it only the project's own origins count.
 */
export function allowedRedirect(project: Project, override: string, publicUrl?: string): string {
  if (override === "") return project.redirectUrl;
  if (isAllowedRedirect(project, override, publicUrl)) return override;
  throw new DomainError(
    "REDIRECT_NOT_ALLOWED",
    "redirect_url must share its origin with the project's redirect_url or one of its allowed_origins, or be one of the project's hosted pages",
  );
}

export function isAllowedRedirect(project: Project, url: string, publicUrl?: string): boolean {
  const parsed = parse(url);
  if (!parsed) return false;
  const origin = parsed.origin.toLowerCase();
  const allowed = [originOf(project.redirectUrl), ...project.allowedOrigins.map(originOf)];
  if (allowed.includes(origin)) return true;
  return (
    publicUrl !== undefined &&
    origin === originOf(publicUrl) &&
    parsed.pathname.startsWith(hostedPagesPath(project.loginId))
  );
}

/** The path every hosted page of a project starts with. */
export function hostedPagesPath(loginId: string): string {
  return `/v1/auth/${loginId}/`;
}

function parse(url: string): URL | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function originOf(url: string): string | undefined {
  return parse(url)?.origin.toLowerCase();
}
