// The project pages' bundle: one script for every page, which reads the page's settings and
// draws the page they name.
import { authClient } from "../shared/client.js";
import { readConfig, type ProjectConfig, type ProjectPage } from "../shared/config.js";
import { alertParagraph, setSiteName, showView } from "../shared/dom.js";
import { explain } from "../shared/errors.js";
import { applyAccent } from "../shared/theme.js";
import type { Page } from "./context.js";
import { showForgotPassword } from "./forgot-password.js";
import { showLogin } from "./login.js";
import { showLogout } from "./logout.js";
import { showMagicLink } from "./magic-link.js";
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
};

const config = readConfig<ProjectConfig>();
applyAccent(config.accent_color);
setSiteName(config.display_name);
const page: Page = { config, auth: authClient(config.login_id) };
try {
  await (VIEWS[config.page] ?? showLogin)(page);
} catch (error) {
  showView("Something went wrong", alertParagraph(explain(error).message));
}
