// Members of the organization: the list and the pending invitations; for an admin, role
// changes (UpdateMember, asked in place), invitations by email and role, and removal after a
// confirmation (an admin changes neither its own role nor membership here).
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import type { MemberInvitation, Member as OrgMember } from "../../../../gen/gatehouse/account/v1/members_pb.js";
import { ConsoleForm } from "./form.js";
import type { ConsoleContext } from "./shell.js";
import { confirmInPlace, note, smallButton, table, when } from "./ui.js";

export async function showMembers(ctx: ConsoleContext): Promise<void> {
  const list = h("div", {});
  const pending = h("div", {});
  const status = note("");
  const reload = async () => {
    const [members, invitations] = await Promise.all([allMembers(ctx), allInvitations(ctx)]);
    list.replaceChildren(membersTable(ctx, members, status, reload));
    pending.replaceChildren(invitationsTable(invitations, members));
  };
  await reload();
  ctx.body.append(
    status,
    list,
    h(
      "section",
      { "aria-labelledby": "pending-title" },
      h("h2", { id: "pending-title" }, t("console.members.pendingTitle")),
      pending,
    ),
  );
  if (ctx.isAdmin) ctx.body.append(inviteForm(ctx, status, reload));
}

async function allMembers(ctx: ConsoleContext): Promise<OrgMember[]> {
  const members: OrgMember[] = [];
  let cursor = "";
  for (let page = 0; page < 20; page++) {
    const answer = await ctx.client.listMembers({ limit: 100, cursor });
    members.push(...answer.data);
    if (!answer.hasMore) break;
    cursor = answer.nextCursor;
  }
  return members;
}

async function allInvitations(ctx: ConsoleContext): Promise<MemberInvitation[]> {
  const invitations: MemberInvitation[] = [];
  let cursor = "";
  for (let page = 0; page < 20; page++) {
    const answer = await ctx.client.listMemberInvitations({ limit: 100, cursor });
    invitations.push(...answer.data);
    if (!answer.hasMore) break;
    cursor = answer.nextCursor;
  }
  return invitations;
}

function membersTable(
  ctx: ConsoleContext,
  members: OrgMember[],
  status: HTMLElement,
  reload: () => Promise<void>,
): HTMLElement {
  const headers = [t("common.email"), t("console.members.role"), t("console.members.joined")];
  return table(
    t("console.nav.members"),
    ctx.isAdmin ? [...headers, ""] : headers,
    members.map((member) => {
      const cells: Array<Node | string> = [member.email, roleWords(member.role), when(member.createdAt)];
      if (ctx.isAdmin) {
        const self = member.email.toLowerCase() === ctx.member.email.toLowerCase();
        cells.push(
          self
            ? ""
            : h(
                "div",
                { class: "row-actions" },
                roleButton(ctx, member, async (role) => {
                  await reload();
                  status.textContent = t(
                    role === "admin" ? "console.members.nowAdmin" : "console.members.nowDeveloper",
                    { email: member.email },
                  );
                }),
                removeButton(ctx, member, async () => {
                  await reload();
                  status.textContent = t("console.members.removed", { email: member.email });
                }),
              ),
        );
      }
      return cells;
    }),
  );
}

function invitationsTable(invitations: MemberInvitation[], members: OrgMember[]): HTMLElement {
  if (invitations.length === 0) return h("p", {}, t("console.members.noPending"));
  const inviter = (id: string) => members.find((m) => m.id === id)?.email ?? "—";
  return table(
    t("console.members.pendingTitle"),
    [
      t("common.email"),
      t("console.members.role"),
      t("console.members.invitedBy"),
      t("console.members.sent"),
      t("console.members.expires"),
    ],
    invitations.map((invitation) => [
      invitation.email,
      roleWords(invitation.role),
      invitation.invitedBy ? inviter(invitation.invitedBy) : "—",
      when(invitation.createdAt),
      when(invitation.expiresAt),
    ]),
  );
}

function roleWords(role: string): string {
  return role === "admin" ? t("console.role.admin") : role === "developer" ? t("console.role.developer") : role;
}

function inviteForm(ctx: ConsoleContext, status: HTMLElement, reload: () => Promise<void>): HTMLElement {
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
    await reload();
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

/** "Make admin" for a developer, "Make developer" for an admin; asked in place, the server's refusal (LAST_ADMIN) shown there. */
function roleButton(ctx: ConsoleContext, member: OrgMember, done: (role: string) => Promise<void>): HTMLElement {
  const role = member.role === "admin" ? "developer" : "admin";
  const words =
    role === "admin"
      ? {
          label: "console.members.makeAdmin",
          named: "console.members.makeAdminNamed",
          ask: "console.members.makeAdminQuestion",
        }
      : {
          label: "console.members.makeDeveloper",
          named: "console.members.makeDeveloperNamed",
          ask: "console.members.makeDeveloperQuestion",
        };
  const button = smallButton(t(words.label), () =>
    confirmInPlace(button, t(words.ask, { email: member.email }), t(words.label), async () => {
      await ctx.client.updateMember({ id: member.id, role });
      await done(role);
    }),
  );
  button.setAttribute("aria-label", t(words.named, { email: member.email }));
  return button;
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
