import type { Project } from "../../domain/account.js";
import type { ClientInfo } from "../../domain/auth.js";
import { DomainError } from "../../domain/errors.js";
import { isCommonPassword } from "../../domain/password-policy.js";
import { UniqueViolation } from "../../store/errors.js";
import type { FlowDeps } from "../deps.js";
import { startSession, type SignedIn } from "./tokens.js";

export interface SignupInput {
  email: string;
  password: string;
  metadata: Record<string, unknown>;
  /** Absent: the project's `send_verification` setting decides. */
  sendVerification?: boolean;
  client: ClientInfo;
}

/** Runs inside Signup's transaction; may answer a step to run after commit (releasing a queued mail). */
export type SignupHook = (
  deps: FlowDeps,
  repos: import("../../store/database.js").Repositories,
  project: Project,
  signedIn: SignedIn,
) => Promise<(() => void) | void>;

/**
 * User, session, refresh token and usage event in one transaction. The password is hashed
 * before the transaction opens: argon2 is the slow part and must not hold a connection.
 * `afterCreate` runs inside the transaction (the verification email is queued there).
 */
export async function signup(deps: FlowDeps, project: Project, input: SignupInput, afterCreate?: SignupHook): Promise<SignedIn> {
  if (isCommonPassword(input.password)) {
    throw new DomainError("WEAK_PASSWORD", "this password is too common; choose another");
  }
  const passwordHash = await deps.passwords.hash(input.password);
  let afterCommit = undefined as (() => void) | void;
  try {
    const signedIn = await deps.db.transaction(async (repos) => {
      const user = await repos.users.create(project.id, {
        organizationId: project.organizationId,
        email: input.email,
        passwordHash,
        metadata: input.metadata,
      });
      const signedIn = await startSession(deps, repos, project, user, {
        amr: ["pwd"],
        method: "password",
        kind: "signup",
        client: input.client,
      });
      if (afterCreate && (input.sendVerification ?? project.sendVerification)) afterCommit = await afterCreate(deps, repos, project, signedIn);
      return signedIn;
    });
    afterCommit?.();
    return signedIn;
  } catch (error) {
    if (error instanceof UniqueViolation && error.constraint === "users_project_email_key") {
      throw new DomainError("EMAIL_EXISTS", "a user with this email already exists in this project");
    }
    throw error;
  }
}
