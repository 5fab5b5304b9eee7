// SSO connections of the picked project, in the order the sign-in page shows them: the list,
// one form to create or edit a connection whose fields follow the provider's needs
// (docs/sso-providers.md), and deletion after a confirmation. Secrets are never shown: on edit,
// an empty secret field keeps the stored one.
import { timestampMs } from "@bufbuild/protobuf/wkt";
import type { SsoConnection } from "../../../../gen/gatehouse/account/v1/sso_connections_pb.js";
import { readConfig, type AccountConfig } from "../../shared/config.js";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { ConsoleForm } from "./form.js";
import type { ConsoleContext } from "./shell.js";
import { confirmInPlace, copyButton, note, smallButton, table } from "./ui.js";

type Field =
  | "issuer"
  | "client_secret"
  | "hosted_domain"
  | "allowed_tenants"
  | "team_id"
  | "key_id"
  | "private_key"
  | "authorization_url"
  | "token_url"
  | "userinfo_url";

/** What each provider asks for beside name and client id (docs/sso-providers.md's table). */
const PRESETS: Record<string, Field[]> = {
  oidc: ["issuer", "client_secret"],
  google: ["client_secret", "hosted_domain"],
  gitlab: ["client_secret", "issuer"],
  microsoft: ["client_secret", "issuer", "allowed_tenants"],
  apple: ["team_id", "key_id", "private_key"],
  github: ["client_secret", "authorization_url", "token_url", "userinfo_url"],
  generic_oauth2: ["client_secret", "authorization_url", "token_url", "userinfo_url"],
};

const PROVIDER_WORDS: Record<string, string> = {
  oidc: "OpenID Connect",
  google: "Google",
  gitlab: "GitLab",
  microsoft: "Microsoft",
  apple: "Apple",
  github: "GitHub",
  generic_oauth2: "OAuth 2.0",
};

export async function showSso(ctx: ConsoleContext): Promise<void> {
  const projectId = ctx.route.project;
  const list = h("div", {});
  const editor = h("div", {});
  const status = note("");
  const reload = async () => {
    const answer = await ctx.client.listSsoConnections({ projectId, limit: 100 });
    // The sign-in page's order: lower position first, then oldest first (the list is newest first).
    const made = (c: SsoConnection) => (c.createdAt ? timestampMs(c.createdAt) : 0);
    const connections = [...answer.data].sort((a, b) => a.position - b.position || made(a) - made(b));
    list.replaceChildren(
      connections.length === 0
        ? h("p", {}, t("console.sso.none"))
        : table(
            t("console.nav.sso"),
            [t("console.name"), t("console.sso.provider"), t("console.sso.clientId"), ""],
            connections.map((connection) => [
              connection.name,
              PROVIDER_WORDS[connection.provider] ?? connection.provider,
              h("code", {}, connection.clientId),
              h(
                "div",
                { class: "row-actions" },
                smallButton(t("console.edit"), () => edit(connection)),
                deleteButton(ctx, connection, async () => {
                  await reload();
                  status.textContent = t("console.sso.deleted", { name: connection.name });
                }),
              ),
            ]),
          ),
    );
  };
  const edit = (connection?: SsoConnection) => {
    editor.replaceChildren(
      connectionForm(ctx, projectId, connection, async (name) => {
        await reload();
        edit();
        status.textContent = t("console.sso.saved", { name });
      }),
    );
    if (connection) editor.querySelector("input")?.focus();
  };
  await reload();
  edit();
  ctx.body.append(status, list, editor);
}

