import type { PasskeyAttestation, PasskeyUserVerification } from "./passkeys.js";
// Account-side domain objects: what repositories hand to flows. Entities never leave src/store.
import type { JWK } from "jose";
import type { RateLimitOverrides } from "./rate-limits.js";
import { emailKey } from "./email.js";
import type { SignupMethod, Signups } from "./signup-policy.js";

export type MemberRole = "admin" | "developer";

export interface Organization {
  id: string;
  name: string;
  /** Every member signs in with a second factor (docs/security.md, "Members' second factor"). */
  requireMemberMfa: boolean;
  createdAt: Date;
}

/**
 * An organization member: one member identity's membership of one organization (the email is
 * the identity's; see member-identity.ts). The password belongs to the identity and is absent.
 */
export interface Member {
  id: string;
  organizationId: string;
  email: string;
  role: MemberRole;
  createdAt: Date;
}

export interface ManagementToken {
  id: string;
  organizationId: string;
  memberId: string;
  expiresAt: Date;
  createdAt: Date;
}

export interface Invitation {
  id: string;
  organizationId: string;
  email: string;
  role: MemberRole;
  invitedBy: string | null;
  expiresAt: Date;
  acceptedAt: Date | null;
  createdAt: Date;
}

export interface Project {
  id: string;
  organizationId: string;
  loginId: string;
  name: string;
  description: string;
  tokenExpiry: number;
  /** Absolute session lifetime in seconds, from sign-in; refreshes never extend it. */
  refreshTokenExpiry: number;
  /** Seconds a session may go without a refresh before it can no longer be refreshed; 0: off. */
  sessionIdleTimeout: number;
  /** The rate limits the owner set; the others are the defaults (src/domain/rate-limits.ts). */
  rateLimits: RateLimitOverrides;
  mfaRequired: boolean;
  sendVerification: boolean;
  allowedOrigins: string[];
  redirectUrl: string;
  /** What the hosted pages show (docs/pages.md); empty strings: the name, no logo, the default colour. */
  displayName: string;
  logoUrl: string;
  accentColor: string;
  /** Country calling codes SMS may go to (`"1"`, `"44"`); empty: any country. */
  smsCountryCodes: string[];
  /** Whether public credentials must send a solved bot challenge with sends and signups. */
  botProtection: boolean;
  /** Most live sessions per user; a sign-in past it revokes the oldest. */
  maxSessionsPerUser: number;
  /** Whether Signup from public credentials may answer EMAIL_EXISTS (else: confirmation by email). */
  revealEmailExists: boolean;
  /** Who may become a user through the public paths (signup-policy.ts). */
  signups: Signups;
  /** Canonical domains an `allowlist` admits; kept, unused, under `open` and `closed`. */
  signupEmailDomains: string[];
  /** The public methods that may create a user (all four by default). */
  signupMethods: SignupMethod[];
  /** The passkeys' relying-party id; "": chosen per request (relying-party.ts). */
  passkeyRpId: string;
  passkeyUserVerification: PasskeyUserVerification;
  passkeyAttestation: PasskeyAttestation;
  /** The language of the project's messages when neither the user nor the request names one (canonical BCP 47). */
  defaultLocale: string;
  createdAt: Date;
  updatedAt: Date;
}

/** The cap of live sessions per user when the project sets none (account.proto). */
export const DEFAULT_MAX_SESSIONS_PER_USER = 50;

export type ApiKeyScope = "auth:read" | "auth:write" | "users:read" | "users:write";

/**
 * `secret` keys live on servers and may do whatever their scopes allow; `publishable` keys are
 * meant to be shipped in web pages and apps, so they only reach the end-user operations.
 */
export type ApiKeyKind = "secret" | "publishable";

/** The scopes a publishable key may carry (and gets by default): nothing that reads or writes other users. */
export const PUBLISHABLE_SCOPES: readonly ApiKeyScope[] = ["auth:read", "auth:write"];

export interface ApiKey {
  id: string;
  kind: ApiKeyKind;
  organizationId: string;
  projectId: string;
  label: string;
  keyHint: string;
  scopes: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

export const API_KEY_SCOPES: readonly ApiKeyScope[] = ["auth:read", "auth:write", "users:read", "users:write"];

/** A project's access-token signing key, public half only: what a JWKS may show. */
export interface SigningKey {
  /** RFC 7638 thumbprint of the public key; the `kid` of JWT headers and JWKS entries. */
  kid: string;
  organizationId: string;
  projectId: string;
  algorithm: "ES256";
  /** Carries `kid`, `alg` and `use: "sig"`, ready for a JWKS. */
  publicJwk: JWK;
  createdAt: Date;
  /** Set when a newer key took over signing; the key still verifies for a while. */
  retiredAt: Date | null;
}

/** The private JWK stays sealed until the moment it signs (crypto/signing-keys.ts opens it). */
export interface SealedSigningKey extends SigningKey {
  privateJwkSealed: string;
}

/**
 * The key an email is looked up and kept unique by (users, member identities, invitations,
 * sign-in links): its canonical form (domain/email.ts), trimmed, lower-cased, the domain as
 * its A-label. An address the canonical-form rule refuses keeps a key of its own that no
 * accepted address has.
 */
export function normalizeEmail(email: string): string {
  return emailKey(email);
}
