// Signing out: the application sends the browser here with `#refresh_token=…`; revoking it
// ends the session's refreshes.
import { footer, link, showView, statusRegion } from "../shared/dom.js";
import { Form } from "../shared/form.js";
import { takeFromUrl } from "../shared/redirect.js";
import { pageUrl, type Page } from "./context.js";

export async function showLogout(page: Page): Promise<void> {
  const token = takeFromUrl().fragment.get("refresh_token");
  if (token) {
    showView("Signing out", statusRegion("Signing you out…"));
    try {
      await page.auth.revokeToken({ token });
    } catch (error) {
      return showRetry(page, token, error);
    }
  }
  showSignedOut(page);
}

function showSignedOut(page: Page): void {
  showView("Signed out", statusRegion("You are signed out."), footer(link("Sign in again", pageUrl(page, "login"))));
}

function showRetry(page: Page, token: string, error: unknown): void {
  const form = new Form({ id: "logout", fields: [], buttons: [{ label: "Sign out" }] });
  form.onSubmit(async () => {
    await page.auth.revokeToken({ token });
    showSignedOut(page);
  });
  showView("Sign out", form.element);
  form.failWith(error);
}
