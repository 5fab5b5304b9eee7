// OAuth clients of the picked project (the OpenID Provider's relying parties): the list, one
// form to create a client (a confidential client's secret shown once) or edit one
// (oauth-client-form.ts), and each client's Edit, Rotate secret (the new one shown once) and
// Delete (oauth-client-actions.ts).
import type { OAuthClient } from "../../../../gen/gatehouse/account/v1/oauth_clients_pb.js";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { clientActions } from "./oauth-client-actions.js";
import { clientForm } from "./oauth-client-form.js";
import type { ConsoleContext } from "./shell.js";
import { note, shownOnce, table, when } from "./ui.js";

export async function showOAuthClients(ctx: ConsoleContext): Promise<void> {
  const projectId = ctx.route.project;
  const list = h("div", {});
  const shown = h("div", {});
  const editor = h("div", {});
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
              clientActions(ctx, client, {
                edit: () => edit(client),
                rotated: async (secret) => {
                  await reload();
                  showSecret(client.name, secret);
                },
                deleted: async () => {
                  await reload();
                  edit();
                  status.textContent = t("console.oauth.deleted", { name: client.name });
                },
              }),
            ]),
          ),
    );
  };
  const edit = (client?: OAuthClient) => {
    editor.replaceChildren(
      clientForm(ctx, projectId, client, {
        created: async (name, secret) => {
          await reload();
          edit();
          if (secret) showSecret(name, secret);
          else status.textContent = t("console.oauth.created", { name });
        },
        saved: async (name) => {
          await reload();
          edit();
          status.textContent = t("console.oauth.saved", { name });
        },
        cancelled: () => edit(),
      }),
    );
    if (client) editor.querySelector("input")?.focus();
  };
  await reload();
  edit();
  ctx.body.append(status, list, shown, editor);
}
