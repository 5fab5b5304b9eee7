import { ssoCallbackUrl } from "../flows/auth/sso/authorize.js";
import type { FlowDeps } from "../flows/deps.js";
import { pendingInvitation, type InvitationShown } from "../flows/members/pending-invitation.js";
import type { NodeResponse } from "../transport/error-body.js";
import { setPageHeaders } from "./headers.js";
import { choosePageLanguage } from "./language.js";
import { renderShell } from "./shell.js";
import { accountPageWords, pageTranslator } from "./words.js";

// GET /: the page invitation and member password-reset emails open (`{PUBLIC_URL}/?token=…&type=…`,
// API.md section 5), and otherwise the console's sign-in. The script reads the token from the
// address and removes it; the server hands out the shell, in the language the address or the
// browser asks for (no project, so no project default), and for an invitation what its mail
// named: the organization and who invited (pending-invitation.ts), or that the link is spent.
export async function serveAccountPage(
  deps: FlowDeps,
  url: URL,
  res: NodeResponse,
  acceptLanguage?: string | string[],
): Promise<void> {
  const speech = choosePageLanguage(url, acceptLanguage);
  const t = pageTranslator(speech.language);
  const type = url.searchParams.get("type");
  const title =
    type === "invitation"
      ? t("title.accountInvitation")
      : type === "member_password_reset"
        ? t("title.reset-password")
        : t("title.accountSignIn");
  const invitation = type === "invitation" ? await invitationShown(deps, url.searchParams.get("token") ?? "") : {};
  setPageHeaders(res);
  const html = renderShell({
    title,
    brand: "Gatehouse",
    bundle: "account.js",
    speech,
    noscript: t("shell.noscript"),
    config: {
      page: "account",
      display_name: "Gatehouse",
      language: speech.language,
      lang_param: speech.langParam,
      words: accountPageWords(speech.language),
      // The console's SSO form shows it, for the admin to register at the provider.
      sso_callback_url: ssoCallbackUrl(deps.config.publicUrl),
      ...invitation,
    },
  });
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
}

/**
 * The `invitation` of the page's settings: the names, or null for a token that is no pending
 * invitation. When the lookup fails (the database is away) the key is left out and the page
 * shows the form without names: accepting will say what is wrong.
 */
async function invitationShown(
  deps: FlowDeps,
  token: string,
): Promise<{ invitation?: { organization_name: string; inviter_email: string } | null }> {
  let shown: InvitationShown | null;
  try {
    shown = await pendingInvitation(deps, token);
  } catch (error) {
    deps.logger.warn({ err: error }, "invitation page: the invitation could not be read; shown without names");
    return {};
  }
  return { invitation: shown && { organization_name: shown.organizationName, inviter_email: shown.inviterEmail } };
}
