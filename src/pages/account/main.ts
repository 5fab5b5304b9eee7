// The account pages' bundle, served at `/`: console sign-in, or what an emailed link opened
// (`?type=invitation` or `?type=member_password_reset`, with `&token=`).
import { readConfig, type AccountConfig } from "../shared/config.js";
import { alertParagraph, setSiteName, showView } from "../shared/dom.js";
import { explain } from "../shared/errors.js";
import { takeFromUrl } from "../shared/redirect.js";
import { t, useWords } from "../shared/words.js";
import { showConsoleSignIn } from "./console.js";
import { showInvitation } from "./invitation.js";
import { showMemberReset } from "./member-reset.js";

const config = readConfig<AccountConfig>();
useWords(config);
setSiteName(config.display_name);
try {
  const { query } = takeFromUrl();
  const type = query.get("type");
  if (type === "invitation") showInvitation(query.get("token"));
  else if (type === "member_password_reset") showMemberReset(query.get("token"));
  else showConsoleSignIn();
} catch (error) {
  showView(t("common.somethingWrong"), alertParagraph(explain(error).message));
}
