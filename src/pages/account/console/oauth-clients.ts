// OAuth clients of the picked project (the OpenID Provider's relying parties): the list, a
// client made with its name, type and redirect URIs (a confidential client's secret shown
// once), the secret rotated (the new one shown once), and deletion after a confirmation.
import type { OAuthClient } from "../../../../gen/gatehouse/account/v1/account_pb.js";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { ConsoleForm } from "./form.js";
import type { ConsoleContext } from "./shell.js";
import { confirmInPlace, note, shownOnce, smallButton, table, when } from "./ui.js";

export async function showOAuthClients(ctx: ConsoleContext): Promise<void> {
  const projectId = ctx.route.project;
  const list = h("div", {});
  const shown = h("div", {});
  const status = note("");
  const showSecret = (name: string, secret: string) => {
    shown.replaceChildren(shownOnce(t("console.oauth.secretOf", { name }), secret));
    shown.querySelector<HTMLInputElement>("input")?.focus();
  };
  const reload = async () => {
    const answer = await ctx.client.listOAuthClients({ projectId, limit: 100 });
    list.replaceChildren(
      answer.data.length === 0
        ? h("p", {}, t("console.oauth.none"))
        : table(
            t("console.nav.oauthClients"),
            [
              t("console.name"),
              t("console.oauth.clientId"),
              t("console.oauth.type"),
              t("console.oauth.redirectUris"),
              t("console.created"),
              "",
            ],
            answer.data.map((client) => [
              client.name,
              h("code", {}, client.clientId),
              client.type === "public" ? t("console.oauth.public") : t("console.oauth.confidential"),
              client.redirectUris.join("\n"),
              when(client.createdAt),
              actions(ctx, client, {
                rotated: async (secret) => {
                  await reload();
                  showSecret(client.name, secret);
                },
                deleted: async () => {
                  await reload();
                  status.textContent = t("console.oauth.deleted", { name: client.name });
                },
              }),
            ]),
          ),
    );
  };
  await reload();
  const form = new ConsoleForm("create-oauth-client", t("console.oauth.create"));
  form.add(
    form.text("name", t("console.name")),
    form.select("type", t("console.oauth.type"), [
      ["confidential", t("console.oauth.confidential")],
      ["public", t("console.oauth.public")],
    ]),
    form.text("redirect_uris", t("console.oauth.redirectUris"), {
      lines: true,
      hint: t("console.oauth.redirectUrisHint"),
    }),
  );
  form.onSubmit(async () => {
    if (!form.requireFilled("name", "redirect_uris")) return;
    const created = await ctx.client.createOAuthClient({
      projectId,
      name: form.value("name"),
      type: form.value("type"),
      redirectUris: form.list("redirect_uris"),
    });
    form.element.reset();
    await reload();
    if (created.clientSecret) showSecret(created.client?.name ?? "", created.clientSecret);
    else status.textContent = t("console.oauth.created", { name: created.client?.name ?? "" });
  });
  ctx.body.append(
    status,
    list,
    shown,
    h(
      "section",
      { "aria-labelledby": "create-oauth-title" },
      h("h2", { id: "create-oauth-title" }, t("console.oauth.new")),
      form.element,
    ),
  );
}

function actions(
  ctx: ConsoleContext,
  client: OAuthClient,
  on: { rotated: (secret: string) => Promise<void>; deleted: () => Promise<void> },
): HTMLElement {
  const row = h("div", { class: "row-actions" });
  if (client.type !== "public") {
    const rotate = smallButton(t("console.oauth.rotate"), () =>
      confirmInPlace(
        rotate,
        t("console.oauth.rotateQuestion", { name: client.name }),
        t("console.oauth.rotate"),
        async () => {
          const answer = await ctx.client.rotateOAuthClientSecret({ clientId: client.clientId });
          await on.rotated(answer.clientSecret);
        },
      ),
    );
    rotate.setAttribute("aria-label", t("console.oauth.rotateNamed", { name: client.name }));
    row.append(rotate);
  }
  const remove = smallButton(t("console.delete"), () =>
    confirmInPlace(remove, t("console.oauth.deleteQuestion", { name: client.name }), t("console.delete"), async () => {
      await ctx.client.deleteOAuthClient({ clientId: client.clientId });
      await on.deleted();
    }),
  );
  remove.setAttribute("aria-label", t("console.oauth.deleteNamed", { name: client.name }));
  row.append(remove);
  return row;
}
