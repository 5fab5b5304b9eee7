import { assertPasskeyRpId, passkeySettings } from "./passkey-settings.js";
import { generateSigningKey } from "../../crypto/signing-keys.js";
import type { Project } from "../../domain/account.js";
import { validationFailed } from "../../domain/errors.js";
import { localeSetting } from "../../domain/locale-setting.js";
import {
  isValidSessionIdleTimeout,
  SESSION_IDLE_TIMEOUT_MAX,
  SESSION_IDLE_TIMEOUT_MIN,
} from "../../domain/session-lifetime.js";
import { assertRateLimits, type RateLimitOverrides } from "../../domain/rate-limits.js";
import { SYSTEM_ORIGIN, type AuditOrigin } from "../../domain/audit.js";
import type { FlowDeps } from "../deps.js";
import { OPEN_SIGNUPS } from "../../domain/signup-policy.js";
import { assertAllowlistHasDomains, signupSettings } from "./signup-settings.js";

/** Defaults of the specification (and the proto comments) for settings left out. */
export const PROJECT_DEFAULTS = { tokenExpiry: 3600, refreshTokenExpiry: 2_592_000, sessionIdleTimeout: 0 } as const;

export interface CreateProjectInput {
  name: string;
  description: string;
  allowedOrigins: string[];
  redirectUrl: string;
  tokenExpiry?: number;
  refreshTokenExpiry?: number;
  sessionIdleTimeout?: number;
  /** The limits to set; the others keep their defaults. */
  rateLimits?: RateLimitOverrides;
  mfaRequired: boolean;
  sendVerification: boolean;
  /** The hosted pages' branding; absent: none. */
  displayName?: string;
  logoUrl?: string;
  accentColor?: string;
  /** Where SMS may go; absent or empty: any country. */
  smsCountryCodes?: string[];
  botProtection?: boolean;
  /** Absent: DEFAULT_MAX_SESSIONS_PER_USER. */
  maxSessionsPerUser?: number;
  revealEmailExists?: boolean;
  /** Who may sign up through the public paths (signup-settings.ts); absent: open, by every method. */
  signups?: string;
  signupEmailDomains?: string[];
  signupMethods?: string[];
  /** The passkey settings; absent: chosen per request, `preferred`, `none`. */
  passkeyRpId?: string;
  passkeyUserVerification?: string;
  passkeyAttestation?: string;
  /** A BCP 47 tag, stored canonical; absent or "": `en`. */
  defaultLocale?: string;
}

/**
 * Creates a project with its login id and its first ES256 signing key, in one transaction:
 * a project never exists without a key to sign its tokens. The key pair is made before the
 * transaction opens, so the transaction holds its connection only for the inserts.
 */
export async function createProject(
  deps: Pick<FlowDeps, "config" | "db" | "secrets">,
  organizationId: string,
  input: CreateProjectInput,
  origin: AuditOrigin = SYSTEM_ORIGIN,
): Promise<Project> {
  assertSessionIdleTimeout(input.sessionIdleTimeout);
  assertRateLimits(input.rateLimits, input.rateLimits ?? {});
  const defaultLocale = input.defaultLocale ? localeSetting("default_locale", input.defaultLocale) : undefined;
  const signup = signupSettings(input);
  assertAllowlistHasDomains({ ...OPEN_SIGNUPS, ...signup });
  const key = await generateSigningKey(deps.secrets);
  return deps.db.transaction(async (repos) => {
    const project = await repos.projects.create(organizationId, {
      name: input.name,
      description: input.description,
      allowedOrigins: normalizeOrigins(input.allowedOrigins),
      redirectUrl: input.redirectUrl,
      tokenExpiry: input.tokenExpiry ?? PROJECT_DEFAULTS.tokenExpiry,
      refreshTokenExpiry: input.refreshTokenExpiry ?? PROJECT_DEFAULTS.refreshTokenExpiry,
      sessionIdleTimeout: input.sessionIdleTimeout ?? PROJECT_DEFAULTS.sessionIdleTimeout,
      rateLimits: input.rateLimits,
      mfaRequired: input.mfaRequired,
      sendVerification: input.sendVerification,
      displayName: input.displayName,
      logoUrl: input.logoUrl,
      accentColor: input.accentColor,
      smsCountryCodes: normalizeCallingCodes(input.smsCountryCodes ?? []),
      botProtection: input.botProtection,
      maxSessionsPerUser: input.maxSessionsPerUser,
      revealEmailExists: input.revealEmailExists,
      defaultLocale,
      ...signup,
      ...passkeySettings(input),
    });
    assertPasskeyRpId(project, deps.config.publicUrl);
    await repos.signingKeys.create(organizationId, { projectId: project.id, ...key });
    await repos.auditEvents.record({
      type: "project.created",
      organizationId,
      projectId: project.id,
      targetId: project.id,
      origin,
    });
    return project;
  });
}

/**
 * Origins compare case-insensitively (browsers send them in lower case), so they are kept in
 * their canonical lower-case form, once each. The validation interceptor already refused
 * anything that is not `scheme://host[:port]`.
 */
export function normalizeOrigins(origins: readonly string[]): string[] {
  return [...new Set(origins.map((origin) => new URL(origin).origin))];
}

/** Each code once, in the order given; the validation interceptor already refused bad shapes. */
export function normalizeCallingCodes(codes: readonly string[]): string[] {
  return [...new Set(codes)];
}

/**
 * 0 (off) or SESSION_IDLE_TIMEOUT_MIN..MAX seconds. The proto's rule (0..MAX) cannot say "0 or
 * at least 300", so the gap is refused here, in the same VALIDATION_FAILED shape. Not tied to
 * the other lifetimes: an idle timeout at or above refresh_token_expiry simply never triggers.
 */
export function assertSessionIdleTimeout(seconds: number | undefined): void {
  if (seconds === undefined || isValidSessionIdleTimeout(seconds)) return;
  throw validationFailed([
    {
      field: "session_idle_timeout",
      description: `must be 0 (off) or between ${SESSION_IDLE_TIMEOUT_MIN} and ${SESSION_IDLE_TIMEOUT_MAX}`,
    },
  ]);
}