function connectionForm(
  ctx: ConsoleContext,
  projectId: string,
  existing: SsoConnection | undefined,
  done: (name: string) => Promise<void>,
): HTMLElement {
  const form = new ConsoleForm("sso-connection", existing ? t("console.save") : t("console.sso.create"));
  const provider = existing?.provider || "oidc";
  const fields: Record<Field, HTMLElement> = {
    issuer: form.text("issuer", t("console.sso.issuer"), { type: "url", value: existing?.issuer }),
    client_secret: form.text("client_secret", t("console.sso.clientSecret"), {
      type: "password",
      autocomplete: "new-password",
      hint: existing ? t("console.sso.keepSecret") : undefined,
    }),
    hosted_domain: form.text("hosted_domain", t("console.sso.hostedDomain"), { value: existing?.hostedDomain }),
    allowed_tenants: form.text("allowed_tenants", t("console.sso.allowedTenants"), {
      lines: true,
      value: existing?.allowedTenants.join("\n"),
    }),
    team_id: form.text("team_id", t("console.sso.teamId"), { value: existing?.teamId }),
    key_id: form.text("key_id", t("console.sso.keyId"), { value: existing?.keyId }),
    private_key: form.text("private_key", t("console.sso.privateKey"), {
      lines: true,
      hint: existing ? t("console.sso.keepSecret") : undefined,
    }),
    authorization_url: form.text("authorization_url", t("console.sso.authorizationUrl"), {
      type: "url",
      value: existing?.authorizationUrl,
    }),
    token_url: form.text("token_url", t("console.sso.tokenUrl"), { type: "url", value: existing?.tokenUrl }),
    userinfo_url: form.text("userinfo_url", t("console.sso.userinfoUrl"), {
      type: "url",
      value: existing?.userinfoUrl,
    }),
  };
  const providerField = form.select("provider", t("console.sso.provider"), Object.entries(PROVIDER_WORDS), provider);
  // The provider of a connection is fixed once made.
  if (existing) form.control("provider").setAttribute("disabled", "");
  const show = () => {
    const needs = PRESETS[form.value("provider")] ?? PRESETS.oidc;
    for (const [name, element] of Object.entries(fields)) element.hidden = !needs.includes(name as Field);
  };
  form.control("provider").addEventListener("change", show);
  form.add(
    providerField,
    form.text("name", t("console.name"), { value: existing?.name }),
    form.text("client_id", t("console.sso.clientId"), { value: existing?.clientId }),
    ...Object.values(fields),
    form.checkbox("trust_emails", t("console.sso.trustEmails"), existing?.trustEmails ?? false),
  );
  show();
  form.onSubmit(async () => {
    if (!form.requireFilled("name", "client_id")) return;
    const needs = PRESETS[form.value("provider")] ?? PRESETS.oidc;
    const given = (name: Field) => (needs.includes(name) && form.value(name) !== "" ? form.value(name) : undefined);
    const common = {
      name: form.value("name"),
      clientId: form.value("client_id"),
      trustEmails: form.checked("trust_emails"),
      issuer: given("issuer"),
      clientSecret: given("client_secret"),
      hostedDomain: given("hosted_domain"),
      allowedTenants: needs.includes("allowed_tenants") ? form.list("allowed_tenants") : [],
      teamId: given("team_id"),
      keyId: given("key_id"),
      authorizationUrl: given("authorization_url"),
      tokenUrl: given("token_url"),
      userinfoUrl: given("userinfo_url"),
    };
    if (existing) {
      await ctx.client.updateSsoConnection({ id: existing.id, ...common, privateKey: given("private_key") });
    } else {
      await ctx.client.createSsoConnection({
        projectId,
        provider: form.value("provider"),
        ...common,
        issuer: common.issuer ?? "",
        clientSecret: common.clientSecret ?? "",
        hostedDomain: common.hostedDomain ?? "",
        teamId: common.teamId ?? "",
        keyId: common.keyId ?? "",
        privateKey: given("private_key") ?? "",
        authorizationUrl: common.authorizationUrl ?? "",
        tokenUrl: common.tokenUrl ?? "",
        userinfoUrl: common.userinfoUrl ?? "",
      });
    }
    await done(common.name);
  });
  const title = existing ? t("console.sso.editTitle", { name: existing.name }) : t("console.sso.new");
  return h(
    "section",
    { "aria-labelledby": "sso-form-title" },
    h("h2", { id: "sso-form-title" }, title),
    callbackField(),
    form.element,
  );
}

/** The address every provider sends the browser back to, to paste into the provider's settings. */
function callbackField(): HTMLElement {
  const id = "sso-callback-url";
  const field = h("input", {
    id,
    type: "text",
    readonly: true,
    class: "secret-value",
    spellcheck: "false",
    "aria-describedby": `${id}-hint`,
  });
  // The server's PUBLIC_URL; the page's own origin only if an older server did not say.
  field.value = readConfig<AccountConfig>().sso_callback_url ?? `${location.origin}/v1/auth/sso/callback`;
  const status = h("p", { role: "status", class: "status" });
  return h(
    "div",
    { class: "field sso-callback" },
    h("label", { for: id }, t("console.sso.callbackUrl")),
    h("div", { class: "copy-row" }, field, copyButton(field, status)),
    h("p", { class: "hint", id: `${id}-hint` }, t("console.sso.callbackHint")),
    status,
  );
}

function deleteButton(ctx: ConsoleContext, connection: SsoConnection, done: () => Promise<void>): HTMLElement {
  const button = smallButton(t("console.delete"), () =>
    confirmInPlace(
      button,
      t("console.sso.deleteQuestion", { name: connection.name }),
      t("console.delete"),
      async () => {
        await ctx.client.deleteSsoConnection({ id: connection.id });
        await done();
      },
    ),
  );
  button.setAttribute("aria-label", t("console.sso.deleteNamed", { name: connection.name }));
  return button;
}
