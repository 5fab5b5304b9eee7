// The consent page (`/consent?oauth={uid}`): the OpenID Provider sends a signed-in user here when
// an application asks for access the user has not granted it yet. It names the application and
// what it asks for in plain words; "Allow" and "Deny" both go back through the engine, which
// remembers an approval and answers a denial to the application with access_denied.
import { alertParagraph, footer, h, paragraph, showView, statusRegion } from "../shared/dom.js";
import { explain, OAUTH_EXPIRED } from "../shared/errors.js";
import { Form } from "../shared/form.js";
import { pageUrl, type Page } from "./context.js";
import { answerConsent, oauthDetails, type OAuthDetails } from "./oauth.js";

const TITLE = "Authorize application";

/** What each scope lets the application do, as the person reads it. */
const SCOPE_WORDS: Record<string, string> = {
  openid: "Confirm who you are",
  email: "See your email address",
  profile: "See your name and profile",
  offline_access: "Stay connected when you are not using it",
  app_metadata: "See your account's plan and settings kept by this service",
};

export async function showConsent(page: Page): Promise<void> {
  if (!page.config.oauth) {
    showView(TITLE, alertParagraph(OAUTH_EXPIRED));
    return;
  }
  showView(TITLE, statusRegion("Loading…"));
  let details: OAuthDetails;
  try {
    details = await oauthDetails(page);
  } catch (error) {
    showView(TITLE, alertParagraph(explain(error).message));
    return;
  }
  // Not signed in (any more): the sign-in comes first, and the engine sends the person back.
  if (details.prompt === "login") return location.replace(pageUrl(page, "login"));
  const name = details.client.name || details.client.client_id || "This application";
  const form = new Form({
    id: "consent",
    fields: [],
    buttons: [
      { label: "Allow", value: "allow" },
      { label: "Deny", value: "deny", secondary: true },
    ],
  });
  form.onSubmit(async (action) => answerConsent(page, action === "allow"));
  const scopes = [...new Set(details.scopes)];
  const asks = `${name} wants to use your ${page.config.display_name} account.`;
  const heading = showView(
    `Authorize ${name}`,
    paragraph(scopes.length > 0 ? `${asks} If you allow it, it can:` : asks),
    scopes.length > 0 && h("ul", { class: "scopes" }, ...scopes.map((s) => h("li", {}, wordsFor(s)))),
    form.element,
    footer("Allow it only if you trust it. Deny goes back without sharing anything."),
  );
  const logo = logoOf(details.client.logo_uri, name);
  if (logo) heading.before(logo);
}

function wordsFor(scope: string): string {
  return SCOPE_WORDS[scope] ?? `Use “${scope}”`;
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
  const img = h("img", { class: "client-logo", src: url.href, alt: `${name} logo` });
  img.addEventListener("error", () => img.remove());
  return img;
}
