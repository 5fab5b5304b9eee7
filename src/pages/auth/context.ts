// What every project page step needs: the page's settings and a client that speaks for it.
import type { AuthClient } from "../shared/client.js";
import type { ProjectConfig, ProjectPage } from "../shared/config.js";
import { forward, tokenFragment, type Tokens } from "../shared/redirect.js";

export interface Page {
  config: ProjectConfig;
  auth: AuthClient;
}

/**
 * Another hosted page of this project, carrying the `?redirect_url=` this one was opened with
 * so the application's chosen destination survives the detour. `absolute` for links that
 * leave in an email.
 */
export function pageUrl(page: Page, target: ProjectPage, absolute = false): string {
  const path = `${page.config.base}/${target}`;
  const query = page.config.redirect_override
    ? `?${new URLSearchParams({ redirect_url: page.config.redirect_override })}`
    : "";
  return `${absolute ? location.origin : ""}${path}${query}`;
}

/** Hands a finished sign-in's tokens to the application. */
export function finish(page: Page, tokens: Tokens): void {
  forward(page.config.redirect_url, tokenFragment(tokens));
}
