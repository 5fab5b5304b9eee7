import { hostedPagesPath } from "../domain/redirects.js";
import { FALLBACK_LANGUAGE, type Language } from "../i18n/languages.js";
import { messageWords } from "../i18n/messages.js";
import { escapeHtml, mailHtml } from "./html.js";
import type { MailContent } from "./mailer.js";

// An end user's invitation by the project's administrator (InviteUser). The link opens the
// project's hosted page where the invited person chooses a password:
// `{PUBLIC_URL}/v1/auth/{login_id}/reset-password?token=…&type=invitation`, with the
// `redirect_url` the page sends the person to afterwards when the administrator named one. In
// the invited person's language (catalogs/messages).

export interface UserInvitationMailInput {
  /** The project's display name (or its name). */
  projectName: string;
  link: string;
  expiresAt: Date;
}

/**
 * The hosted page's address with the token and link type. `destination` is the administrator's
 * `redirect_url`, carried as the page's `?redirect_url=` (the page server checks it again);
 * empty: the page ends at sign-in, which leads to the project's redirect_url.
 */
export function userInvitationLink(publicUrl: string, loginId: string, token: string, destination: string): string {
  const url = new URL(`${publicUrl}${hostedPagesPath(loginId)}reset-password`);
  url.searchParams.set("token", token);
  url.searchParams.set("type", "invitation");
  if (destination !== "") url.searchParams.set("redirect_url", destination);
  return url.toString();
}

export function userInvitationMail(
  input: UserInvitationMailInput,
  language: Language = FALLBACK_LANGUAGE,
): MailContent {
  const words = messageWords(language);
  const { t } = words;
  const project = input.projectName;
  const intro = t("invitation.intro", { project });
  const expiry = t("link.expires_on", { until: words.dateTime(input.expiresAt) });
  const ignore = t("invitation.ignore");
  const text = [intro, "", t("invitation.open"), input.link, "", expiry, ignore, ""].join("\n");
  const html = mailHtml(words, [
    `<p>${escapeHtml(intro)}</p>`,
    `<p><a href="${escapeHtml(input.link)}">${escapeHtml(t("invitation.button"))}</a></p>`,
    `<p>${escapeHtml(expiry)} ${escapeHtml(ignore)}</p>`,
  ]);
  return { subject: t("invitation.subject", { project }), text, html };
}
