import { ApiKeyEntity } from "./api-key.entity.js";
import { AuditEventEntity } from "./audit-event.entity.js";
import { AuthEventEntity } from "./auth-event.entity.js";
import { InvitationEntity } from "./invitation.entity.js";
import { LimitCountEntity } from "./limit-count.entity.js";
import { ManagementTokenEntity } from "./management-token.entity.js";
import { MemberEntity } from "./member.entity.js";
import { MemberIdentityEntity } from "./member-identity.entity.js";
import { OrganizationEntity } from "./organization.entity.js";
import { OutboxMessageEntity } from "./outbox-message.entity.js";
import { ProjectEntity } from "./project.entity.js";
import { SigningKeyEntity } from "./signing-key.entity.js";
import { SsoConnectionEntity } from "./sso-connection.entity.js";
import { UserEntity } from "./user.entity.js";

export { ApiKeyEntity, InvitationEntity, ManagementTokenEntity, MemberEntity, MemberIdentityEntity, OrganizationEntity, ProjectEntity };
export { AuditEventEntity, AuthEventEntity, SsoConnectionEntity };
export { OutboxMessageEntity };
export { SigningKeyEntity };
export { UserEntity };
export { LimitCountEntity };

export const entities = [
  OrganizationEntity,
  MemberIdentityEntity,
  MemberEntity,
  ManagementTokenEntity,
  InvitationEntity,
  ProjectEntity,
  ApiKeyEntity,
  SigningKeyEntity,
  SsoConnectionEntity,
  AuthEventEntity,
  AuditEventEntity,
  OutboxMessageEntity,
  UserEntity,
  LimitCountEntity,
];
