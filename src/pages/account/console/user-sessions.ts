// A user's live sessions (ListUserSessions), each ended on its own (RevokeUserSession) or all
// at once (RevokeAllUserSessions: signed out everywhere, the account stays usable). An ended
// session's refresh token stops working and its access tokens fail verification at once.
import type { Session } from "../../../../gen/gatehouse/auth/v1/sessions_pb.js";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { confirmInPlace, note, paged, part, smallButton, table, when } from "./ui.js";
import type { UserPage } from "./user-detail.js";
import { contactOf } from "./users.js";

const PAGE = 20;

export async function userSessions(page: UserPage): Promise<Node[]> {
  const { auth, user } = page;
  const status = note("");
  status.tabIndex = -1;
  const everywhere: HTMLButtonElement = smallButton(t("console.user.revokeAll"), () =>
    confirmInPlace(
      everywhere,
      t("console.user.revokeAllQuestion", { user: contactOf(user) }),
      t("console.user.revokeAll"),
      async () => {
        const answer = await auth.revokeAllUserSessions({ userId: user.id });
        await page.redraw(t("console.user.revokedAll", { count: answer.revokedCount }));
      },
    ),
  );
  const ended = async (words: string) => {
    await list.first();
    status.textContent = words;
    // The confirmation that had focus is gone with the row.
    status.focus();
  };
  const list = paged({
    read: (cursor) => auth.listUserSessions({ userId: user.id, limit: PAGE, cursor }),
    draw: (answer) => {
      everywhere.hidden = answer.data.length === 0;
      return answer.data.length === 0 ? h("p", {}, t("console.user.noSessions")) : sessions(page, answer.data, ended);
    },
  });
  await list.first();
  return [
    part(
      "user-sessions",
      t("console.user.sessions"),
      status,
      list.element,
      h("div", { class: "row-actions" }, everywhere),
    ),
  ];
}

function sessions(page: UserPage, data: Session[], ended: (words: string) => Promise<void>): HTMLElement {
  return table(
    t("console.user.sessions"),
    [
      t("console.user.session"),
      t("console.user.device"),
      t("console.audit.ip"),
      t("console.created"),
      t("console.user.lastActive"),
      "",
    ],
    data.map((session) => {
      const revoke: HTMLButtonElement = smallButton(t("console.user.revoke"), () =>
        confirmInPlace(
          revoke,
          t("console.user.revokeQuestion", { id: session.id }),
          t("console.user.revoke"),
          async () => {
            await page.auth.revokeUserSession({ userId: page.user.id, id: session.id });
            await ended(t("console.user.revoked", { id: session.id }));
          },
        ),
      );
      revoke.setAttribute("aria-label", t("console.user.revokeNamed", { id: session.id }));
      return [
        h("code", {}, session.id),
        session.userAgent,
        session.ipAddress,
        when(session.createdAt),
        when(session.lastActiveAt),
        revoke,
      ];
    }),
  );
}
