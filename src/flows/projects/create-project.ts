import { generateSigningKey } from "../../crypto/signing-keys.js";
import type { Project } from "../../domain/account.js";
import type { FlowDeps } from "../deps.js";

/** Defaults of the specification (and the proto comments) for settings left out. */
export const PROJECT_DEFAULTS = { tokenExpiry: 3600, refreshTokenExpiry: 2_592_000 } as const;

export interface CreateProjectInput {
  name: string;
  description: string;
  allowedOrigins: string[];
  redirectUrl: string;
  tokenExpiry?: number;
  refreshTokenExpiry?: number;
  mfaRequired: boolean;
  sendVerification: boolean;
}

/**
 * Creates a project with its login id and its first ES256 signing key, in one transaction:
 * a project never exists without a key to sign its tokens. The key pair is made before the
 * transaction opens, so the transaction holds its connection only for the inserts.
 */
export async function createProject(deps: FlowDeps, organizationId: string, input: CreateProjectInput): Promise<Project> {
  const key = await generateSigningKey(deps.secrets);
  return deps.db.transaction(async (repos) => {
    const project = await repos.projects.create(organizationId, {
      name: input.name,
      description: input.description,
      allowedOrigins: normalizeOrigins(input.allowedOrigins),
      redirectUrl: input.redirectUrl,
      tokenExpiry: input.tokenExpiry ?? PROJECT_DEFAULTS.tokenExpiry,
      refreshTokenExpiry: input.refreshTokenExpiry ?? PROJECT_DEFAULTS.refreshTokenExpiry,
      mfaRequired: input.mfaRequired,
      sendVerification: input.sendVerification,
    });
    await repos.signingKeys.create(organizationId, { projectId: project.id, ...key });
    return project;
  });
}

/**
 * Origins compare case-insensitively (browsers send them in lower case), so they are kept in
 * their canonical lower-case form, once each. The validation interceptor already refused
 * anything that is not `scheme://host[:port]`.
 */
export function normalizeOrigins(origins: readonly string[]): string[] {
  return [...new Set(origins.map((origin) => new URL(origin).origin))];
}
