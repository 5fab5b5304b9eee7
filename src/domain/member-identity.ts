import type { Member } from "./account.js";

/**
 * A person on the Account side: one email and one password, which may be a member of several
 * organizations (a Member is one such membership). The password hash is deliberately absent;
 * see IdentityCredentials.
 */
export interface MemberIdentity {
  id: string;
  email: string;
  createdAt: Date;
}

/** Only sign-in and password checks need the hash, so it travels separately and on request. */
export interface IdentityCredentials {
  identity: MemberIdentity;
  passwordHash: string;
}

/** A membership with what Login shows to choose between organizations. */
export interface Membership {
  member: Member;
  organizationName: string;
}
