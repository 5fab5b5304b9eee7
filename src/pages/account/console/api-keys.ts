// API keys of the picked project: the list, a key made with its label, kind and scopes (the raw
// key shown once, with a copy button), and revocation after a confirmation.
import type { ApiKey } from "../../../../gen/gatehouse/account/v1/api_keys_pb.js";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { ConsoleForm } from "./form.js";
import type { ConsoleContext } from "./shell.js";
import { confirmInPlace, note, shownOnce, smallButton, table, when } from "./ui.js";

const SCOPES: Array<[string, string]> = [
  ["auth:read", "auth:read"],
  ["auth:write", "auth:write"],
  ["users:read", "users:read"],
  ["users:write", "users:write"],
];

export async function showApiKeys(ctx: ConsoleContext): Promise<void> {
  const projectId = ctx.route.project;
  const list = h("div", {});
  const status = note("");
  const reload = async () => {
    const keys: ApiKey[] = [];
    let cursor = "";
    for (let page = 0; page < 10; page++) {
      const answer = await ctx.client.listApiKeys({ projectId, limit: 100, cursor });
      keys.push(...answer.data);
      if (!answer.hasMore) break;
      cursor = answer.nextCursor;
    }
    list.replaceChildren(
      keys.length === 0
        ? h("p", {}, t("console.keys.none"))
        : table(
            t("console.nav.apiKeys"),
            [
              t("console.keys.label"),
              t("console.keys.hint"),
              t("console.keys.kind"),
              t("console.keys.scopes"),
              t("console.created"),
              "",
            ],
            keys.map((key) => [
              key.label,
              h("code", {}, key.keyHint),
              t(key.kind === "publishable" ? "console.keys.publishable" : "console.keys.secret"),
              key.scopes.join(", "),
              when(key.createdAt),
              revokeButton(ctx, key, async () => {
                await reload();
                status.textContent = t("console.keys.revoked", { label: key.label });
              }),
            ]),
          ),
    );
  };
  await reload();
  const shown = h("div", {});
  const form = new ConsoleForm("create-key", t("console.keys.create"));
  form.add(
    form.text("label", t("console.keys.label")),
    form.select("kind", t("console.keys.kind"), [
      ["secret", t("console.keys.secret")],
      ["publishable", t("console.keys.publishable")],
    ]),
    form.choices("scopes", t("console.keys.scopes"), SCOPES, []),
    h("p", { class: "hint" }, t("console.keys.scopesHint")),
  );
  form.onSubmit(async () => {
    if (!form.requireFilled("label")) return;
    const created = await ctx.client.createApiKey({
      projectId,
      label: form.value("label"),
      kind: form.value("kind"),
      scopes: form.checkedValues("scopes"),
    });
    form.element.reset();
    shown.replaceChildren(shownOnce(t("console.keys.newKey", { label: created.label }), created.key));
    await reload();
    shown.querySelector<HTMLInputElement>("input")?.focus();
  });
  ctx.body.append(
    status,
    list,
    shown,
    h(
      "section",
      { "aria-labelledby": "create-key-title" },
      h("h2", { id: "create-key-title" }, t("console.keys.new")),
      form.element,
    ),
  );
}

function revokeButton(ctx: ConsoleContext, key: ApiKey, done: () => Promise<void>): HTMLElement {
  const button = smallButton(t("console.keys.revoke"), () =>
    confirmInPlace(
      button,
      t("console.keys.revokeQuestion", { label: key.label }),
      t("console.keys.revoke"),
      async () => {
        await ctx.client.revokeApiKey({ id: key.id });
        await done();
      },
    ),
  );
  button.setAttribute("aria-label", t("console.keys.revokeNamed", { label: key.label }));
  return button;
}
