import { randomUUID } from "node:crypto";
import type { Project } from "../../../src/domain/account.js";
import { SsoConnectionEntity, UserEntity } from "../../../src/store/entities/index.js";
import type { TenantWorld } from "./contract.js";

// Rows the second-factor, SSO and event contracts hang theirs on, written through the entities
// rather than another group's repository, so these contracts do not move when that one does.

/** A fresh user of `project`, and its id. */
export async function seedUser(world: TenantWorld, project: Project): Promise<string> {
  const id = `usr_${randomUUID()}`;
  await world.db.dataSource.manager.insert(UserEntity, {
    id,
    organizationId: project.organizationId,
    projectId: project.id,
    email: `${id}@example.com`,
    emailNormalized: `${id}@example.com`,
    passwordHash: null,
  });
  return id;
}

/** A fresh SSO connection of `project`, and its id. */
export async function seedSsoConnection(world: TenantWorld, project: Project): Promise<string> {
  const id = `sso_${randomUUID()}`;
  await world.db.dataSource.manager.insert(SsoConnectionEntity, {
    id,
    organizationId: project.organizationId,
    projectId: project.id,
    name: "Provider",
    issuer: "https://idp.example.com",
    clientId: "client",
    clientSecretSealed: "sealed",
    scopes: ["openid", "email"],
    trustEmails: false,
    createdAt: world.clock.now(),
  });
  return id;
}

/** A value no other seed shares: destinations, hashes, codes. */
export const unique = (prefix: string) => `${prefix}-${randomUUID()}`;
