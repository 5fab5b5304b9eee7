// Signing out: the application sends the browser here with `#refresh_token=…` (and, best,
// `&access_token=…`). Revoking the refresh token ends the session's refreshes; revoking the
// access token too makes VerifyToken refuse it at once rather than at its expiry.
import { footer, link, showView, statusRegion } from "../shared/dom.js";
import { Form } from "../shared/form.js";
import { takeFromUrl } from "../shared/redirect.js";
import { pageUrl, type Page } from "./context.js";
import { t } from "../shared/words.js";

export async function showLogout(page: Page): Promise<void> {
  const { fragment } = takeFromUrl();
  const tokens = ["refresh_token", "access_token"].map((name) => fragment.get(name)).filter((t): t is string => !!t);
  if (tokens.length > 0) {
    showView(t("logout.signingOut"), statusRegion(t("logout.signingYouOut")));
    try {
      await revokeAll(page, tokens);
    } catch (error) {
      return showRetry(page, tokens, error);
    }
  }
  showSignedOut(page);
}

function showSignedOut(page: Page): void {
  showView(
    t("logout.signedOut"),
    statusRegion(t("logout.youAreSignedOut")),
    footer(link(t("logout.signInAgain"), pageUrl(page, "login"))),
  );
}

async function revokeAll(page: Page, tokens: string[]): Promise<void> {
  for (const token of tokens) await page.auth.revokeToken({ token });
}

function showRetry(page: Page, tokens: string[], error: unknown): void {
  const form = new Form({ id: "logout", fields: [], buttons: [{ label: t("title.logout") }] });
  form.onSubmit(async () => {
    await revokeAll(page, tokens);
    showSignedOut(page);
  });
  showView(t("title.logout"), form.element);
  form.failWith(error);
}
