import type { Member, Organization } from "../domain/account.js";
import { DomainError } from "../domain/errors.js";
import { UniqueViolation } from "../store/errors.js";
import type { FlowDeps } from "./deps.js";

export interface CreateOrganizationInput {
  name: string;
  email: string;
  password: string;
}

/** Creates an organization and its first admin in one transaction (bootstrap and CLI). */
export async function createOrganization(
  deps: Pick<FlowDeps, "db" | "passwords">,
  input: CreateOrganizationInput,
): Promise<{ organization: Organization; admin: Member }> {
  const passwordHash = await deps.passwords.hash(input.password);
  try {
    return await deps.db.transaction(async (repos) => {
      const organization = await repos.organizations.create({ name: input.name });
      const admin = await repos.members.create({
        organizationId: organization.id,
        email: input.email,
        role: "admin",
        passwordHash,
      });
      return { organization, admin };
    });
  } catch (error) {
    if (error instanceof UniqueViolation) {
      throw new DomainError("MEMBER_EXISTS", "a member with this email already exists");
    }
    throw error;
  }
}

/**
 * Applies GATEHOUSE_BOOTSTRAP_*: creates the first organization unless a member already has
 * that email. Several instances may start at once; the unique email decides, the rest skip.
 */
export async function bootstrapOrganization(
  deps: Pick<FlowDeps, "db" | "passwords" | "logger">,
  input: CreateOrganizationInput,
): Promise<void> {
  if (await deps.db.repos.members.findCredentialsByEmail(input.email)) return;
  try {
    const { organization, admin } = await createOrganization(deps, input);
    deps.logger.info({ organization_id: organization.id, member_id: admin.id }, "bootstrap organization created");
  } catch (error) {
    if (!(error instanceof DomainError && error.reason === "MEMBER_EXISTS")) throw error;
  }
}
