import { Column, Entity, PrimaryColumn } from "typeorm";

@Entity({ name: "projects" })
export class ProjectEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "organization_id", type: "text" })
  organizationId!: string;

  @Column({ name: "login_id", type: "text" })
  loginId!: string;

  @Column({ type: "text" })
  name!: string;

  @Column({ type: "text" })
  description!: string;

  @Column({ name: "token_expiry", type: "integer" })
  tokenExpiry!: number;

  @Column({ name: "refresh_token_expiry", type: "integer" })
  refreshTokenExpiry!: number;

  @Column({ name: "session_idle_timeout", type: "integer" })
  sessionIdleTimeout!: number;

  /** Only the limits the owner set (src/limits/settings.ts). */
  @Column({ name: "rate_limits", type: "jsonb" })
  rateLimits!: Record<string, number>;

  @Column({ name: "mfa_required", type: "boolean" })
  mfaRequired!: boolean;

  @Column({ name: "send_verification", type: "boolean" })
  sendVerification!: boolean;

  @Column({ name: "allowed_origins", type: "text", array: true })
  allowedOrigins!: string[];

  @Column({ name: "redirect_url", type: "text" })
  redirectUrl!: string;

  @Column({ name: "display_name", type: "text" })
  displayName!: string;

  @Column({ name: "logo_url", type: "text" })
  logoUrl!: string;

  @Column({ name: "accent_color", type: "text" })
  accentColor!: string;

  @Column({ name: "sms_country_codes", type: "text", array: true })
  smsCountryCodes!: string[];

  @Column({ name: "bot_protection", type: "boolean" })
  botProtection!: boolean;

  @Column({ name: "max_sessions_per_user", type: "integer" })
  maxSessionsPerUser!: number;

  @Column({ name: "reveal_email_exists", type: "boolean" })
  revealEmailExists!: boolean;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @Column({ name: "updated_at", type: "timestamptz" })
  updatedAt!: Date;
}
