import { normalizeEmail, type Project } from "../../domain/account.js";
import type { ClientInfo } from "../../domain/auth.js";
import { DomainError } from "../../domain/errors.js";
import { localeSetting } from "../../domain/locale-setting.js";
import { requireAcceptablePassword } from "../../domain/password-policy.js";
import { allowedRedirect } from "../../domain/redirects.js";
import { maySignUp } from "../../domain/signup-policy.js";
import { UniqueViolation } from "../../store/errors.js";
import { projectScope } from "../../limits/limits.js";
import type { FlowDeps } from "../deps.js";
import { admitSend, projectSendTarget } from "../send-gate.js";
import { completeSignIn, signupsClosed, type Completed, type Proof, type SignInOutcome } from "./complete-sign-in.js";
import { queueVerificationEmail } from "./email-verification.js";
import { confirmsByEmail, requestSignupConfirmation, type ConfirmationRequired } from "./signup-confirmation.js";
import type { NewUser } from "./tokens.js";
import { askBeforeUserCreated } from "../hooks/before-user-created.js";
import { hookedTransaction } from "../hooks/hooked-transaction.js";

export interface SignupInput {
  email: string;
  password: string;
  metadata: Record<string, unknown>;
  /** Absent: the project's `send_verification` setting decides. */
  sendVerification?: boolean;
  /** Where the verification link points; empty: the project's redirect_url. */
  redirectUrl?: string;
  client: ClientInfo;
  /** A publishable key or the hosted pages: unless the project reveals EMAIL_EXISTS, the address confirms the signup. */
  publicCredential?: boolean;
  /** The new user's language, a BCP 47 tag (stored canonical); absent or "": none. */
  locale?: string;
}

/** A session or challenge, or (public credentials) the same "check your email" for every address. */
export type SignupOutcome = SignInOutcome | ConfirmationRequired;

/**
 * User, session, refresh token and usage event in one statement, with (when asked) the
 * verification email in the same transaction; the email is handed to delivery after commit.
 * In a project with mfa_required the user is created without a session and held at an
 * enrollment challenge (completeSignIn). The password is hashed first: argon2 is the slow part
 * and must not hold a connection. From a public credential (confirmsByEmail) nothing is made
 * yet: signup-confirmation.ts mails the address, after the same checks and the same hashing.
 */
export async function signup(
  deps: Pick<
    FlowDeps,
    | "config"
    | "db"
    | "clock"
    | "passwords"
    | "secrets"
    | "logger"
    | "mail"
    | "sms"
    | "codes"
    | "verification"
    | "limits"
    | "hooks"
    | "detached"
  >,
  project: Project,
  input: SignupInput,
): Promise<SignupOutcome> {
  // From the settings and the address alone, for every key: the answer tells nothing about registration.
  // An input rule: refused before any setting or limit is consulted.
  const locale = input.locale ? localeSetting("locale", input.locale) : "";
  if (!maySignUp(project, "password", input.email)) throw signupsClosed();
  // Before the argon2 work, so a flood of signups from one address costs it nothing.
  const scope = projectScope(project);
  await deps.limits.signup(scope, input.client.ipAddress);
  const linkTarget = allowedRedirect(project, input.redirectUrl ?? "", deps.config.publicUrl);
  requireAcceptablePassword(input.password);
  // Before the link is mailed or the argon2 work is done: the person sees a refusal at once. A
  // confirmation link asks again when it creates the account (the answer may have changed).
  await askBeforeUserCreated(
    deps,
    deps.db.repos,
    project,
    { email: input.email, phone: null, emailVerified: false, metadata: input.metadata },
    "password",
  );
  const passwordHash = await deps.passwords.hash(input.password);
  if (confirmsByEmail(project, input.publicCredential ?? false)) {
    return requestSignupConfirmation(deps, project, {
      email: input.email,
      passwordHash,
      metadata: input.metadata,
      linkTarget,
      ip: input.client.ipAddress,
      locale,
      acceptLanguage: input.client.acceptLanguage,
    });
  }
  const create: NewUser = {
    email: input.email,
    phone: null,
    emailVerified: false,
    phoneVerified: false,
    passwordHash,
    metadata: input.metadata,
    locale,
  };
  const subject = { create, vetted: true as const };
  const proof: Proof = { amr: ["pwd"], method: "password" };
  const withVerification = await mayMailVerification(deps, project, input);
  try {
    // Without a verification email or a challenge the one statement is the whole signup.
    if (!withVerification && !project.mfaRequired) {
      return (await completeSignIn(deps, deps.db.repos, project, subject, proof, input.client)).outcome;
    }
    const completed: Completed = await hookedTransaction(deps, async (repos) => {
      const completed = await completeSignIn(deps, repos, project, subject, proof, input.client);
      if (withVerification)
        await queueVerificationEmail(
          deps,
          repos,
          project,
          completed.user,
          "signup",
          linkTarget,
          input.client.acceptLanguage,
        );
      return completed;
    });
    return completed.outcome;
  } catch (error) {
    if (error instanceof UniqueViolation && error.constraint === "users_project_email_key") {
      throw new DomainError("EMAIL_EXISTS", "a user with this email already exists in this project");
    }
    throw error;
  }
}

/**
 * Whether the new account's verification mail goes out: asked for, and within the send limits.
 * Over the address's send limit the account is still made, without the mail (ResendVerification-style
 * floods of one inbox stop here); EMAIL_EXISTS already tells whether the address is taken.
 * A new account's address is a first contact: anonymous traffic may sign up, and must not
 * spend the budget that existing users' codes and links need.
 */
async function mayMailVerification(
  deps: Pick<FlowDeps, "db" | "logger" | "limits" | "detached">,
  project: Project,
  input: SignupInput,
): Promise<boolean> {
  const mailRequest = {
    kind: "verification",
    channel: "email",
    destination: normalizeEmail(input.email),
    known: false,
    overDestination: "drop",
  } as const;
  return (
    (input.sendVerification ?? project.sendVerification) &&
    (await admitSend(deps, projectSendTarget(project), { ...mailRequest, ip: input.client.ipAddress }))
  );
}
