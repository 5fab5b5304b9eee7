import type { AuditOrigin } from "../../domain/audit.js";
import type { Violation } from "../../domain/errors.js";
import type { OAuthClient } from "../../domain/oauth-clients.js";
import type { OAuthClientChanges } from "../../store/repositories/oauth-clients.js";
import type { FlowDeps } from "../deps.js";
import {
  assertClientId,
  clientName,
  combinationViolations,
  logoUriViolations,
  oauthClientNotFound,
  redirectUriViolations,
  throwIfAny,
  vocabularyViolations,
} from "./client-rules.js";

export interface UpdateOAuthClientInput {
  clientId: string;
  name?: string;
  /** The repeated fields have no presence: empty means unchanged. */
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  grantTypes: string[];
  scopes: string[];
  firstParty?: boolean;
  /** `""` removes the logo. */
  logoUri?: string;
  allowMissingPkce?: boolean;
}

/** Changes the fields present; the rules between fields hold for the client as it ends up. */
export async function updateOAuthClient(
  deps: Pick<FlowDeps, "db">,
  organizationId: string,
  input: UpdateOAuthClientInput,
  origin: AuditOrigin,
): Promise<OAuthClient> {
  const violations: Violation[] = [];
  const changes: OAuthClientChanges = {
    name: input.name === undefined ? undefined : clientName(input.name, violations),
    redirectUris: nonEmpty(input.redirectUris),
    postLogoutRedirectUris: nonEmpty(input.postLogoutRedirectUris),
    grantTypes: nonEmpty(input.grantTypes) as OAuthClientChanges["grantTypes"],
    scopes: nonEmpty(input.scopes) as OAuthClientChanges["scopes"],
    firstParty: input.firstParty,
    logoUri: input.logoUri,
    allowMissingPkce: input.allowMissingPkce,
  };
  violations.push(
    ...redirectUriViolations("redirect_uris", input.redirectUris),
    ...redirectUriViolations("post_logout_redirect_uris", input.postLogoutRedirectUris),
    ...vocabularyViolations(input.grantTypes, input.scopes),
    ...logoUriViolations(input.logoUri),
  );
  throwIfAny(violations);
  assertClientId(input.clientId);
  return deps.db.transaction(async (repos) => {
    const before = await repos.oauthClients.lock(organizationId, input.clientId);
    if (!before) throw oauthClientNotFound();
    throwIfAny(
      combinationViolations({
        type: before.type,
        grantTypes: changes.grantTypes ?? before.grantTypes,
        redirectUris: changes.redirectUris ?? before.redirectUris,
        allowMissingPkce: changes.allowMissingPkce ?? before.allowMissingPkce,
      }),
    );
    const after = await repos.oauthClients.update(organizationId, input.clientId, changes);
    if (!after) throw oauthClientNotFound();
    await repos.auditEvents.record({
      type: "oauth_client.updated",
      organizationId,
      projectId: after.projectId,
      targetId: after.id,
      // The exception to PKCE weakens the client: its new value is recorded, not only its name.
      details: {
        changed: changedFields(changes),
        ...(changes.allowMissingPkce === undefined ? {} : { allow_missing_pkce: changes.allowMissingPkce }),
      },
      origin,
    });
    return after;
  });
}

function nonEmpty(values: string[]): string[] | undefined {
  return values.length > 0 ? [...values] : undefined;
}

const FIELD_NAMES: Record<keyof OAuthClientChanges, string> = {
  name: "name",
  redirectUris: "redirect_uris",
  postLogoutRedirectUris: "post_logout_redirect_uris",
  grantTypes: "grant_types",
  scopes: "scopes",
  firstParty: "first_party",
  logoUri: "logo_uri",
  allowMissingPkce: "allow_missing_pkce",
};

/** The API's names of the fields the request named (not their values). */
function changedFields(changes: OAuthClientChanges): string[] {
  return (Object.keys(FIELD_NAMES) as Array<keyof OAuthClientChanges>)
    .filter((key) => changes[key] !== undefined)
    .map((key) => FIELD_NAMES[key]);
}
