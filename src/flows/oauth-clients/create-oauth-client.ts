import { newId } from "../../crypto/ids.js";
import { hashToken, randomToken } from "../../crypto/tokens.js";
import type { AuditOrigin } from "../../domain/audit.js";
import { validationFailed, type Violation } from "../../domain/errors.js";
import { isIdOf } from "../../domain/ids.js";
import {
  MAX_OAUTH_CLIENTS_PER_PROJECT,
  type OAuthClient,
  type OAuthClientType,
  type StoredOAuthClient,
} from "../../domain/oauth-clients.js";
import type { FlowDeps } from "../deps.js";
import { projectNotFound } from "../projects/not-found.js";
import {
  clientName,
  combinationViolations,
  grantTypesOrDefault,
  logoUriViolations,
  redirectUriViolations,
  scopesOrDefault,
  throwIfAny,
  vocabularyViolations,
} from "./client-rules.js";

export interface CreateOAuthClientInput {
  projectId: string;
  name: string;
  type: OAuthClientType;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  /** Empty: DEFAULT_GRANT_TYPES. */
  grantTypes: string[];
  /** Empty: every scope. */
  scopes: string[];
  firstParty: boolean;
  /** Empty: none. */
  logoUri: string;
  /** The legacy exception to PKCE, for a confidential client only. */
  allowMissingPkce: boolean;
}

/** A new client of one of the organization's projects; a confidential one with its secret (shown once). */
export async function createOAuthClient(
  deps: Pick<FlowDeps, "db" | "clock">,
  organizationId: string,
  input: CreateOAuthClientInput,
  origin: AuditOrigin,
): Promise<{ client: OAuthClient; secret: string | null }> {
  const violations: Violation[] = [];
  const name = clientName(input.name, violations);
  violations.push(
    ...redirectUriViolations("redirect_uris", input.redirectUris),
    ...redirectUriViolations("post_logout_redirect_uris", input.postLogoutRedirectUris),
    ...vocabularyViolations(input.grantTypes, input.scopes),
    ...logoUriViolations(input.logoUri),
  );
  const grantTypes = grantTypesOrDefault(input.grantTypes);
  violations.push(
    ...combinationViolations({
      type: input.type,
      grantTypes,
      redirectUris: input.redirectUris,
      allowMissingPkce: input.allowMissingPkce,
    }),
  );
  throwIfAny(violations);
  if (!isIdOf("proj", input.projectId)) throw projectNotFound();

  // The secret is 256 random bits: SHA-256 is all it needs at rest (as API keys).
  const secret = input.type === "confidential" ? randomToken("gcs") : null;
  const now = deps.clock.now();
  const row: StoredOAuthClient = {
    id: newId("oac", now.getTime()),
    organizationId,
    projectId: input.projectId,
    name,
    type: input.type,
    secretHash: secret === null ? null : hashToken(secret),
    secretHint: secret === null ? null : secret.slice(0, 8),
    redirectUris: [...input.redirectUris],
    postLogoutRedirectUris: [...input.postLogoutRedirectUris],
    grantTypes,
    scopes: scopesOrDefault(input.scopes),
    firstParty: input.firstParty,
    logoUri: input.logoUri,
    allowMissingPkce: input.allowMissingPkce,
    createdAt: now,
    updatedAt: now,
  };
  const client = await deps.db.transaction(async (repos) => {
    // A share lock keeps the project from being deleted meanwhile. The count is a guard against
    // runaway scripts, not a quota: two creations at the same moment may both pass it.
    if (!(await repos.projects.getForShare(organizationId, input.projectId))) throw projectNotFound();
    if ((await repos.oauthClients.countInProject(input.projectId)) >= MAX_OAUTH_CLIENTS_PER_PROJECT)
      throw validationFailed([
        {
          field: "project_id",
          description: `already has ${MAX_OAUTH_CLIENTS_PER_PROJECT} OAuth clients, the most a project may have`,
        },
      ]);
    const created = await repos.oauthClients.create(row);
    await repos.auditEvents.record({
      type: "oauth_client.created",
      organizationId,
      projectId: input.projectId,
      targetId: created.id,
      details: {
        name: created.name,
        client_type: created.type,
        grant_types: created.grantTypes,
        first_party: created.firstParty,
        allow_missing_pkce: created.allowMissingPkce,
      },
      origin,
    });
    return created;
  });
  return { client, secret };
}
