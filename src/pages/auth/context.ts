// What every project page step needs: the page's settings and a client that speaks for it.
import type { AuthClient } from "../shared/client.js";
import type { ProjectConfig, ProjectPage } from "../shared/config.js";
import { forward, tokenFragment, type Tokens } from "../shared/redirect.js";
import { continueOAuth, type OAuthDetails } from "./oauth.js";

export interface Page {
  config: ProjectConfig;
  auth: AuthClient;
  /** The OAuth authorization this sign-in is for, as the engine described it (`?oauth=`; main.ts). */
  oauth?: OAuthDetails;
}

/**
 * Another hosted page of this project, carrying the `?redirect_url=` this one was opened with
 * so the application's chosen destination survives the detour, and the `?oauth=` of an OAuth
 * authorization in progress, so the sign-in there still ends at the engine, and the `?lang=`
 * the link asked for. `absolute` for
 * links that leave in an email or come back from SSO.
 */
export function pageUrl(page: Page, target: ProjectPage, absolute = false): string {
  const path = `${page.config.base}/${target}`;
  const params = new URLSearchParams();
  if (page.config.redirect_override) params.set("redirect_url", page.config.redirect_override);
  if (page.config.oauth) params.set("oauth", page.config.oauth);
  // A language the link chose stays chosen; one the browser chose is chosen again there.
  if (page.config.lang_param) params.set("lang", page.config.lang_param);
  const query = params.toString();
  return `${absolute ? location.origin : ""}${path}${query ? `?${query}` : ""}`;
}

/**
 * Hands a finished sign-in's tokens to the application, or, in an OAuth authorization, its
 * access token to the engine, which says where the browser goes next.
 */
export async function finish(page: Page, tokens: Tokens): Promise<void> {
  if (page.config.oauth) return continueOAuth(page, tokens.accessToken ?? "");
  forward(page.config.redirect_url, tokenFragment(tokens));
}
