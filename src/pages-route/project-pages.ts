import type { Project } from "../domain/account.js";
import { DomainError } from "../domain/errors.js";
import { hostedPagesPath, isAllowedRedirect } from "../domain/redirects.js";
import { pagesOrigins, relyingParty } from "../domain/relying-party.js";
import type { FlowDeps } from "../flows/deps.js";
import type { NodeResponse } from "../transport/error-body.js";
import { setPageHeaders } from "./headers.js";
import { choosePageLanguage } from "./language.js";
import { answerInWords } from "./message.js";
import { renderShell } from "./shell.js";
import { pageTranslator, pageWords } from "./words.js";

/** The project pages and their titles (catalog keys); the page's script picks its view by name. */
export const PROJECT_PAGES = {
  login: "title.login",
  signup: "title.signup",
  "forgot-password": "title.forgot-password",
  "reset-password": "title.reset-password",
  "verify-email": "title.verify-email",
  "magic-link": "title.magic-link",
  sso: "title.sso",
  logout: "title.logout",
  // Opened by the application with the user's access token in the fragment (docs/pages.md).
  security: "title.security",
  // Where the OpenID Provider sends a signed-in user to approve an application (`?oauth={uid}`).
  consent: "title.consent",
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
// project does not allow answers in words and never runs. The page speaks the language the
// address, the browser or the project chose (language.ts), and so do its pages in words.
export async function serveProjectPage(
  deps: FlowDeps,
  loginId: string,
  page: string,
  url: URL,
  res: NodeResponse,
  acceptLanguage?: string | string[],
  host?: string,
): Promise<void> {
  const project = await deps.db.repos.projects.getByLoginId(loginId);
  const speech = choosePageLanguage(url, acceptLanguage, project?.defaultLocale);
  const t = pageTranslator(speech.language);
  if (!project) return answerInWords(res, 404, t("server.notFound"), t("server.noProject"), undefined, speech);
  const brand = { name: project.displayName || project.name, logoUrl: project.logoUrl };
  const refuse = (status: number, title: string, text: string) =>
    answerInWords(res, status, t(title), t(text), brand, speech);
  if (!isProjectPage(page)) return refuse(404, "server.notFound", "server.noPage");
  const override = url.searchParams.get("redirect_url") ?? "";
  if (override !== "" && (override.length > 2048 || !isAllowedRedirect(project, override)))
    return refuse(400, "server.badLink", "server.redirectRefused");
  const oauth = url.searchParams.get("oauth") ?? "";
  if (oauth !== "" && !OAUTH_UID.test(oauth))
    return refuse(400, "server.badLink", "reason.AUTHORIZATION_REQUEST_EXPIRED");
  const connections =
    page === "login" || page === "signup"
      ? await deps.db.repos.ssoConnections.listInButtonOrder(project.organizationId, project.id, MAX_SSO_BUTTONS)
      : [];
  // The consent page shows the application's logo, wherever the client registered it (https).
  setPageHeaders(res, project.logoUrl, page === "consent");
  const html = renderShell({
    title: t(PROJECT_PAGES[page]),
    brand: brand.name,
    logoUrl: project.logoUrl,
    bundle: "auth.js",
    speech,
    noscript: t("shell.noscript"),
    config: {
      page,
      language: speech.language,
      lang_param: speech.langParam,
      words: pageWords(speech.language),
      login_id: project.loginId,
      base: hostedPagesPath(project.loginId).slice(0, -1),
      display_name: brand.name,
      logo_url: project.logoUrl,
      accent_color: project.accentColor,
      mfa_required: project.mfaRequired,
      bot_protection: project.botProtection,
      password_signups: project.signups !== "closed" && project.signupMethods.includes("password"),
      sso_connections: connections.map((c) => ({ id: c.id, name: c.name, provider: c.provider })),
      passkeys: passkeysOnPages(project, deps.config.publicUrl, host),
      // A code by SMS only where this server can send one: without SMS_WEBHOOK_URL it would
      // wait in the outbox while the person waits for it (/healthz counts such SMS).
      sms_codes: deps.config.smsWebhookUrl !== undefined,
      redirect_url: override || project.redirectUrl,
      redirect_override: override,
      oauth,
    },
  });
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
}

/**
 * Whether a ceremony started from this page can succeed: the relying party the server picks
 * for a request from the page's origin must cover that origin, or the browser refuses it (an
 * IP address or plain http elsewhere than localhost, or a passkey_rp_id for other hosts). The
 * page's origin is PUBLIC_URL's, or the project's own host the request named (pagesOrigins).
 * The pages then show no passkey button rather than one that always fails.
 */
function passkeysOnPages(project: Project, publicUrl: string, host?: string): boolean {
  const origins = pagesOrigins(project, publicUrl);
  const pages = origins.find((o) => host !== undefined && new URL(o).host === host.toLowerCase()) ?? origins[0];
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
