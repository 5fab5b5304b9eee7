import { Initial1732600000000 } from "./1732600000000-initial.js";
import { ProjectsApiKeys1732700000000 } from "./1732700000000-projects-api-keys.js";
import { MembersMail1732700000001 } from "./1732700000001-members-mail.js";
import { SsoUsage1732700000002 } from "./1732700000002-sso-usage.js";
import { AuthCore1732800000000 } from "./1732800000000-auth-core.js";
import { ChangeFeed1732900000000 } from "./1732900000000-change-feed.js";
import { UsersSearchWalk1732900000001 } from "./1732900000001-users-search-walk.js";
import { PasswordlessMfa1733000000000 } from "./1733000000000-passwordless-mfa.js";
import { SsoSignIn1733100000000 } from "./1733100000000-sso-sign-in.js";
import { SessionLifetimes1733200000000 } from "./1733200000000-session-lifetimes.js";
import { AppMetadataEmailChange1733200000001 } from "./1733200000001-app-metadata-email-change.js";
import { ApiKeyKinds1733200000002 } from "./1733200000002-api-key-kinds.js";
import { MemberIdentities1733200000003 } from "./1733200000003-member-identities.js";
import { RateLimits1733300000000 } from "./1733300000000-rate-limits.js";
import { AuditLog1733300000001 } from "./1733300000001-audit-log.js";
import { OperatorActor1733400000000 } from "./1733400000000-operator-actor.js";
import { ProjectBranding1733500000000 } from "./1733500000000-project-branding.js";
import { SendAndSessionSettings1733600000000 } from "./1733600000000-send-and-session-settings.js";
import { EmailCanonicalForm1733600000001 } from "./1733600000001-email-canonical-form.js";
import { SignupConfirmation1733600000002 } from "./1733600000002-signup-confirmation.js";
import { LiveSessionsIndex1733600000030 } from "./1733600000030-live-sessions-index.js";
import { LimitCounts1733700000000 } from "./1733700000000-limit-counts.js";
import { SignupControls1733800000000 } from "./1733800000000-signup-controls.js";
import { UserInvitations1733900000001 } from "./1733900000001-user-invitations.js";
import { WebhooksHooks1733900000000 } from "./1733900000000-webhooks-hooks.js";
import { Passkeys1734000000000 } from "./1734000000000-passkeys.js";
import { OpenidProvider1734100000000 } from "./1734100000000-openid-provider.js";
import { SsoProviders1734200000000 } from "./1734200000000-sso-providers.js";
import { SsoOidcPresets1734200000001 } from "./1734200000001-sso-oidc-presets.js";
import { SsoSocialFields1734300000000 } from "./1734300000000-sso-social-fields.js";
import { IdentityIds1734300000100 } from "./1734300000100-identity-ids.js";
import { Locales1734300000200 } from "./1734300000200-locales.js";
import { MessageTemplates1734300000300 } from "./1734300000300-message-templates.js";
import { SsoHandoverMetadata1734300000400 } from "./1734300000400-sso-handover-metadata.js";
import { PasskeyNamedUser1734300000460 } from "./1734300000460-passkey-named-user.js";
import { LimitTries1734300000470 } from "./1734300000470-limit-tries.js";
import { OauthClientPkce1734300004600 } from "./1734300004600-oauth-client-pkce.js";
import { MemberMfa1734400046000 } from "./1734400046000-member-mfa.js";

// Listed, not globbed: the build output and tsx see the same set, in the same order.
export const migrations = [
  Initial1732600000000,
  ProjectsApiKeys1732700000000,
  MembersMail1732700000001,
  SsoUsage1732700000002,
  AuthCore1732800000000,
  ChangeFeed1732900000000,
  UsersSearchWalk1732900000001,
  PasswordlessMfa1733000000000,
  SsoSignIn1733100000000,
  SessionLifetimes1733200000000,
  AppMetadataEmailChange1733200000001,
  ApiKeyKinds1733200000002,
  MemberIdentities1733200000003,
  RateLimits1733300000000,
  AuditLog1733300000001,
  OperatorActor1733400000000,
  ProjectBranding1733500000000,
  SendAndSessionSettings1733600000000,
  EmailCanonicalForm1733600000001,
  SignupConfirmation1733600000002,
  LiveSessionsIndex1733600000030,
  LimitCounts1733700000000,
  SignupControls1733800000000,
  WebhooksHooks1733900000000,
  UserInvitations1733900000001,
  Passkeys1734000000000,
  OpenidProvider1734100000000,
  SsoProviders1734200000000,
  SsoOidcPresets1734200000001,
  SsoSocialFields1734300000000,
  IdentityIds1734300000100,
  Locales1734300000200,
  MessageTemplates1734300000300,
  SsoHandoverMetadata1734300000400,
  PasskeyNamedUser1734300000460,
  LimitTries1734300000470,
  OauthClientPkce1734300004600,
  MemberMfa1734400046000,
];
