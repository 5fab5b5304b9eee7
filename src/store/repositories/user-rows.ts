import type { User } from "../../domain/auth.js";
import { UserEntity } from "../entities/user.entity.js";
import { entityColumns, jsonObject } from "../sql/index.js";

/**
 * A user's columns as the statements of users.ts, users-list.ts and sign-ins.ts select them,
 * derived from UserEntity: named as the entity names them, so a decoded row and an entity map to
 * a User the same way. The password hash is read only where a password is checked, and the
 * canonical email is a search key, never shown.
 */
const NARROW = { metadata: jsonObject, appMetadata: jsonObject };
export const USER = entityColumns(UserEntity, { omit: ["passwordHash", "emailNormalized"], narrow: NARROW });

/** USER and the password hash, for sign-in. */
export const USER_CREDENTIALS = entityColumns(UserEntity, { omit: ["emailNormalized"], narrow: NARROW });

/** What a User is made of: a decoded row, or a UserEntity. */
export type UserFields = ReturnType<ReturnType<typeof USER.on>["decode"]>;

/** `now` decides whether a pending email change is still live (its link expires with it). */
export function toUser(r: UserFields, now: Date): User {
  const pendingUntil = r.newEmailExpiresAt;
  return {
    id: r.id,
    organizationId: r.organizationId,
    projectId: r.projectId,
    // A user signed up by SMS has a phone and no email: "" here, as on the wire.
    email: r.email ?? "",
    emailVerified: r.emailVerified,
    phone: r.phone,
    phoneVerified: r.phoneVerified,
    metadata: r.metadata ?? {},
    appMetadata: r.appMetadata ?? {},
    newEmail: r.newEmail && pendingUntil && pendingUntil.getTime() > now.getTime() ? r.newEmail : null,
    disabled: r.disabled,
    mfaMethods: r.mfaMethods ?? [],
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    lastLoginAt: r.lastLoginAt,
    locale: r.locale ?? "",
  };
}
