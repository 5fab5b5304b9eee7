import type { Project } from "../../domain/account.js";
import type { ClientInfo } from "../../domain/auth.js";
import { DomainError } from "../../domain/errors.js";
import { isCommonPassword } from "../../domain/password-policy.js";
import { UniqueViolation } from "../../store/errors.js";
import type { QueuedMail } from "../../notify/outbox.js";
import type { FlowDeps } from "../deps.js";
import { queueVerificationEmail } from "./email-verification.js";
import { startSessionForNewUser, type SignedIn, type SignInContext } from "./tokens.js";

export interface SignupInput {
  email: string;
  password: string;
  metadata: Record<string, unknown>;
  /** Absent: the project's `send_verification` setting decides. */
  sendVerification?: boolean;
  client: ClientInfo;
}

/**
 * User, session, refresh token and usage event in one statement, with (when asked) the
 * verification email in the same transaction; the email is handed to delivery after commit.
 * The password is hashed first: argon2 is the slow part and must not hold a connection.
 */
export async function signup(deps: FlowDeps, project: Project, input: SignupInput): Promise<SignedIn> {
  if (isCommonPassword(input.password)) {
    throw new DomainError("WEAK_PASSWORD", "this password is too common; choose another");
  }
  const passwordHash = await deps.passwords.hash(input.password);
  let verification: QueuedMail | undefined;
  try {
    const context: SignInContext = { amr: ["pwd"], method: "password", kind: "signup", client: input.client };
    const newUser = { email: input.email, passwordHash, metadata: input.metadata };
    // Without a verification email the one statement is the whole signup; with one, the
    // outbox row joins it in a transaction.
    const signedIn =
      (input.sendVerification ?? project.sendVerification)
        ? await deps.db.transaction(async (repos) => {
            const signedIn = await startSessionForNewUser(deps, repos, project, newUser, context);
            verification = await queueVerificationEmail(deps, repos, project, signedIn.user, "signup");
            return signedIn;
          })
        : await startSessionForNewUser(deps, deps.db.repos, project, newUser, context);
    if (verification) deps.mail.release(verification);
    return signedIn;
  } catch (error) {
    if (error instanceof UniqueViolation && error.constraint === "users_project_email_key") {
      throw new DomainError("EMAIL_EXISTS", "a user with this email already exists in this project");
    }
    throw error;
  }
}
