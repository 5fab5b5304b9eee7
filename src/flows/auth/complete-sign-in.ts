import type { Project } from "../../domain/account.js";
import type { ClientInfo, User } from "../../domain/auth.js";
import { DomainError } from "../../domain/errors.js";
import { provesTwoFactors, type UserMfaMethod } from "../../domain/mfa.js";
import { maySignUp, SIGNUP_METHODS } from "../../domain/signup-policy.js";
import type { AuthMethod } from "../../domain/usage.js";
import type { Repositories } from "../../store/database.js";
import type { FlowDeps } from "../deps.js";
import { signInAudit } from "../audit/sign-in.js";
import { askBeforeUserCreated } from "../hooks/before-user-created.js";
import { openChallenge } from "./mfa/challenge.js";
import { newUserWrite, startSession, startSessionForNewUser, type NewUser, type SignedIn } from "./tokens.js";

/** What the sign-in so far has proven: the session's `amr`, and the method usage counts it under. */
export interface Proof {
  amr: string[];
  method: AuthMethod;
  /** The passkey that proved the first factor, if one did: a challenge will not take it again. */
  passkeyId?: string;
}

/** Who is signing in: a user who exists, or one the first factor is about to create (sign-up). */
/** `vetted`: the caller already asked the before_user_created hook for this user. */
export type SignInSubject = { existing: User } | { create: NewUser; vetted?: true };

/** The challenge of API.md section 5: `{mfa_required, mfa_token, mfa_methods, expires_in}`. */
export interface ChallengeAnswer {
  mfaToken: string;
  /** The user's methods; `[]` for an enrollment challenge. */
  methods: UserMfaMethod[];
  expiresIn: number;
}

export type SignInOutcome =
  { tokens: SignedIn; challenge?: undefined } | { challenge: ChallengeAnswer; tokens?: undefined };

export interface Completed {
  outcome: SignInOutcome;
  /** The user signed in, or held at the challenge (created by this step for a sign-up). */
  user: User;
}

/**
 * The one way out of every sign-in method (password, one-time code, magic link, SSO, MFA): the
 * method proves a factor and hands it here, and this step alone decides between a session and
 * an MFA challenge, as Kratos checks the assurance level before a session exists.
 *
 * - A user the project's signup settings do not admit by this method: SIGNUPS_CLOSED, before
 *   anything is written. Each public path checks first and answers as for an unknown
 *   address; this is the backstop every creating path passes (signupsClosed).
 * - A disabled user: USER_DISABLED.
 * - MFA enrolled and no second factor proven: a challenge (`verify`).
 * - No MFA in a project with mfa_required: an enrollment challenge (`mfa_methods: []`); a new
 *   user is created first, with no session.
 * - Otherwise a session and its tokens, with `amr` listing every factor proven.
 *
 * Runs in the caller's repositories: a challenge that sends an SMS writes two rows, so the
 * caller opens a transaction whenever a challenge is possible.
 */
export async function completeSignIn(
  deps: Pick<
    FlowDeps,
    | "config"
    | "db"
    | "clock"
    | "secrets"
    | "logger"
    | "sms"
    | "codes"
    | "verification"
    | "limits"
    | "hooks"
    | "detached"
  >,
  repos: Repositories,
  project: Project,
  subject: SignInSubject,
  proof: Proof,
  client: ClientInfo,
): Promise<Completed> {
  if ("create" in subject) {
    const method = SIGNUP_METHODS.find((m) => m === proof.method);
    if (method === undefined || !maySignUp(project, method, subject.create.email)) throw signupsClosed();
    if (!subject.vetted) await askBeforeUserCreated(deps, repos, project, subject.create, method);
    if (!project.mfaRequired) {
      const tokens = await startSessionForNewUser(deps, repos, project, subject.create, {
        ...proof,
        kind: "signup",
        client,
      });
      return { outcome: { tokens }, user: tokens.user };
    }
    const row = newUserWrite(project, subject.create);
    const at = deps.clock.now();
    const audit = signInAudit(project, row.id, { kind: "signup", method: proof.method, client }, at);
    const user = await repos.signIns.recordSignupWithoutSession(
      project.id,
      row,
      { kind: "signup", method: proof.method, at },
      audit,
    );
    return openChallenge(deps, repos, project, user, "enroll", proof, client.ipAddress);
  }
  const user = subject.existing;
  if (user.disabled) throw new DomainError("USER_DISABLED", "this account is disabled");
  if (user.mfaMethods.length > 0 && !provesTwoFactors(proof.amr)) {
    return openChallenge(deps, repos, project, user, "verify", proof, client.ipAddress);
  }
  if (user.mfaMethods.length === 0 && project.mfaRequired)
    return openChallenge(deps, repos, project, user, "enroll", proof, client.ipAddress);
  const tokens = await startSession(deps, repos, project, user, { ...proof, kind: "login", client });
  return { outcome: { tokens }, user: tokens.user };
}

/** Whether completing a sign-in for this user may open a challenge (and so needs a transaction). */
export function mayChallenge(project: Project, user: User | null): boolean {
  return project.mfaRequired || (user !== null && user.mfaMethods.length > 0);
}

/** The refusal of a user the project's signup settings do not admit (API.md section 7). */
export function signupsClosed(): DomainError {
  return new DomainError("SIGNUPS_CLOSED", "this project does not take new signups for this address or method");
}

/** Whether `error` is that refusal: a public path answers it as for an unknown address instead. */
export function isSignupsClosed(error: unknown): boolean {
  return error instanceof DomainError && error.reason === "SIGNUPS_CLOSED";
}
