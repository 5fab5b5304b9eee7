// The consent page (`/consent?oauth={uid}`): the OpenID Provider sends a signed-in user here when
// an application asks for access the user has not granted it yet. It names the application and
// what it asks for in plain words; "Allow" and "Deny" both go back through the engine, which
// remembers an approval and answers a denial to the application with access_denied.
import { alertParagraph, footer, h, paragraph, showView, statusRegion } from "../shared/dom.js";
import { explain, oauthExpired } from "../shared/errors.js";
import { Form } from "../shared/form.js";
import { pageUrl, type Page } from "./context.js";
import { answerConsent, oauthDetails, type OAuthDetails } from "./oauth.js";
import { t } from "../shared/words.js";

const TITLE = "title.consent";

/** What each scope lets the application do, as the person reads it (catalog keys). */
const SCOPE_WORDS: Record<string, string> = {
  openid: "scope.openid",
  email: "scope.email",
  profile: "scope.profile",
  offline_access: "scope.offline_access",
  app_metadata: "scope.app_metadata",
};

export async function showConsent(page: Page): Promise<void> {
  if (!page.config.oauth) {
    showView(t(TITLE), alertParagraph(oauthExpired()));
    return;
  }
  showView(t(TITLE), statusRegion(t("common.loading")));
  let details: OAuthDetails;
  try {
    details = await oauthDetails(page);
  } catch (error) {
    showView(t(TITLE), alertParagraph(explain(error).message));
    return;
  }
  // Not signed in (any more): the sign-in comes first, and the engine sends the person back.
  if (details.prompt === "login") return location.replace(pageUrl(page, "login"));
  const name = details.client.name || details.client.client_id || t("common.thisApplication");
  const form = new Form({
    id: "consent",
    fields: [],
    buttons: [
      { label: t("consent.allow"), value: "allow" },
      { label: t("consent.deny"), value: "deny", secondary: true },
    ],
  });
  form.onSubmit(async (action) => answerConsent(page, action === "allow"));
  const scopes = [...new Set(details.scopes)];
  const asking = { application: name, project: page.config.display_name };
  const heading = showView(
    t("consent.heading", { application: name }),
    paragraph(t(scopes.length > 0 ? "consent.wantsCan" : "consent.wants", asking)),
    scopes.length > 0 && h("ul", { class: "scopes" }, ...scopes.map((s) => h("li", {}, wordsFor(s)))),
    form.element,
    footer(t("consent.trust")),
  );
  const logo = logoOf(details.client.logo_uri, name);
  if (logo) heading.before(logo);
}

function wordsFor(scope: string): string {
  const key = SCOPE_WORDS[scope];
  return key ? t(key) : t("scope.other", { scope });
}

/**
 * The application's logo, only from https or Gatehouse's own origin (a plain-http image could
 * be swapped on the way); one that does not load is left out rather than shown broken.
 */
function logoOf(uri: string, name: string): HTMLImageElement | null {
  let url: URL;
  try {
    url = new URL(uri, location.href);
  } catch {
    return null;
  }
  if (!uri || (url.protocol !== "https:" && url.origin !== location.origin)) return null;
  const img = h("img", { class: "client-logo", src: url.href, alt: t("consent.logo", { application: name }) });
  img.addEventListener("error", () => img.remove());
  return img;
}
