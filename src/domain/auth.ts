// Authentication-side domain objects: an end user of one project, and their sessions.

export interface User {
  id: string;
  organizationId: string;
  projectId: string;
  email: string;
  emailVerified: boolean;
  phone: string | null;
  phoneVerified: boolean;
  metadata: Record<string, unknown>;
  disabled: boolean;
  /** MFA methods enrolled (`totp`, `sms`); filled by the MFA issue. */
  mfaMethods: string[];
  createdAt: Date;
  updatedAt: Date;
  lastLoginAt: Date | null;
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
}
