import type { Project } from "../domain/account.js";
import { DomainError } from "../domain/errors.js";
import { hostedPagesPath, isAllowedRedirect } from "../domain/redirects.js";
import { relyingParty } from "../domain/relying-party.js";
import type { FlowDeps } from "../flows/deps.js";
import type { NodeResponse } from "../transport/error-body.js";
import { setPageHeaders } from "./headers.js";
import { answerInWords } from "./message.js";
import { renderShell } from "./shell.js";

/** The project pages and their titles; the page's script picks its view by name. */
export const PROJECT_PAGES = {
  login: "Sign in",
  signup: "Create an account",
  "forgot-password": "Reset your password",
  "reset-password": "Choose a new password",
  "verify-email": "Verify your email",
  "magic-link": "Signing you in",
  sso: "Signing you in",
  logout: "Sign out",
  // Opened by the application with the user's access token in the fragment (docs/pages.md).
  security: "Passkeys",
  // Where the OpenID Provider sends a signed-in user to approve an application (`?oauth={uid}`).
  consent: "Authorize application",
} as const;

export type ProjectPage = keyof typeof PROJECT_PAGES;

export const PROJECT_PAGE_PATH = /^\/v1\/auth\/(lp_[0-9a-z]{26})\/([a-z-]+)$/;

/**
 * An OAuth authorization in progress (`?oauth={uid}`, docs/pages.md "Signing in for an OAuth
 * application"): the engine's interaction id, URL-safe characters only, since the page puts it
 * in the path of the interaction's endpoints.
 */
const OAUTH_UID = /^[A-Za-z0-9_-]{1,128}$/;

/** How many SSO connections the sign-in page offers (newest first). */
const MAX_SSO_BUTTONS = 20;

// GET /v1/auth/{login_id}/{page}: the shell with what the page's script needs. The final
// destination (`?redirect_url=`, or the project's) is checked here, before the page exists, so
// the script can send tokens to `redirect_url` without judging it; a page opened with one the
// project does not allow answers in words and never runs.
export async function serveProjectPage(
  deps: FlowDeps,
  loginId: string,
  page: string,
  url: URL,
  res: NodeResponse,
): Promise<void> {
  const project = await deps.db.repos.projects.getByLoginId(loginId);
  if (!project)
    return answerInWords(
      res,
      404,
      "Page not found",
      "There is no sign-in page at this address. Check the link you followed.",
    );
  const brand = { name: project.displayName || project.name, logoUrl: project.logoUrl };
  if (!isProjectPage(page))
    return answerInWords(
      res,
      404,
      "Page not found",
      "There is no such page. Go back to the sign-in page and try again.",
      brand,
    );
  const override = url.searchParams.get("redirect_url") ?? "";
  if (override !== "" && (override.length > 2048 || !isAllowedRedirect(project, override))) {
    return answerInWords(
      res,
      400,
      "This link cannot be used",
      "It would send you to an address this application does not allow. Ask the application for a new link.",
      brand,
    );
  }
  const oauth = url.searchParams.get("oauth") ?? "";
  if (oauth !== "" && !OAUTH_UID.test(oauth))
    return answerInWords(
      res,
      400,
      "This link cannot be used",
      "This sign-in request has expired. Go back to the application and start again.",
      brand,
    );
  const connections =
    page === "login" || page === "signup"
      ? await deps.db.repos.ssoConnections.list(project.organizationId, project.id, { limit: MAX_SSO_BUTTONS })
      : [];
  // The consent page shows the application's logo, wherever the client registered it (https).
  setPageHeaders(res, project.logoUrl, page === "consent");
  const html = renderShell({
    title: PROJECT_PAGES[page],
    brand: brand.name,
    logoUrl: project.logoUrl,
    bundle: "auth.js",
    config: {
      page,
      login_id: project.loginId,
      base: hostedPagesPath(project.loginId).slice(0, -1),
      display_name: brand.name,
      logo_url: project.logoUrl,
      accent_color: project.accentColor,
      mfa_required: project.mfaRequired,
      bot_protection: project.botProtection,
      password_signups: project.signups !== "closed" && project.signupMethods.includes("password"),
      sso_connections: connections.map((c) => ({ id: c.id, name: c.name })),
      passkeys: passkeysOnPages(project, deps.config.publicUrl),
      redirect_url: override || project.redirectUrl,
      redirect_override: override,
      oauth,
    },
  });
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
}

/**
 * Whether a ceremony started from these pages can succeed: the relying party the server picks
 * for a request from the pages' origin must cover that origin, or the browser refuses it (an
 * IP address or plain http elsewhere than localhost, or a passkey_rp_id for other hosts). The
 * pages then show no passkey button rather than one that always fails.
 */
function passkeysOnPages(project: Project, publicUrl: string): boolean {
  const pages = new URL(publicUrl).origin;
  try {
    return relyingParty(project, publicUrl, pages).origins.includes(pages);
  } catch (error) {
    if (error instanceof DomainError) return false;
    throw error;
  }
}

function isProjectPage(page: string): page is ProjectPage {
  return Object.hasOwn(PROJECT_PAGES, page);
}
