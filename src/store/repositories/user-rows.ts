import type { User } from "../../domain/auth.js";
import { bool, jsonObject, nullable, raw, row, text, textArray, timestamp } from "../sql/index.js";

/**
 * A user's columns as hand-written statements return them (RETURNING, the search walk), named
 * as UserEntity names them, so a decoded row and an entity map to a User the same way.
 */
export const USER_COLUMNS = raw(
  `id, organization_id AS "organizationId", project_id AS "projectId", email, email_verified AS "emailVerified", phone,
   phone_verified AS "phoneVerified", metadata, app_metadata AS "appMetadata", new_email AS "newEmail",
   new_email_expires_at AS "newEmailExpiresAt", disabled, created_at AS "createdAt", updated_at AS "updatedAt",
   last_login_at AS "lastLoginAt", mfa_methods AS "mfaMethods", locale`,
);

/** The decoders of USER_COLUMNS, column by column (a statement selecting more extends it). */
export const USER_SHAPE = {
  id: text,
  organizationId: text,
  projectId: text,
  email: nullable(text),
  emailVerified: bool,
  phone: nullable(text),
  phoneVerified: bool,
  metadata: jsonObject,
  appMetadata: jsonObject,
  newEmail: nullable(text),
  newEmailExpiresAt: nullable(timestamp),
  disabled: bool,
  createdAt: timestamp,
  updatedAt: timestamp,
  lastLoginAt: nullable(timestamp),
  mfaMethods: textArray,
  locale: text,
};

export const userRow = row(USER_SHAPE);

/** What a User is made of: a decoded row, or a UserEntity. */
export type UserFields = ReturnType<typeof userRow>;

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
