import { ApiKeyEntity } from "./api-key.entity.js";
import { InvitationEntity } from "./invitation.entity.js";
import { ManagementTokenEntity } from "./management-token.entity.js";
import { MemberEntity } from "./member.entity.js";
import { OrganizationEntity } from "./organization.entity.js";
import { ProjectEntity } from "./project.entity.js";

export { ApiKeyEntity, InvitationEntity, ManagementTokenEntity, MemberEntity, OrganizationEntity, ProjectEntity };

export const entities = [
  OrganizationEntity,
  MemberEntity,
  ManagementTokenEntity,
  InvitationEntity,
  ProjectEntity,
  ApiKeyEntity,
];
