import type { MemberRole } from "../../domain/account.js";
import { DomainError, validationFailed, type Violation } from "../../domain/errors.js";
import { isIdOf } from "../../domain/ids.js";
import {
  isOidcKind,
  resolveScopes,
  type ClaimMapping,
  type OAuth2Endpoints,
  type SsoConnection,
} from "../../domain/sso.js";
import {
  checkKindFields,
  checkMicrosoftTrust,
  checkTrustAndScopes,
  normalizeTenants,
  resolvePreset,
  type PresetInput,
} from "../../domain/sso-providers.js";
import type { AllowHosts } from "../../outbound/allow-hosts.js";
import type { SsoConnectionChanges } from "../../store/repositories/sso-connections.js";
import type { AuditOrigin } from "../../domain/audit.js";
import type { FlowDeps } from "../deps.js";
import {
  changedUrls,
  movedHosts,
  providerUrlCheck,
  requireAdminForUrls,
  secretAgainForMovedUrls,
} from "./connection-rules.js";

/** The fields of UpdateSsoConnection: undefined (or an empty list or map) leaves one as it is. */
export interface UpdateSsoConnectionInput {
  id: string;
  name?: string;
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  scopes: string[];
  trustEmails?: boolean;
  endpoints: Partial<OAuth2Endpoints>;
  claimMapping: ClaimMapping;
  hostedDomain?: string;
  allowedTenants: string[];
  /** Removes the tenant allowlist. */
  anyTenant: boolean;
  teamId?: string;
  keyId?: string;
  privateKey?: string;
  position?: number;
}

/**
 * Changes one of the organization's connections: the fields given, checked as at creation
 * against the connection they make; its kind never changes. A new secret or key is sealed and
 * used from the next sign-in on (the callback reads the connection afresh). Moving the issuer or
 * an endpoint is an admin's change, and needs the secret again (connection-rules.ts).
 */
export async function updateSsoConnection(
  deps: Pick<FlowDeps, "config" | "db" | "secrets" | "sso">,
  organizationId: string,
  input: UpdateSsoConnectionInput,
  origin: AuditOrigin,
  role: MemberRole,
): Promise<SsoConnection> {
  const notFound = () => new DomainError("SSO_CONNECTION_NOT_FOUND", "no such SSO connection in this organization");
  if (!isIdOf("sso", input.id)) throw notFound();
  const { connection, before } = await deps.db.transaction(async (repos) => {
    const current = await repos.ssoConnections.getForUpdate(organizationId, input.id);
    if (!current) throw notFound();
    const changes = validChanges(current, input, deps.config.outboundAllowHosts, role);
    const updated = await repos.ssoConnections.update(organizationId, input.id, changes, deps.secrets);
    if (!updated) throw notFound();
    const moved = movedHosts(current, updated);
    await repos.auditEvents.record({
      type: "sso_connection.updated",
      organizationId,
      projectId: current.projectId,
      targetId: current.id,
      // The names of what changed, never a value: two of them are secrets. A moved URL is
      // told by its hosts: where the server now sends the secret.
      details: {
        provider: current.provider,
        fields: givenFields(input),
        ...moved,
      },
      origin,
    });
    return { connection: updated, before: current };
  });
  // The issuer's discovery and keys are cached by issuer: a new one is read afresh, and the
  // old one too, in case it was changed because the provider moved.
  if (connection.issuer !== before.issuer) {
    deps.sso.forget(before.issuer);
    deps.sso.forget(connection.issuer);
  }
  return connection;
}

