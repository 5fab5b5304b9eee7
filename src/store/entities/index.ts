import { ApiKeyEntity } from "./api-key.entity.js";
import { AuditEventEntity } from "./audit-event.entity.js";
import { AuthEventEntity } from "./auth-event.entity.js";
import { InvitationEntity } from "./invitation.entity.js";
import { IssuedLoginIdEntity } from "./issued-login-id.entity.js";
import { LimitCountEntity } from "./limit-count.entity.js";
import { LimitTryEntity } from "./limit-try.entity.js";
import { ManagementTokenEntity } from "./management-token.entity.js";
import { MemberEntity } from "./member.entity.js";
import { MemberIdentityEntity } from "./member-identity.entity.js";
import { MemberPasswordResetEntity } from "./member-password-reset.entity.js";
import { OrganizationEntity } from "./organization.entity.js";
import { OutboxMessageEntity } from "./outbox-message.entity.js";
import { ProjectEntity } from "./project.entity.js";
import { SigningKeyEntity } from "./signing-key.entity.js";
import { SsoConnectionEntity } from "./sso-connection.entity.js";
import { UserEntity } from "./user.entity.js";
import { SessionEntity } from "./session.entity.js";
import { RefreshTokenEntity } from "./refresh-token.entity.js";
import { RevokedAccessTokenEntity } from "./revoked-access-token.entity.js";
import { UserTokenEntity } from "./user-token.entity.js";
import { EmailCanonicalConflictEntity } from "./email-canonical-conflict.entity.js";
import { MagicLinkEntity } from "./magic-link.entity.js";
import { MfaChallengeEntity } from "./mfa-challenge.entity.js";
import { MfaFactorEntity } from "./mfa-factor.entity.js";
import { OtpCodeEntity } from "./otp-code.entity.js";
import { RecoveryCodeEntity } from "./recovery-code.entity.js";
import { SsoFlowEntity } from "./sso-flow.entity.js";
import { SsoHandoverEntity } from "./sso-handover.entity.js";
import { SsoIdentityEntity } from "./sso-identity.entity.js";
import { HookEntity } from "./hook.entity.js";
import { WebhookDeliveryEntity } from "./webhook-delivery.entity.js";
import { WebhookEndpointEntity } from "./webhook-endpoint.entity.js";
import { WebhookEventEntity } from "./webhook-event.entity.js";
import { PasskeyEntity } from "./passkey.entity.js";
import { PasskeyChallengeEntity } from "./passkey-challenge.entity.js";
import { OAuthClientEntity } from "./oauth-client.entity.js";
import { OAuthConsentEntity } from "./oauth-consent.entity.js";
import { OidcPayloadEntity } from "./oidc-payload.entity.js";
import { MessageTemplateEntity } from "./message-template.entity.js";
import { MemberMfaFactorEntity } from "./member-mfa-factor.entity.js";
import { MemberRecoveryCodeEntity } from "./member-recovery-code.entity.js";
import { MemberMfaChallengeEntity } from "./member-mfa-challenge.entity.js";
import { MemberPasskeyEntity } from "./member-passkey.entity.js";
import { MemberPasskeyChallengeEntity } from "./member-passkey-challenge.entity.js";

export {
  ApiKeyEntity,
  InvitationEntity,
  ManagementTokenEntity,
  MemberEntity,
  MemberIdentityEntity,
  OrganizationEntity,
  ProjectEntity,
};
export { IssuedLoginIdEntity, MemberPasswordResetEntity };
export { AuditEventEntity, AuthEventEntity, SsoConnectionEntity };
export { OutboxMessageEntity };
export { SigningKeyEntity };
export { UserEntity, SessionEntity, RefreshTokenEntity, RevokedAccessTokenEntity, UserTokenEntity };
export {
  EmailCanonicalConflictEntity,
  MagicLinkEntity,
  MfaChallengeEntity,
  MfaFactorEntity,
  OtpCodeEntity,
  RecoveryCodeEntity,
  SsoFlowEntity,
  SsoHandoverEntity,
  SsoIdentityEntity,
};
export { LimitCountEntity, LimitTryEntity };
export { HookEntity, WebhookDeliveryEntity, WebhookEndpointEntity, WebhookEventEntity };
export { PasskeyEntity, PasskeyChallengeEntity };
export { OAuthClientEntity, OAuthConsentEntity, OidcPayloadEntity };
export { MessageTemplateEntity };
export {
  MemberMfaFactorEntity,
  MemberRecoveryCodeEntity,
  MemberMfaChallengeEntity,
  MemberPasskeyEntity,
  MemberPasskeyChallengeEntity,
};

export const entities = [
  OrganizationEntity,
  MemberIdentityEntity,
  MemberEntity,
  MemberPasswordResetEntity,
  ManagementTokenEntity,
  InvitationEntity,
  ProjectEntity,
  IssuedLoginIdEntity,
  ApiKeyEntity,
  SigningKeyEntity,
  SsoConnectionEntity,
  AuthEventEntity,
  AuditEventEntity,
  OutboxMessageEntity,
  UserEntity,
  SessionEntity,
  RefreshTokenEntity,
  RevokedAccessTokenEntity,
  UserTokenEntity,
  OtpCodeEntity,
  MagicLinkEntity,
  MfaFactorEntity,
  MfaChallengeEntity,
  RecoveryCodeEntity,
  SsoFlowEntity,
  SsoHandoverEntity,
  SsoIdentityEntity,
  EmailCanonicalConflictEntity,
  LimitCountEntity,
  LimitTryEntity,
  WebhookEndpointEntity,
  WebhookEventEntity,
  WebhookDeliveryEntity,
  HookEntity,
  PasskeyEntity,
  PasskeyChallengeEntity,
  OAuthClientEntity,
  OAuthConsentEntity,
  OidcPayloadEntity,
  MessageTemplateEntity,
  MemberMfaFactorEntity,
  MemberRecoveryCodeEntity,
  MemberMfaChallengeEntity,
  MemberPasskeyEntity,
  MemberPasskeyChallengeEntity,
];
