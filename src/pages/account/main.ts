// The account pages' bundle, served at `/`: console sign-in, or what an emailed link opened
// (`?type=invitation` or `?type=member_password_reset`, with `&token=`). The console's own
// place is in the fragment (console/route.ts), which takeFromUrl leaves alone.
import { readConfig, type AccountConfig } from "../shared/config.js";
import { alertParagraph, setSiteName, showView } from "../shared/dom.js";
import { explain } from "../shared/errors.js";
import { takeFromUrl } from "../shared/redirect.js";
import { t, useWords } from "../shared/words.js";
import { showConsoleSignIn } from "./console/sign-in.js";
import { recall } from "./console/session.js";
import { showConsole } from "./console/shell.js";
import { showInvitation } from "./invitation.js";
import { showMemberReset } from "./member-reset.js";

const config = readConfig<AccountConfig>();
useWords(config);
setSiteName(config.display_name);
try {
  // takeFromUrl rewrites the address without its fragment: the console's deep link is put back.
  const fragment = location.hash;
  const { query } = takeFromUrl();
  if (fragment && !query.has("type"))
    history.replaceState(null, "", `${location.pathname}${location.search}${fragment}`);
  const type = query.get("type");
  if (type === "invitation") showInvitation(query.get("token"), config);
  else if (type === "member_password_reset") showMemberReset(query.get("token"));
  else {
    // A member who asked to stay signed in comes back to the console (at the section the
    // address names); otherwise the sign-in form, and the section opens after it.
    const member = recall();
    if (member) void showConsole(member);
    else showConsoleSignIn(showConsole);
  }
} catch (error) {
  showView(t("common.somethingWrong"), alertParagraph(explain(error).message));
}
