import type { MemberRole } from "../../domain/account.js";
import { DomainError, validationFailed, type Violation } from "../../domain/errors.js";
import { isIdOf } from "../../domain/ids.js";
import { isOidcKind, resolveScopes, type SsoConnection } from "../../domain/sso.js";
import {
  checkKindFields,
  checkMicrosoftTrust,
  checkTrustAndScopes,
  identityIssuer,
  normalizeTenants,
  resolvePreset,
} from "../../domain/sso-providers.js";
import type { CreateSsoConnectionInput } from "../../store/repositories/sso-connections.js";
import type { AuditOrigin } from "../../domain/audit.js";
import type { FlowDeps } from "../deps.js";
import { choosesUrls, providerUrlCheck, requireAdminForUrls } from "./connection-rules.js";

/**
 * Adds an identity provider to one of the organization's projects: an OpenID Connect provider
 * by its issuer, or a preset (domain/sso-providers.ts). The secret (Apple's key) is sealed. URLs of
 * its own (not a preset's) are an admin's to choose (connection-rules.ts).
 */
export async function createSsoConnection(
  deps: Pick<FlowDeps, "config" | "db" | "secrets">,
  organizationId: string,
  input: CreateSsoConnectionInput,
  origin: AuditOrigin,
  role: MemberRole,
): Promise<SsoConnection> {
  requireAdminForUrls(role, choosesUrls(input));
  // Scopes are joined by spaces into the authorization request, so each must be one OAuth
  // scope token: a rule the proto's field options cannot state.
  const preset = resolvePreset(input, providerUrlCheck(deps.config.outboundAllowHosts));
  const violations: Violation[] = "violations" in preset ? [...preset.violations] : [];
  violations.push(...checkKindFields(input));
  violations.push(...checkTrustAndScopes(input));
  if ("settings" in preset)
    violations.push(
      ...checkMicrosoftTrust({
        provider: input.provider,
        issuer: preset.settings.issuer,
        trustEmails: input.trustEmails,
        allowedTenants: input.allowedTenants,
      }),
    );
  if (violations.length > 0 || "violations" in preset) throw validationFailed(violations);
  const settings = preset.settings;
  if (!isIdOf("proj", input.projectId)) throw projectNotFound();

  return deps.db.transaction(async (repos) => {
    if (!(await repos.projects.get(organizationId, input.projectId))) throw projectNotFound();
    const connection = await repos.ssoConnections.create(
      organizationId,
      {
        projectId: input.projectId,
        name: input.name,
        provider: settings.provider,
        issuer: settings.issuer,
        endpoints: settings.endpoints,
        claimMapping: settings.claimMapping,
        hostedDomain: settings.hostedDomain,
        clientId: input.clientId,
        clientSecret: input.clientSecret,
        // OpenID Connect always asks for `openid`; the OAuth 2.0 kinds ask for what they name.
        scopes: isOidcKind(settings.provider) ? resolveScopes(settings.scopes) : settings.scopes,
        trustEmails: input.trustEmails,
        allowedTenants: normalizeTenants(input.allowedTenants),
        teamId: input.teamId,
        keyId: input.keyId,
        privateKey: input.privateKey,
        position: input.position,
      },
      deps.secrets,
    );
    await repos.auditEvents.record({
      type: "sso_connection.created",
      organizationId,
      projectId: input.projectId,
      targetId: connection.id,
      details: { provider: settings.provider, issuer: identityIssuer(settings) },
      origin,
    });
    return connection;
  });
}

export function projectNotFound(): DomainError {
  return new DomainError("PROJECT_NOT_FOUND", "no such project in this organization");
}
