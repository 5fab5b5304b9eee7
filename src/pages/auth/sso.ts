// Where an SSO sign-in comes back: the callback put its answer in the fragment (tokens, an MFA
// challenge, or an error), which only this page's script can read. The tokens go on to the
// application, or, with `?oauth=`, the access token to the OpenID Provider (auth/oauth.ts).
import { alertParagraph, footer, link, showView, statusRegion } from "../shared/dom.js";
import { explain, ssoFailed } from "../shared/errors.js";
import { forward, takeFromUrl } from "../shared/redirect.js";
import { finish, pageUrl, type Page } from "./context.js";
import { signedIn } from "./outcome.js";
import { t } from "../shared/words.js";

export async function showSso(page: Page): Promise<void> {
  const raw = location.hash.slice(1);
  const { fragment } = takeFromUrl();
  const back = () => footer(link(t("common.backToSignIn"), pageUrl(page, "login")));
  const attempt = async (step: () => Promise<void>) => {
    try {
      await step();
    } catch (error) {
      showView(t("sso.title"), alertParagraph(explain(error).message), back());
    }
  };
  const accessToken = fragment.get("access_token");
  if (accessToken) {
    if (!page.config.oauth) return forward(page.config.redirect_url, raw);
    // An OAuth authorization, its `?oauth=` carried through the provider in this page's
    // address: the engine takes the access token.
    showView(t("sso.title"), statusRegion(t("sso.signingIn")));
    return attempt(() => finish(page, { accessToken }));
  }
  const mfaToken = fragment.get("mfa_token");
  if (fragment.get("mfa_required") === "true" && mfaToken) {
    const methods = (fragment.get("mfa_methods") ?? "").split(",").filter(Boolean);
    return attempt(() => signedIn(page, { mfaRequired: true, mfaToken, mfaMethods: methods }));
  }
  const description = fragment.get("error_description") || fragment.get("error") || t("sso.noAnswer");
  showView(t("sso.title"), alertParagraph(ssoFailed(description)), back());
}
