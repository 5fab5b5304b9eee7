// A sign-in for an OAuth application (docs/pages.md "Signing in for an OAuth application"): the
// OpenID Provider sent the browser here with `?oauth={uid}`, its interaction. The pages talk to
// the interaction's JSON endpoints, on the path the engine scoped its interaction cookie to, so
// the cookie goes with each call and a page in another browser is refused. A finished sign-in
// hands the engine its access token; the engine answers where the browser goes next.
import { paragraph } from "../shared/dom.js";
import { explainHttp, networkFailure, oauthExpired, PageFailure } from "../shared/errors.js";
import { navigate } from "../shared/redirect.js";
import type { Page } from "./context.js";
import { pageLanguage, t } from "../shared/words.js";

export interface OAuthDetails {
  prompt: "login" | "consent";
  client: { client_id: string; name: string; logo_uri: string; first_party: boolean };
  scopes: string[];
  login_hint: string;
}

/** Whether this page belongs to an authorization in progress. */
export function inOAuth(page: Page): boolean {
  return page.config.oauth !== "";
}

/** "to continue to {application}" under a sign-in view's heading, once the engine has named it. */
export function continuingTo(page: Page): HTMLParagraphElement | null {
  const name = page.oauth?.client.name || page.oauth?.client.client_id;
  return name ? paragraph(t("common.continuingTo", { name }), { class: "continuing" }) : null;
}

/** The address the application suggested for the sign-in (`login_hint`), to fill the Email field. */
export function loginHint(page: Page): string {
  if (!page.config.oauth) return "";
  return new URLSearchParams(location.search).get("login_hint") || page.oauth?.login_hint || "";
}

/** What the engine is asking for and for which application. */
export async function oauthDetails(page: Page): Promise<OAuthDetails> {
  const details = await call<Partial<OAuthDetails>>(page, "details");
  return {
    prompt: details.prompt === "consent" ? "consent" : "login",
    client: {
      client_id: details.client?.client_id ?? "",
      name: details.client?.name ?? "",
      logo_uri: details.client?.logo_uri ?? "",
      first_party: details.client?.first_party === true,
    },
    scopes: Array.isArray(details.scopes) ? details.scopes.filter((s) => typeof s === "string") : [],
    login_hint: typeof details.login_hint === "string" ? details.login_hint : "",
  };
}

/**
 * The sign-in is done: the engine takes the access token (and binds the authorization to its
 * session), then the browser goes on. The refresh token stays with no one: the page drops it.
 */
export async function continueOAuth(page: Page, accessToken: string): Promise<void> {
  if (!accessToken) throw new PageFailure(oauthExpired());
  go(await call<{ redirect_to?: unknown }>(page, "login", { access_token: accessToken }));
}

/** The person allowed or denied the application; a denial goes back to it too (access_denied). */
export async function answerConsent(page: Page, approve: boolean): Promise<void> {
  go(await call<{ redirect_to?: unknown }>(page, "consent", { approve }));
}

function go(answer: { redirect_to?: unknown }): void {
  const to = typeof answer.redirect_to === "string" ? webAddress(answer.redirect_to) : undefined;
  if (!to) throw new PageFailure(t("oauth.noAddress"));
  navigate(to);
}

function webAddress(raw: string): string | undefined {
  try {
    const url = new URL(raw, location.href);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** GET (no body) or POST (JSON) to `{base}/oauth/interaction/{uid}/{step}`; failures as words. */
async function call<T>(page: Page, step: string, body?: unknown): Promise<T> {
  const url = `${page.config.base}/oauth/interaction/${encodeURIComponent(page.config.oauth)}/${step}`;
  const headers = { accept: "application/json", "accept-language": pageLanguage() };
  const init: RequestInit =
    body === undefined
      ? { credentials: "same-origin", headers }
      : {
          method: "POST",
          credentials: "same-origin",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify(body),
        };
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new PageFailure(networkFailure());
  }
  const json: unknown = await response.json().catch(() => undefined);
  if (!response.ok || typeof json !== "object" || json === null)
    throw new PageFailure(explainHttp(response.status, json, response.headers.get("retry-after")));
  return json as T;
}
