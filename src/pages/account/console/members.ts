// Members of the organization: the list; for an admin, invitations by email and role, and
// removal after a confirmation (a member cannot remove itself here).
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import type { Member as OrgMember } from "../../../../gen/gatehouse/account/v1/account_pb.js";
import { ConsoleForm } from "./form.js";
import type { ConsoleContext } from "./shell.js";
import { confirmInPlace, note, smallButton, table, when } from "./ui.js";

export async function showMembers(ctx: ConsoleContext): Promise<void> {
  const list = h("div", {});
  const status = note("");
  const reload = async () => {
    const members: OrgMember[] = [];
    let cursor = "";
    for (let page = 0; page < 20; page++) {
      const answer = await ctx.client.listMembers({ limit: 100, cursor });
      members.push(...answer.data);
      if (!answer.hasMore) break;
      cursor = answer.nextCursor;
    }
    const headers = [t("common.email"), t("console.members.role"), t("console.members.joined")];
    list.replaceChildren(
      table(
        t("console.nav.members"),
        ctx.isAdmin ? [...headers, ""] : headers,
        members.map((member) => {
          const cells: Array<Node | string> = [member.email, roleWords(member.role), when(member.createdAt)];
          if (ctx.isAdmin) {
            const self = member.email.toLowerCase() === ctx.member.email.toLowerCase();
            cells.push(
              self
                ? ""
                : removeButton(ctx, member, async () => {
                    await reload();
                    status.textContent = t("console.members.removed", { email: member.email });
                  }),
            );
          }
          return cells;
        }),
      ),
    );
  };
  await reload();
  ctx.body.append(status, list);
  if (ctx.isAdmin) ctx.body.append(inviteForm(ctx, status));
}

function roleWords(role: string): string {
  return role === "admin" ? t("console.role.admin") : role === "developer" ? t("console.role.developer") : role;
}

function inviteForm(ctx: ConsoleContext, status: HTMLElement): HTMLElement {
  const form = new ConsoleForm("invite-member", t("console.members.invite"));
  form.add(
    form.text("email", t("common.email"), { type: "email" }),
    form.select("role", t("console.members.role"), [
      ["developer", t("console.role.developer")],
      ["admin", t("console.role.admin")],
    ]),
  );
  form.onSubmit(async () => {
    if (!form.requireFilled("email")) return;
    const email = form.value("email");
    await ctx.client.inviteMember({ email, role: form.value("role") });
    form.element.reset();
    status.textContent = t("console.members.invited", { email });
  });
  return h(
    "section",
    { "aria-labelledby": "invite-title" },
    h("h2", { id: "invite-title" }, t("console.members.inviteTitle")),
    h("p", { class: "hint" }, t("console.members.inviteHint")),
    form.element,
  );
}

function removeButton(ctx: ConsoleContext, member: OrgMember, done: () => Promise<void>): HTMLElement {
  const button = smallButton(t("console.members.remove"), () =>
    confirmInPlace(
      button,
      t("console.members.removeQuestion", { email: member.email }),
      t("console.members.remove"),
      async () => {
        await ctx.client.removeMember({ id: member.id });
        await done();
      },
    ),
  );
  button.setAttribute("aria-label", t("console.members.removeNamed", { email: member.email }));
  return button;
}
