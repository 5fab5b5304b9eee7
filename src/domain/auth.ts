// Authentication-side domain objects: an end user of one project, and their sessions.

/** ListUsers' filters on a user's flags; an absent one does not filter. */
export interface UserFilters {
  disabled?: boolean;
  emailVerified?: boolean;
  /** At least one second factor (true) or none (false). */
  mfaEnabled?: boolean;
}

export interface User {
  id: string;
  organizationId: string;
  projectId: string;
  email: string;
  emailVerified: boolean;
  phone: string | null;
  phoneVerified: boolean;
  /** Written by the user itself (its access token) or an admin: never a ground for authorization. */
  metadata: Record<string, unknown>;
  /** Written only by an admin; copied into every access token as the claim `app_metadata`. */
  appMetadata: Record<string, unknown>;
  /**
   * The address the user asked to change `email` to, while the confirmation link sent there
   * is live; null when none. `email` stays the sign-in address until it is confirmed.
   */
  newEmail: string | null;
  disabled: boolean;
  /** MFA methods enrolled (`totp`, `sms`); filled by the MFA issue. */
  mfaMethods: string[];
  createdAt: Date;
  updatedAt: Date;
  lastLoginAt: Date | null;
  /** The user's language, a canonical BCP 47 tag; "": none chosen (each message takes the request's). */
  locale: string;
}

export interface Session {
  id: string;
  projectId: string;
  userId: string;
  ipAddress: string;
  userAgent: string;
  amr: string[];
  createdAt: Date;
  lastActiveAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

/** Where a sign-in came from, recorded on its session. */
export interface ClientInfo {
  ipAddress: string;
  userAgent: string;
  /** The request's `Accept-Language` (the hosted pages send the page's language): a message's language when its recipient chose none. */
  acceptLanguage?: string;
}
