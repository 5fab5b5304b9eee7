// "Continue with {name}" for each of the project's SSO connections, in the project's order,
// each with its provider's mark. They are plain links: the browser leaves for the provider by
// GET, and the callback comes back to the sso page.
import { h } from "../shared/dom.js";
import { t } from "../shared/words.js";
import { pageUrl, type Page } from "./context.js";
import { providerMark } from "./provider-marks.js";

/** `divider` sets the links apart ("or") when nothing above them already does. */
export function ssoLinks(page: Page, divider = false): HTMLElement | null {
  if (page.config.sso_connections.length === 0) return null;
  const items = page.config.sso_connections.map((connection) => {
    const mark = providerMark(connection.provider);
    const text = h("span", {}, t("sso.continueWith", { name: connection.name }));
    return h(
      "li",
      {},
      h(
        "a",
        { href: authorizeHref(page, connection.id), class: `button secondary sso-button ${mark.button}` },
        mark.svg,
        text,
      ),
    );
  });
  const list = h("ul", { class: "sso", "aria-label": t("sso.listLabel") }, ...items);
  return divider ? h("div", {}, h("p", { class: "divider" }, h("span", {}, t("common.or"))), list) : list;
}

function authorizeHref(page: Page, connectionId: string): string {
  const query = new URLSearchParams({
    login_id: page.config.login_id,
    connection_id: connectionId,
    redirect_url: pageUrl(page, "sso", true),
  });
  return `/v1/auth/sso/authorize?${query}`;
}
