// Where an SSO sign-in comes back: the callback put its answer in the fragment (tokens, an MFA
// challenge, or an error), which only this page's script can read.
import { alertParagraph, footer, link, showView } from "../shared/dom.js";
import { explain, ssoFailed } from "../shared/errors.js";
import { forward, takeFromUrl } from "../shared/redirect.js";
import { pageUrl, type Page } from "./context.js";
import { signedIn } from "./outcome.js";

export async function showSso(page: Page): Promise<void> {
  const raw = location.hash.slice(1);
  const { fragment } = takeFromUrl();
  const back = () => footer(link("Back to sign in", pageUrl(page, "login")));
  if (fragment.has("access_token")) return forward(page.config.redirect_url, raw);
  const mfaToken = fragment.get("mfa_token");
  if (fragment.get("mfa_required") === "true" && mfaToken) {
    const methods = (fragment.get("mfa_methods") ?? "").split(",").filter(Boolean);
    try {
      await signedIn(page, { mfaRequired: true, mfaToken, mfaMethods: methods });
    } catch (error) {
      showView("Single sign-on", alertParagraph(explain(error).message), back());
    }
    return;
  }
  const description =
    fragment.get("error_description") || fragment.get("error") || "no answer came back from the identity provider.";
  showView("Single sign-on", alertParagraph(ssoFailed(description)), back());
}
