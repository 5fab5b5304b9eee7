import type { Project } from "../../../domain/account.js";
import type { User } from "../../../domain/auth.js";
import { DomainError, validationFailed } from "../../../domain/errors.js";
import { localeSetting } from "../../../domain/locale-setting.js";
import { UniqueViolation } from "../../../store/errors.js";
import type { UserChanges } from "../../../store/repositories/users.js";
import type { AuditOrigin } from "../../../domain/audit.js";
import type { FlowDeps } from "../../deps.js";
import {
  emailExists,
  proposeEmailChange,
  queueEmailChange,
  sameAddress,
  type PendingEmailChange,
} from "../email-change.js";
import { queueVerificationEmail } from "../email-verification.js";
import { adminOnly, isAdmin, type UserActor } from "./actor.js";
import { countEmailChangeMails } from "./email-change-sends.js";
import { isUserId, userNotFound } from "./get-user.js";

/** The merged metadata object may hold at most this many bytes of JSON. */
export const MAX_METADATA_BYTES = 16 * 1024;

/**
 * The merged app_metadata object may hold at most this many bytes of JSON. Smaller than
 * metadata's cap because every access token carries it: 4 KiB of JSON keeps a token well under
 * the 8 KiB a bearer token may have (crypto/access-tokens.ts parseToken).
 */
export const MAX_APP_METADATA_BYTES = 4 * 1024;

export interface UpdateUserInput {
  id: string;
  /** Absent: unchanged. */
  email?: string;
  /** Keys merged shallowly into the stored object; a key set to null is removed. Absent: unchanged. */
  metadata?: Record<string, unknown>;
  /** Admin only; merged like metadata. Absent: unchanged. */
  appMetadata?: Record<string, unknown>;
  /** Admin only. Absent: unchanged. */
  disabled?: boolean;
  /** A BCP 47 tag, stored canonical; "" clears it. The user's own or an admin's. Absent: unchanged. */
  locale?: string;
  /** The request's Accept-Language: the language of the mails a change sends when the user chose none. */
  acceptLanguage?: string;
}

/**
 * UpdateUser. A new address from an admin is stored unverified at once and a verification link
 * is mailed to it; from the user itself it waits for the new address to confirm it
 * (email-change.ts). Either way its mails are counted against the send limits first, and over
 * one nothing is written (email-change-sends.ts). Mails commit with the change and go to delivery
 * after commit. `disabled: true` also revokes every session of the user, so its refresh tokens
 * and access tokens stop working at once.
 */
export async function updateUser(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "logger" | "mail" | "limits" | "detached">,
  project: Project,
  actor: UserActor,
  input: UpdateUserInput,
  origin: AuditOrigin,
): Promise<User> {
  if (actor.kind === "user") {
    if (input.id !== actor.userId) {
      throw new DomainError("ADMIN_REQUIRED", "with a user access token, only the user's own profile can be updated");
    }
  }
  // Admin-only fields: whether the request acts as admin is decided in one place (actor.ts).
  if (input.disabled !== undefined) adminOnly(actor, "setting disabled");
  if (input.appMetadata !== undefined) adminOnly(actor, "setting app_metadata");
  // An input rule, so refused before the user is looked up.
  if (input.locale !== undefined && input.locale !== "")
    input = { ...input, locale: localeSetting("locale", input.locale) };
  if (!isUserId(input.id)) throw userNotFound();
  for (let attempt = 1; ; attempt++) {
    const counted =
      input.email === undefined
        ? undefined
        : await countEmailChangeMails(deps, project, actor, input.id, input.email, origin.ip);
    try {
      return await applyUpdate(deps, project, actor, input, origin, counted);
    } catch (error) {
      // Each attempt counts its mails again, so the send limits bound this loop as well.
      if (!(error instanceof AddressMoved)) throw error;
      if (attempt === MAX_ATTEMPTS)
        throw new DomainError("SERVICE_UNAVAILABLE", "the user's email changed during this update; try again", [], 1);
    }
  }
}

const MAX_ATTEMPTS = 3;

/** The user's email is no longer the one its mails were counted for: count again. */
class AddressMoved extends Error {}

async function applyUpdate(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "logger" | "mail">,
  project: Project,
  actor: UserActor,
  input: UpdateUserInput,
  origin: AuditOrigin,
  counted: string | undefined,
): Promise<User> {
  try {
    return await deps.db.transaction(async (repos) => {
      const user = await repos.users.get(project.id, input.id);
      if (!user) throw userNotFound();
      if (counted !== undefined && !sameAddress(counted, user.email)) throw new AddressMoved();
      const changes: UserChanges = {};
      let emailChanged = false;
      let pending: PendingEmailChange | undefined;
      if (input.email !== undefined) {
        const email = input.email.trim();
        if (sameAddress(email, user.email)) {
          // A different spelling of the same address needs no proof; asking for the current
          // address withdraws a pending change.
          if (email !== user.email) changes.email = email;
          if (user.newEmail !== null) changes.newEmail = null;
        } else if (isAdmin(actor)) {
          // An admin's change takes effect at once, unverified, and overrides a pending one.
          changes.email = email;
          changes.emailVerified = false;
          if (user.newEmail !== null) changes.newEmail = null;
          emailChanged = true;
        } else {
          pending = await proposeEmailChange(deps, repos, project, email);
          changes.newEmail = pending;
        }
      }
      if (input.metadata !== undefined) changes.metadata = mergeMetadata(user.metadata, input.metadata);
      if (input.appMetadata !== undefined)
        changes.appMetadata = mergeMetadata(user.appMetadata, input.appMetadata, "app_metadata");
      if (input.disabled !== undefined && input.disabled !== user.disabled) changes.disabled = input.disabled;
      if (input.locale !== undefined && input.locale !== user.locale) changes.locale = input.locale;
      if (Object.keys(changes).length === 0) return user;
      const after = await repos.users.update(project.id, user.id, changes);
      if (!after) throw userNotFound();
      if (changes.disabled === true) await repos.sessions.revokeAll(project.id, user.id, deps.clock.now());
      // Which fields changed, never their values (an email, metadata).
      const fields = Object.keys(changes).sort();
      const event = {
        type: "user.updated" as const,
        organizationId: project.organizationId,
        projectId: project.id,
        userId: user.id,
      };
      await repos.auditEvents.record({ ...event, details: { fields }, origin });
      const asked = input.acceptLanguage;
      if (emailChanged) await queueVerificationEmail(deps, repos, project, after, "email_change", undefined, asked);
      // In the language the user has after this update, when it set one.
      if (pending) await queueEmailChange(deps, repos, project, { ...user, locale: after.locale }, pending, asked);
      return after;
    });
  } catch (error) {
    if (error instanceof UniqueViolation && error.constraint === "users_project_email_key") throw emailExists();
    throw error;
  }
}

/**
 * Shallow merge; null removes a key; the result is at most MAX_METADATA_BYTES of JSON, or
 * MAX_APP_METADATA_BYTES for app_metadata (VALIDATION_FAILED naming the field).
 */
export function mergeMetadata(
  stored: Record<string, unknown>,
  patch: Record<string, unknown>,
  field: "metadata" | "app_metadata" = "metadata",
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  const cap = field === "metadata" ? MAX_METADATA_BYTES : MAX_APP_METADATA_BYTES;
  if (Buffer.byteLength(JSON.stringify(merged)) > cap) {
    throw validationFailed([{ field, description: `the merged ${field} must be at most ${cap} bytes as JSON` }]);
  }
  return merged;
}
