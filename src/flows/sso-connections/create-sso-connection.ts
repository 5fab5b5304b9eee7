import { DomainError, validationFailed, type Violation } from "../../domain/errors.js";
import { isIdOf } from "../../domain/ids.js";
import { checkIssuer, checkScope, resolveScopes, type SsoConnection } from "../../domain/sso.js";
import type { CreateSsoConnectionInput } from "../../store/repositories/sso-connections.js";
import type { AuditOrigin } from "../../domain/audit.js";
import type { FlowDeps } from "../deps.js";

/** Adds an OpenID Connect provider to one of the organization's projects; the secret is sealed. */
export async function createSsoConnection(
  deps: FlowDeps,
  organizationId: string,
  input: CreateSsoConnectionInput,
  origin: AuditOrigin,
): Promise<SsoConnection> {
  // Scopes are joined by spaces into the authorization request, so each must be one OAuth
  // scope token: a rule the proto's field options cannot state.
  const violations: Violation[] = [];
  const issuerProblem = checkIssuer(input.issuer);
  if (issuerProblem) violations.push({ field: "issuer", description: issuerProblem });
  input.scopes.forEach((scope, i) => {
    const problem = checkScope(scope);
    if (problem) violations.push({ field: `scopes[${i}]`, description: problem });
  });
  if (violations.length > 0) throw validationFailed(violations);
  if (!isIdOf("proj", input.projectId)) throw projectNotFound();

  return deps.db.transaction(async (repos) => {
    if (!(await repos.projects.get(organizationId, input.projectId))) throw projectNotFound();
    const connection = await repos.ssoConnections.create(
      organizationId,
      {
        projectId: input.projectId,
        name: input.name,
        issuer: input.issuer,
        clientId: input.clientId,
        clientSecret: input.clientSecret,
        scopes: resolveScopes(input.scopes),
        trustEmails: input.trustEmails,
      },
      deps.secrets,
    );
    await repos.auditEvents.record({
      type: "sso_connection.created",
      organizationId,
      projectId: input.projectId,
      targetId: connection.id,
      details: { issuer: input.issuer },
      origin,
    });
    return connection;
  });
}

export function projectNotFound(): DomainError {
  return new DomainError("PROJECT_NOT_FOUND", "no such project in this organization");
}
