// The project pages' bundle: one script for every page, which reads the page's settings and
// draws the page they name.
import { authClient } from "../shared/client.js";
import { readConfig, type ProjectConfig, type ProjectPage } from "../shared/config.js";
import { dropConsoleEntry } from "../shared/console-entry.js";
import { alertParagraph, setSiteName, showView } from "../shared/dom.js";
import { explain } from "../shared/errors.js";
import { applyAccent } from "../shared/theme.js";
import { t, useWords } from "../shared/words.js";
import { showConsent } from "./consent.js";
import { pageUrl, type Page } from "./context.js";
import { showForgotPassword } from "./forgot-password.js";
import { showLogin } from "./login.js";
import { showLogout } from "./logout.js";
import { showMagicLink } from "./magic-link.js";
import { oauthDetails } from "./oauth.js";
import { showResetPassword } from "./reset-password.js";
import { showSecurity } from "./security.js";
import { showSignup } from "./signup.js";
import { showSso } from "./sso.js";
import { showVerifyEmail } from "./verify-email.js";

const VIEWS: Record<ProjectPage, (page: Page) => void | Promise<void>> = {
  login: showLogin,
  signup: showSignup,
  "forgot-password": showForgotPassword,
  "reset-password": showResetPassword,
  "verify-email": showVerifyEmail,
  "magic-link": showMagicLink,
  sso: showSso,
  logout: showLogout,
  security: showSecurity,
  consent: showConsent,
};

/**
 * The pages where an OAuth authorization begins its sign-in: they ask the engine first, to name
 * the application, fill in its login_hint, and say at once when the authorization has expired.
 */
const OAUTH_ENTRIES = new Set<ProjectPage>(["login", "signup"]);

// Before anything else: a console's "Stay signed in" entry is never a project page's to find.
dropConsoleEntry();
const config = readConfig<ProjectConfig>();
useWords(config);
applyAccent(config.accent_color);
setSiteName(config.display_name);
const page: Page = { config, auth: authClient(config.login_id) };
try {
  await draw(page);
} catch (error) {
  showView(t("common.somethingWrong"), alertParagraph(explain(error).message));
}

async function draw(page: Page): Promise<void> {
  if (page.config.oauth && OAUTH_ENTRIES.has(page.config.page)) {
    try {
      page.oauth = await oauthDetails(page);
    } catch (error) {
      showView(
        t(page.config.page === "signup" ? "title.signup" : "title.login"),
        alertParagraph(explain(error).message),
      );
      return;
    }
    // Signed in already (Back after signing in): what is left is the approval.
    if (page.oauth.prompt === "consent") return location.replace(pageUrl(page, "consent"));
  }
  await (VIEWS[page.config.page] ?? showLogin)(page);
}
