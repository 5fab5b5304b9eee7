import type { Project } from "../../../domain/account.js";
import type { AuditOrigin } from "../../../domain/audit.js";
import type { User } from "../../../domain/auth.js";
import { localeSetting } from "../../../domain/locale-setting.js";
import { requireAcceptablePassword } from "../../../domain/password-policy.js";
import { UniqueViolation } from "../../../store/errors.js";
import { askBeforeUserCreated } from "../../hooks/before-user-created.js";
import type { FlowDeps } from "../../deps.js";
import { emailExists } from "../email-change.js";
import { adminOnly, type UserActor } from "./actor.js";
import { mergeMetadata } from "./update-user.js";

export interface CreateUserInput {
  email: string;
  /** Absent: a user without a password (code, link or SSO; or a password set by a reset link). */
  password?: string;
  /** Default false: the administrator vouches for the address only when it says so. */
  emailVerified?: boolean;
  metadata?: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
  /** A BCP 47 tag, stored canonical; absent or "": none. */
  locale?: string;
}

/**
 * CreateUser: the project's administrator makes a user, whatever the project's signup settings
 * (those govern the public paths only). The password, when given, passes Signup's checks and is
 * hashed before the transaction (argon2 must not hold a connection). The user row and its
 * `user.created` audit event commit together. No mail, no session: the user signs in later.
 */
export async function createUser(
  deps: Pick<FlowDeps, "db" | "passwords" | "hooks">,
  project: Project,
  actor: UserActor,
  input: CreateUserInput,
  origin: AuditOrigin,
): Promise<User> {
  adminOnly(actor, "creating users");
  const metadata = initialMetadata(input.metadata, "metadata");
  const appMetadata = initialMetadata(input.appMetadata, "app_metadata");
  const locale = input.locale ? localeSetting("locale", input.locale) : "";
  if (input.password !== undefined) requireAcceptablePassword(input.password);
  await askBeforeUserCreated(
    deps,
    deps.db.repos,
    project,
    { email: input.email, phone: null, emailVerified: input.emailVerified ?? false, metadata, appMetadata },
    "admin",
  );
  const passwordHash = input.password === undefined ? null : await deps.passwords.hash(input.password);
  const emailVerified = input.emailVerified ?? false;
  return inserting(() =>
    deps.db.transaction(async (repos) => {
      const user = await repos.users.create(project.id, {
        organizationId: project.organizationId,
        email: input.email,
        emailVerified,
        passwordHash,
        metadata,
        appMetadata,
        locale,
      });
      await repos.auditEvents.record({
        type: "user.created",
        organizationId: project.organizationId,
        projectId: project.id,
        userId: user.id,
        targetId: user.id,
        details: { password: passwordHash !== null, email_verified: emailVerified },
        origin,
      });
      return user;
    }),
  );
}

/** A new user's metadata or app_metadata: UpdateUser's rules (null keys dropped, the same caps). */
export function initialMetadata(
  given: Record<string, unknown> | undefined,
  field: "metadata" | "app_metadata",
): Record<string, unknown> {
  return mergeMetadata({}, given ?? {}, field);
}

/**
 * Runs the insert of a new user; the address taken (its canonical key, so look-alikes and other
 * spellings too, as at Signup) is ALREADY_EXISTS EMAIL_EXISTS.
 */
export async function inserting<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isEmailTaken(error)) throw emailExists();
    throw error;
  }
}

export function isEmailTaken(error: unknown): boolean {
  return error instanceof UniqueViolation && error.constraint === "users_project_email_key";
}
