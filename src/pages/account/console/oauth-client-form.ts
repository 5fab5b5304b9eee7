// One form to create an OAuth client (CreateOAuthClient: a confidential client's secret comes
// back once) or to edit one (UpdateOAuthClient): name, type (fixed once made), redirect URIs,
// grant types, scopes, first party (no consent page), the legacy exception to PKCE, logo and
// post-logout redirect URIs.
import type { OAuthClient } from "../../../../gen/gatehouse/account/v1/oauth_clients_pb.js";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { ConsoleForm } from "./form.js";
import type { ConsoleContext } from "./shell.js";
import { cancelButton } from "./ui-edit.js";

const DEVICE_CODE = "urn:ietf:params:oauth:grant-type:device_code";
/** The API's defaults for a new client, checked at first. */
const DEFAULT_GRANTS = ["authorization_code", "refresh_token"];
const DEFAULT_SCOPES = ["openid", "email", "profile", "offline_access"];
// Scopes are protocol words a developer types in code: shown as they are.
const SCOPES: Array<[string, string]> = ["openid", "email", "profile", "offline_access", "app_metadata"].map(
  (scope) => [scope, scope],
);

export interface ClientFormEvents {
  created: (name: string, secret: string) => Promise<void>;
  saved: (name: string) => Promise<void>;
  cancelled: () => void;
}

export function clientForm(
  ctx: ConsoleContext,
  projectId: string,
  existing: OAuthClient | undefined,
  on: ClientFormEvents,
): HTMLElement {
  const form = new ConsoleForm("oauth-client", existing ? t("console.save") : t("console.oauth.create"));
  const grants: Array<[string, string]> = [
    ["authorization_code", t("console.oauth.grantCode")],
    ["refresh_token", t("console.oauth.grantRefresh")],
    ["client_credentials", t("console.oauth.grantClientCredentials")],
    [DEVICE_CODE, t("console.oauth.grantDevice")],
  ];
  form.add(
    form.text("name", t("console.name"), { value: existing?.name }),
    form.select(
      "type",
      t("console.oauth.type"),
      [
        ["confidential", t("console.oauth.confidential")],
        ["public", t("console.oauth.public")],
      ],
      existing?.type,
    ),
    form.text("redirect_uris", t("console.oauth.redirectUris"), {
      lines: true,
      value: existing?.redirectUris.join("\n"),
      hint: t("console.oauth.redirectUrisHint"),
    }),
    form.choices("grant_types", t("console.oauth.grantTypes"), grants, existing?.grantTypes ?? DEFAULT_GRANTS),
    form.choices("scopes", t("console.oauth.scopes"), SCOPES, existing?.scopes ?? DEFAULT_SCOPES),
    form.checkbox("first_party", t("console.oauth.firstParty"), existing?.firstParty ?? false),
    form.checkbox("allow_missing_pkce", t("console.oauth.allowMissingPkce"), existing?.allowMissingPkce ?? false),
    form.text("logo_uri", t("console.project.logoUrl"), { type: "url", value: existing?.logoUri }),
    form.text("post_logout_redirect_uris", t("console.oauth.postLogoutUris"), {
      lines: true,
      value: existing?.postLogoutRedirectUris.join("\n"),
    }),
  );
  // A client's type is fixed once made (UpdateOAuthClient has no type).
  if (existing) form.control("type").setAttribute("disabled", "");
  form.onSubmit(async () => {
    if (!form.requireFilled("name", "redirect_uris")) return;
    // Nothing checked would mean "the defaults" or "unchanged" to the API, not "none".
    for (const [name, legend] of [
      ["grant_types", t("console.oauth.grantTypes")],
      ["scopes", t("console.oauth.scopes")],
    ] as const) {
      if (form.checkedValues(name).length === 0) {
        form.fail(t("console.oauth.chooseOne", { field: legend }), name);
        return;
      }
    }
    const common = {
      name: form.value("name"),
      redirectUris: form.list("redirect_uris"),
      grantTypes: form.checkedValues("grant_types"),
      scopes: form.checkedValues("scopes"),
      firstParty: form.checked("first_party"),
      allowMissingPkce: form.checked("allow_missing_pkce"),
      logoUri: form.value("logo_uri"),
      postLogoutRedirectUris: form.list("post_logout_redirect_uris"),
    };
    if (existing) {
      const answer = await ctx.client.updateOAuthClient({ clientId: existing.clientId, ...common });
      await on.saved(answer.client?.name ?? common.name);
      return;
    }
    const created = await ctx.client.createOAuthClient({ projectId, type: form.value("type"), ...common });
    await on.created(created.client?.name ?? common.name, created.clientSecret);
  });
  if (existing) form.element.querySelector(".actions")?.append(cancelButton(on.cancelled));
  const title = existing ? t("console.oauth.editNamed", { name: existing.name }) : t("console.oauth.new");
  return h(
    "section",
    { "aria-labelledby": "oauth-client-title" },
    h("h2", { id: "oauth-client-title" }, title),
    form.element,
  );
}