/** The connection the input makes, as changes to store; VALIDATION_FAILED as at creation. */
function validChanges(
  current: SsoConnection,
  input: UpdateSsoConnectionInput,
  allow: AllowHosts,
  role: MemberRole,
): SsoConnectionChanges {
  const scopes = input.scopes.length > 0 ? input.scopes : current.scopes;
  const allowedTenants = input.anyTenant
    ? []
    : input.allowedTenants.length > 0
      ? input.allowedTenants
      : current.allowedTenants;
  const given = {
    issuer: input.issuer ?? current.issuer,
    endpoints: {
      authorizationUrl: input.endpoints.authorizationUrl ?? current.endpoints.authorizationUrl,
      tokenUrl: input.endpoints.tokenUrl ?? current.endpoints.tokenUrl,
      userinfoUrl: input.endpoints.userinfoUrl ?? current.endpoints.userinfoUrl,
    },
  };
  // A URL given as it already is (the console sends the form's every field) moves nothing.
  requireAdminForUrls(role, changedUrls(current, given).length > 0);
  const preset = resolvePreset(
    {
      provider: current.provider,
      ...given,
      scopes,
      claimMapping: Object.keys(input.claimMapping).length > 0 ? input.claimMapping : current.claimMapping,
      hostedDomain: input.hostedDomain ?? current.hostedDomain,
    },
    providerUrlCheck(allow),
  );
  const violations: Violation[] = "violations" in preset ? [...preset.violations] : [];
  violations.push(
    ...checkKindFields({
      provider: current.provider,
      // Stored ones were checked when they were given.
      clientSecret: input.clientSecret ?? null,
      allowedTenants,
      teamId: input.teamId ?? current.teamId,
      keyId: input.keyId ?? current.keyId,
      privateKey: input.privateKey ?? null,
    }),
  );
  if (input.anyTenant && input.allowedTenants.length > 0)
    violations.push({ field: "any_tenant", description: "cannot be given with allowed_tenants" });
  if (input.anyTenant && current.provider !== "microsoft")
    violations.push({ field: "any_tenant", description: "is for microsoft only" });
  violations.push(
    ...checkTrustAndScopes({
      provider: current.provider,
      trustEmails: input.trustEmails ?? current.trustEmails,
      scopes: input.scopes,
    }),
  );
  if ("settings" in preset) {
    // Compared once the preset is applied: an issuer emptied back to the preset's moves too.
    violations.push(...secretAgainForMovedUrls(current.provider, changedUrls(current, preset.settings), input));
    violations.push(
      ...checkMicrosoftTrust({
        provider: current.provider,
        issuer: preset.settings.issuer,
        trustEmails: input.trustEmails ?? current.trustEmails,
        allowedTenants,
      }),
    );
  }
  if (violations.length > 0 || "violations" in preset) throw validationFailed(violations);
  return changesOf(current, input, preset.settings, allowedTenants);
}

/** What the store writes: the preset's resolved settings, the input's other fields, the rest kept. */
function changesOf(
  current: SsoConnection,
  input: UpdateSsoConnectionInput,
  settings: PresetInput,
  allowedTenants: string[],
): SsoConnectionChanges {
  const changes: SsoConnectionChanges = {
    name: input.name ?? current.name,
    issuer: settings.issuer,
    endpoints: settings.endpoints,
    claimMapping: settings.claimMapping,
    hostedDomain: settings.hostedDomain,
    clientId: input.clientId ?? current.clientId,
    scopes: isOidcKind(settings.provider) ? resolveScopes(settings.scopes) : settings.scopes,
    trustEmails: input.trustEmails ?? current.trustEmails,
    allowedTenants: normalizeTenants(allowedTenants),
    teamId: input.teamId ?? current.teamId,
    keyId: input.keyId ?? current.keyId,
    position: input.position ?? current.position,
  };
  if (input.clientSecret !== undefined) changes.clientSecret = input.clientSecret;
  if (input.privateKey !== undefined) changes.privateKey = input.privateKey;
  return changes;
}

/** The API names of the fields the request gave, for the audit log. */
function givenFields(input: UpdateSsoConnectionInput): string[] {
  const present: Array<[string, boolean]> = [
    ["name", input.name !== undefined],
    ["issuer", input.issuer !== undefined],
    ["client_id", input.clientId !== undefined],
    ["client_secret", input.clientSecret !== undefined],
    ["scopes", input.scopes.length > 0],
    ["trust_emails", input.trustEmails !== undefined],
    ["authorization_url", input.endpoints.authorizationUrl !== undefined],
    ["token_url", input.endpoints.tokenUrl !== undefined],
    ["userinfo_url", input.endpoints.userinfoUrl !== undefined],
    ["claim_mapping", Object.keys(input.claimMapping).length > 0],
    ["hosted_domain", input.hostedDomain !== undefined],
    ["allowed_tenants", input.allowedTenants.length > 0 || input.anyTenant],
    ["team_id", input.teamId !== undefined],
    ["key_id", input.keyId !== undefined],
    ["private_key", input.privateKey !== undefined],
    ["position", input.position !== undefined],
  ];
  return present.filter(([, given]) => given).map(([field]) => field);
}
