import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from "typeorm";
import { IssuedLoginIdEntity } from "./issued-login-id.entity.js";
import { OrganizationEntity } from "./organization.entity.js";
import type { SignupMethod, Signups } from "../../domain/signup-policy.js";
import type { PasskeyAttestation, PasskeyUserVerification } from "../../domain/passkeys.js";

/**
 * The Authentication side's tenant and its settings (migrations 1732700000000 and the later
 * settings migrations; repositories/projects.ts).
 */
@Entity({ name: "projects" })
@Unique("projects_login_id_key", ["loginId"])
// The target of the composite foreign keys that keep a project's rows in its organization.
@Unique("projects_organization_id_id_key", ["organizationId", "id"])
@Check("projects_token_expiry_check", `(token_expiry >= 60) AND (token_expiry <= 86400)`)
@Check("projects_refresh_token_expiry_check", `(refresh_token_expiry >= 3600) AND (refresh_token_expiry <= 31536000)`)
@Check(
  "projects_session_idle_timeout_check",
  `(session_idle_timeout = 0) OR ((session_idle_timeout >= 300) AND (session_idle_timeout <= 31536000))`,
)
@Check("projects_signups_check", `(signups = ANY (ARRAY['open'::text, 'closed'::text, 'allowlist'::text]))`)
@Check(
  "projects_passkey_user_verification_check",
  `(passkey_user_verification = ANY (ARRAY['preferred'::text, 'required'::text]))`,
)
@Check("projects_passkey_attestation_check", `(passkey_attestation = ANY (ARRAY['none'::text, 'direct'::text]))`)
@Check("projects_rate_limits_object_check", `jsonb_typeof(rate_limits) = 'object'::text`)
// (organization_id, created_at DESC, id DESC): the keyset listing; TypeORM cannot state DESC keys.
@Index("projects_org_created_idx", { synchronize: false })
export class ProjectEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "organization_id", type: "text" })
  organizationId!: string;

  @Column({ name: "login_id", type: "text" })
  loginId!: string;

  @Column({ type: "text" })
  name!: string;

  @Column({ type: "text", default: "" })
  description!: string;

  @Column({ name: "token_expiry", type: "integer", default: 3600 })
  tokenExpiry!: number;

  @Column({ name: "refresh_token_expiry", type: "integer", default: 2592000 })
  refreshTokenExpiry!: number;

  @Column({ name: "session_idle_timeout", type: "integer", default: 0 })
  sessionIdleTimeout!: number;

  /** Only the limits the owner set (src/domain/rate-limits.ts). */
  @Column({ name: "rate_limits", type: "jsonb", default: () => "'{}'" })
  rateLimits!: Record<string, number>;

  @Column({ name: "mfa_required", type: "boolean", default: false })
  mfaRequired!: boolean;

  @Column({ name: "send_verification", type: "boolean", default: false })
  sendVerification!: boolean;

  @Column({ name: "allowed_origins", type: "text", array: true, default: () => "'{}'" })
  allowedOrigins!: string[];

  @Column({ name: "redirect_url", type: "text" })
  redirectUrl!: string;

  @Column({ name: "display_name", type: "text", default: "" })
  displayName!: string;

  @Column({ name: "logo_url", type: "text", default: "" })
  logoUrl!: string;

  @Column({ name: "accent_color", type: "text", default: "" })
  accentColor!: string;

  @Column({ name: "sms_country_codes", type: "text", array: true, default: () => "'{}'" })
  smsCountryCodes!: string[];

  @Column({ name: "bot_protection", type: "boolean", default: false })
  botProtection!: boolean;

  @Column({ name: "max_sessions_per_user", type: "integer", default: 50 })
  maxSessionsPerUser!: number;

  @Column({ name: "reveal_email_exists", type: "boolean", default: false })
  revealEmailExists!: boolean;

  @Column({ type: "text", default: "open" })
  signups!: Signups;

  @Column({ name: "signup_email_domains", type: "text", array: true, default: () => "'{}'" })
  signupEmailDomains!: string[];

  @Column({
    name: "signup_methods",
    type: "text",
    array: true,
    default: () => "'{password,otp,magic_link,sso}'",
  })
  signupMethods!: SignupMethod[];

  /** "" (the default): chosen per request (domain/relying-party.ts). */
  @Column({ name: "passkey_rp_id", type: "text", default: "" })
  passkeyRpId!: string;

  @Column({ name: "passkey_user_verification", type: "text", default: "preferred" })
  passkeyUserVerification!: PasskeyUserVerification;

  @Column({ name: "passkey_attestation", type: "text", default: "none" })
  passkeyAttestation!: PasskeyAttestation;

  /** Migration 1734300000200. */
  @Column({ name: "default_locale", type: "text", default: "en" })
  defaultLocale!: string;

  @Column({ name: "created_at", type: "timestamptz", default: () => "now()" })
  createdAt!: Date;

  @Column({ name: "updated_at", type: "timestamptz", default: () => "now()" })
  updatedAt!: Date;

  @ManyToOne(() => OrganizationEntity, { onDelete: "CASCADE" })
  @JoinColumn({
    name: "organization_id",
    referencedColumnName: "id",
    foreignKeyConstraintName: "projects_organization_id_fkey",
  })
  organization?: OrganizationEntity;

  // The login id must have been registered for this very project first (issued_login_ids).
  @ManyToOne(() => IssuedLoginIdEntity)
  @JoinColumn([
    { name: "login_id", referencedColumnName: "loginId", foreignKeyConstraintName: "projects_login_id_issued_fkey" },
    { name: "id", referencedColumnName: "projectId" },
  ])
  issuedLoginId?: IssuedLoginIdEntity;
}
