// A project's end users: ListUsers through the console credential, searched by email and
// filtered by state (disabled, verified email, second factor), newest first, a page at a
// time; each row links to the user's page (user-detail.ts). Below, a user is added (user-add.ts).
import type { User } from "../../../../gen/gatehouse/auth/v1/common_pb.js";
import { h, link } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { ConsoleForm } from "./form.js";
import { href } from "./route.js";
import type { ConsoleContext } from "./shell.js";
import { paged, table, when } from "./ui.js";
import { addUserForm } from "./user-add.js";

const PAGE = 25;

/** The filters, named after ListUsersRequest's fields: "" any, "true" or "false". */
const FILTERS: Array<[field: "disabled" | "email_verified" | "mfa_enabled", words: string]> = [
  ["disabled", "console.users.disabled"],
  ["email_verified", "console.users.emailVerified"],
  ["mfa_enabled", "console.users.mfa"],
];

export function showUsers(ctx: ConsoleContext): Promise<void> {
  const projectId = ctx.route.project;
  const auth = ctx.auth(projectId);
  const form = new ConsoleForm("user-filters", t("console.users.apply"));
  const tri: Array<[string, string]> = [
    ["", t("console.users.any")],
    ["true", t("console.users.yes")],
    ["false", t("console.users.no")],
  ];
  form.add(
    form.group(
      t("console.users.find"),
      form.text("search", t("console.users.search")),
      ...FILTERS.map(([field, words]) => form.select(field, t(words), tri)),
    ),
  );
  const choice = (field: string): boolean | undefined =>
    form.value(field) === "" ? undefined : form.value(field) === "true";
  const list = paged({
    read: (cursor) =>
      auth.listUsers({
        search: form.value("search"),
        disabled: choice("disabled"),
        emailVerified: choice("email_verified"),
        mfaEnabled: choice("mfa_enabled"),
        limit: PAGE,
        cursor,
      }),
    draw: (answer) => (answer.data.length === 0 ? h("p", {}, t("console.users.none")) : users(projectId, answer.data)),
    live: true,
  });
  form.onSubmit(() => list.first());
  ctx.body.append(form.element, list.element, addUserForm(auth, projectId));
  return list.first();
}

function users(projectId: string, data: User[]): HTMLElement {
  const yes = (value: boolean) => (value ? t("console.users.yes") : t("console.users.no"));
  return table(
    t("console.nav.users"),
    [
      t("console.users.contact"),
      t("console.users.verified"),
      t("console.users.mfa"),
      t("console.users.state"),
      t("console.created"),
      t("console.users.lastSignIn"),
    ],
    data.map((user) => [
      link(contactOf(user), href({ section: "users", project: projectId, user: user.id })),
      yes(user.email ? user.emailVerified : user.phoneVerified),
      yes(user.mfaEnabled),
      user.disabled ? t("console.users.isDisabled") : t("console.users.active"),
      when(user.createdAt),
      user.lastLoginAt ? when(user.lastLoginAt) : t("console.users.never"),
    ]),
  );
}

/** How a person is named on these pages: the email, else the phone (SMS-only), else the id. */
export function contactOf(user: { id: string; email: string; phone: string }): string {
  return user.email || user.phone || user.id;
}
