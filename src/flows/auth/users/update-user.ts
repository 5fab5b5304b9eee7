import { normalizeEmail, type Project } from "../../../domain/account.js";
import type { User } from "../../../domain/auth.js";
import { DomainError, validationFailed } from "../../../domain/errors.js";
import type { QueuedMail } from "../../../notify/outbox.js";
import { UniqueViolation } from "../../../store/errors.js";
import type { UserChanges } from "../../../store/repositories/users.js";
import type { FlowDeps } from "../../deps.js";
import { queueVerificationEmail } from "../email-verification.js";
import { isUserId, userNotFound } from "./get-user.js";

/** The merged metadata object may hold at most this many bytes of JSON. */
export const MAX_METADATA_BYTES = 16 * 1024;

/** Who asks: an admin (API key with users:write, no user token) or the user itself. */
export type UpdateActor = { kind: "admin" } | { kind: "user"; userId: string };

export interface UpdateUserInput {
  id: string;
  /** Absent: unchanged. */
  email?: string;
  /** Keys merged shallowly into the stored object; a key set to null is removed. Absent: unchanged. */
  metadata?: Record<string, unknown>;
  /** Admin only. Absent: unchanged. */
  disabled?: boolean;
}

/**
 * UpdateUser. A new address is stored unverified and a verification link is mailed to it (the
 * mail commits with the change and is released after commit); `disabled: true` also revokes
 * every session of the user, so its refresh tokens and access tokens stop working at once.
 */
export async function updateUser(deps: FlowDeps, project: Project, actor: UpdateActor, input: UpdateUserInput): Promise<User> {
  if (actor.kind === "user") {
    if (input.id !== actor.userId) {
      throw new DomainError("ADMIN_REQUIRED", "with a user access token, only the user's own profile can be updated");
    }
    if (input.disabled !== undefined) {
      throw new DomainError("ADMIN_REQUIRED", "only an admin (API key with users:write, no user token) can set disabled");
    }
  }
  if (!isUserId(input.id)) throw userNotFound();
  let queued: QueuedMail | undefined;
  let updated: User;
  try {
    updated = await deps.db.transaction(async (repos) => {
      const user = await repos.users.get(project.id, input.id);
      if (!user) throw userNotFound();
      const changes: UserChanges = {};
      let emailChanged = false;
      if (input.email !== undefined) {
        const email = input.email.trim();
        if (email !== user.email) changes.email = email;
        // Only a different address (not a different spelling of the same one) needs proof again.
        if (normalizeEmail(email) !== normalizeEmail(user.email)) {
          emailChanged = true;
          changes.emailVerified = false;
        }
      }
      if (input.metadata !== undefined) changes.metadata = mergeMetadata(user.metadata, input.metadata);
      if (input.disabled !== undefined && input.disabled !== user.disabled) changes.disabled = input.disabled;
      if (Object.keys(changes).length === 0) return user;
      const after = await repos.users.update(project.id, user.id, changes);
      if (!after) throw userNotFound();
      if (changes.disabled === true) await repos.sessions.revokeAll(project.id, user.id, deps.clock.now());
      if (emailChanged) queued = await queueVerificationEmail(deps, repos, project, after, "email_change");
      return after;
    });
  } catch (error) {
    if (error instanceof UniqueViolation && error.constraint === "users_project_email_key") {
      throw new DomainError("EMAIL_EXISTS", "a user with this email already exists in this project");
    }
    throw error;
  }
  if (queued) deps.mail.release(queued);
  return updated;
}

/** Shallow merge; null removes a key; the result is at most 16 KiB of JSON (VALIDATION_FAILED on metadata). */
export function mergeMetadata(stored: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  if (Buffer.byteLength(JSON.stringify(merged)) > MAX_METADATA_BYTES) {
    throw validationFailed([{ field: "metadata", description: `the merged metadata must be at most ${MAX_METADATA_BYTES} bytes as JSON` }]);
  }
  return merged;
}
