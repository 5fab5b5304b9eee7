// The server renders each page's settings into a JSON block (never into script), so the bundle
// is the same file for every project and the page's CSP needs no inline script.
import type { PageLanguage } from "./words.js";

export type ProjectPage =
  | "login"
  | "signup"
  | "forgot-password"
  | "reset-password"
  | "verify-email"
  | "magic-link"
  | "sso"
  | "logout"
  | "security"
  | "consent";

export interface ProjectConfig extends PageLanguage {
  page: ProjectPage;
  login_id: string;
  /** The hosted pages' path prefix, `/v1/auth/{login_id}`. */
  base: string;
  display_name: string;
  logo_url: string;
  accent_color: string;
  mfa_required: boolean;
  /** The forms that send or sign up carry a solved bot challenge (shared/bot-check.ts). */
  bot_protection: boolean;
  /**
   * Whether the sign-up form may make an account (signups not `closed`, and `password` among
   * the signup methods); an allowlist still refuses other domains when the form is sent.
   */
  password_signups: boolean;
  /** In the project's order; `provider` picks the button's mark (auth/provider-marks.ts). */
  sso_connections: { id: string; name: string; provider?: string }[];
  /**
   * Whether passkeys work on these pages: the project's relying party covers the pages' own
   * origin (https, or http on localhost, and a domain name). The page still asks the browser.
   */
  passkeys: boolean;
  /** Whether the server sends SMS (SMS_WEBHOOK_URL): only then does the sign-in page offer a code by text message. */
  sms_codes: boolean;
  /** Where a finished sign-in goes; the server validated it. */
  redirect_url: string;
  /** The `?redirect_url=` this page was opened with (validated), carried to the next hosted page; "" if none. */
  redirect_override: string;
  /**
   * The OpenID Provider's interaction this sign-in belongs to (`?oauth={uid}`, checked by the
   * server): a finished sign-in goes back to the engine, not to `redirect_url` (auth/oauth.ts);
   * "" if none.
   */
  oauth: string;
}

export interface AccountConfig extends PageLanguage {
  page: "account";
  display_name: string;
  /** `{PUBLIC_URL}/v1/auth/sso/callback`, which the console's SSO form shows. */
  sso_callback_url?: string;
  /**
   * Opened from an invitation's link (`?type=invitation&token=…`): the inviting organization's
   * name and the inviter's email ("" when none is known) of a pending invitation, or null for a
   * token that is none (used, replaced, expired or unknown). Absent on other pages, and when the
   * server could not look (the form then speaks without names).
   */
  invitation?: { organization_name: string; inviter_email: string } | null;
}

export function readConfig<T>(): T {
  const block = document.getElementById("gatehouse-page");
  if (!block?.textContent) throw new Error("the page has no gatehouse-page configuration block");
  return JSON.parse(block.textContent) as T;
}
