// One end user's page (`#section=users&project=proj_…&user=usr_…`): the profile, metadata,
// sessions, second factors, linked identities and passkeys, the audit events about the user,
// and the actions an administrator takes on the account. Each part loads on its own, so one
// failing call leaves the others readable.
import type { GetUserResponse } from "../../../../gen/gatehouse/auth/v1/users_pb.js";
import { h, link } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import type { AuthClient } from "./client.js";
import { href } from "./route.js";
import type { ConsoleContext } from "./shell.js";
import { failure, note, part, when } from "./ui.js";
import { userActions } from "./user-actions.js";
import { userEvents } from "./user-events.js";
import { userFactors } from "./user-factors.js";
import { userIdentities } from "./user-identities.js";
import { userMetadata } from "./user-metadata.js";
import { userSessions } from "./user-sessions.js";
import { contactOf } from "./users.js";

export type UserView = GetUserResponse;

/** What the parts of the page share: the user as last read, and a way to read it anew. */
export interface UserPage {
  ctx: ConsoleContext;
  auth: AuthClient;
  user: UserView;
  /** Draws the page again from a fresh GetUser, with `notice` at its top. */
  redraw(notice?: string): Promise<void>;
}

export async function showUser(ctx: ConsoleContext, userId: string, notice = ""): Promise<void> {
  const auth = ctx.auth(ctx.route.project);
  const back = link(t("console.user.all"), href({ section: "users", project: ctx.route.project }));
  ctx.body.append(h("p", {}, back));
  const user = await auth.getUser({ id: userId });
  ctx.title(contactOf(user));
  const page: UserPage = {
    ctx,
    auth,
    user,
    async redraw(words) {
      ctx.body.replaceChildren();
      await showUser(ctx, userId, words);
    },
  };
  if (notice) {
    // The control that was used is gone with the old page: the words of what it did take focus.
    const done = note(notice);
    done.tabIndex = -1;
    ctx.body.append(done);
    done.focus();
  }
  ctx.body.append(profile(user));
  const parts = [userMetadata, userSessions, userFactors, userIdentities, userEvents, userActions].map((draw) => {
    const slot = h("div", {});
    ctx.body.append(slot);
    return draw(page).then(
      (nodes) => slot.replaceChildren(...nodes),
      (error: unknown) => slot.replaceChildren(failure(error)),
    );
  });
  await Promise.all(parts);
}

function profile(user: UserView): HTMLElement {
  const yes = (value: boolean) => (value ? t("console.user.verified") : t("console.user.unverified"));
  const none = t("console.user.none");
  const rows: Array<[string, Node | string]> = [
    [t("console.user.id"), h("code", {}, user.id)],
    [t("console.user.email"), user.email ? `${user.email} (${yes(user.emailVerified)})` : none],
    ...(user.newEmail ? [[t("console.user.newEmail"), user.newEmail] as [string, string]] : []),
    [t("console.user.phone"), user.phone ? `${user.phone} (${yes(user.phoneVerified)})` : none],
    [t("console.user.locale"), user.locale || none],
    [t("console.users.state"), user.disabled ? t("console.users.isDisabled") : t("console.users.active")],
    [t("console.created"), when(user.createdAt)],
    [t("console.users.lastSignIn"), user.lastLoginAt ? when(user.lastLoginAt) : t("console.users.never")],
  ];
  return part(
    "user-profile",
    t("console.user.profile"),
    h("dl", { class: "console-facts" }, ...rows.flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, value)])),
  );
}
