import type { Member, Organization } from "../domain/account.js";
import { DomainError } from "../domain/errors.js";
import { UniqueViolation } from "../store/errors.js";
import type { FlowDeps } from "./deps.js";

export interface CreateOrganizationInput {
  name: string;
  email: string;
  password: string;
}

const memberExists = () =>
  new DomainError(
    "MEMBER_EXISTS",
    "a member with this email already exists; invite that email into the new organization instead",
  );

/**
 * Creates an organization and its first admin, a new member identity, in one transaction
 * (bootstrap and CLI). An email that is already an identity is refused, whatever the password:
 * an operator's command sets a password, and must never be a way around an identity's own. A
 * person joins a further organization by invitation, proving the password it has.
 */
export async function createOrganization(
  deps: Pick<FlowDeps, "db" | "passwords">,
  input: CreateOrganizationInput,
): Promise<{ organization: Organization; admin: Member }> {
  if (await deps.db.repos.memberIdentities.findByEmail(input.email)) throw memberExists();
  const passwordHash = await deps.passwords.hash(input.password);
  try {
    return await deps.db.transaction(async (repos) => {
      const organization = await repos.organizations.create({ name: input.name });
      const identity = await repos.memberIdentities.create({ email: input.email, passwordHash });
      const admin = await repos.members.create(organization.id, { identity, role: "admin" });
      return { organization, admin };
    });
  } catch (error) {
    if (error instanceof UniqueViolation && error.constraint === "member_identities_email_normalized_key")
      throw memberExists();
    throw error;
  }
}

/**
 * Applies GATEHOUSE_BOOTSTRAP_*: creates the first organization unless a member identity
 * already has that email (so a restart never makes a second one). Several instances may start
 * at once; the unique email decides, the rest skip.
 */
export async function bootstrapOrganization(
  deps: Pick<FlowDeps, "db" | "passwords" | "logger">,
  input: CreateOrganizationInput,
): Promise<void> {
  if (await deps.db.repos.memberIdentities.findByEmail(input.email)) return;
  try {
    const { organization, admin } = await createOrganization(deps, input);
    deps.logger.info({ organization_id: organization.id, member_id: admin.id }, "bootstrap organization created");
  } catch (error) {
    if (!(error instanceof DomainError && error.reason === "MEMBER_EXISTS")) throw error;
  }
}
