// "Continue with {name}" for each of the project's SSO connections. They are plain links: the
// browser leaves for the provider by GET, and the callback comes back to the sso page.
import { h, link } from "../shared/dom.js";
import { pageUrl, type Page } from "./context.js";

/** `divider` sets the links apart ("or") when nothing above them already does. */
export function ssoLinks(page: Page, divider = false): HTMLElement | null {
  if (page.config.sso_connections.length === 0) return null;
  const items = page.config.sso_connections.map((connection) =>
    h(
      "li",
      {},
      link(`Continue with ${connection.name}`, authorizeHref(page, connection.id), { class: "button secondary" }),
    ),
  );
  const list = h("ul", { class: "sso", "aria-label": "Single sign-on" }, ...items);
  return divider ? h("div", {}, h("p", { class: "divider" }, h("span", {}, "or")), list) : list;
}

function authorizeHref(page: Page, connectionId: string): string {
  const query = new URLSearchParams({
    login_id: page.config.login_id,
    connection_id: connectionId,
    redirect_url: pageUrl(page, "sso", true),
  });
  return `/v1/auth/sso/authorize?${query}`;
}
