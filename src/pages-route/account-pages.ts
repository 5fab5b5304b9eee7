import { ssoCallbackUrl } from "../flows/auth/sso/authorize.js";
import type { NodeResponse } from "../transport/error-body.js";
import { setPageHeaders } from "./headers.js";
import { choosePageLanguage } from "./language.js";
import { renderShell } from "./shell.js";
import { accountPageWords, pageTranslator } from "./words.js";

// GET /: the page invitation and member password-reset emails open (`{PUBLIC_URL}/?token=…&type=…`,
// API.md section 5), and otherwise the console's sign-in. The script reads the token from the
// address and removes it; the server only hands out the shell, in the language the address or
// the browser asks for (no project, so no project default).
export function serveAccountPage(
  url: URL,
  res: NodeResponse,
  acceptLanguage: string | string[] | undefined,
  publicUrl: string,
): void {
  const speech = choosePageLanguage(url, acceptLanguage);
  const t = pageTranslator(speech.language);
  const type = url.searchParams.get("type");
  const title =
    type === "invitation"
      ? t("title.accountInvitation")
      : type === "member_password_reset"
        ? t("title.reset-password")
        : t("title.accountSignIn");
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
      sso_callback_url: ssoCallbackUrl(publicUrl),
    },
  });
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
}
