import type { FlowDeps } from "../../src/flows/deps.js";
import { createOrganization } from "../../src/flows/create-organization.js";
import { hashToken, randomToken } from "../../src/crypto/tokens.js";
import type { MemberRole, Organization, Project } from "../../src/domain/account.js";

// Test fixtures written through the same flows and repositories the service uses, for the
// resources whose RPCs come in later issues.

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export const PASSWORD = "correct horse battery staple";

export async function seedOrganization(deps: FlowDeps, email = `admin-${unique()}@example.com`) {
  const { organization, admin } = await createOrganization(deps, {
    name: `Org ${unique()}`,
    email,
    password: PASSWORD,
  });
  return { organization, admin, email, password: PASSWORD };
}

/** A new member identity (email and PASSWORD) and its membership of the organization. */
export async function seedMember(deps: FlowDeps, organization: Organization, role: MemberRole) {
  const email = `${role}-${unique()}@example.com`;
  const identity = await deps.db.repos.memberIdentities.create({
    email,
    passwordHash: await deps.passwords.hash(PASSWORD),
  });
  const member = await deps.db.repos.members.create(organization.id, { identity, role });
  return { member, identity, email, password: PASSWORD };
}

export async function seedProject(
  deps: FlowDeps,
  organization: Organization,
  allowedOrigins = ["https://app.example.com"],
) {
  return deps.db.repos.projects.create(organization.id, {
    name: `Project ${unique()}`,
    description: "",
    tokenExpiry: 3600,
    refreshTokenExpiry: 2592000,
    mfaRequired: false,
    sendVerification: false,
    allowedOrigins,
    redirectUrl: "https://app.example.com/callback",
  });
}

export const ALL_SCOPES = ["auth:read", "auth:write", "users:read", "users:write"];

export async function seedApiKey(
  deps: FlowDeps,
  project: Project,
  options: { scopes?: string[]; expiresAt?: Date | null; kind?: "secret" | "publishable" } = {},
) {
  const kind = options.kind ?? "secret";
  const key = randomToken(kind === "publishable" ? "gpk" : "gk");
  const apiKey = await deps.db.repos.apiKeys.create(project.organizationId, {
    projectId: project.id,
    label: "test",
    kind,
    keyHash: hashToken(key),
    keyHint: key.slice(0, 8),
    scopes: options.scopes ?? ALL_SCOPES,
    expiresAt: options.expiresAt ?? null,
  });
  return { key, apiKey };
}
