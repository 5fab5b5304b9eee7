import { normalizeEmail, type Project } from "../../domain/account.js";
import type { ClientInfo } from "../../domain/auth.js";
import { DomainError } from "../../domain/errors.js";
import { checking, projectScope } from "../../limits/limits.js";
import { auditedSignIn, type SignInAttempt } from "../audit/sign-in.js";
import type { FlowDeps } from "../deps.js";
import { completeSignIn, mayChallenge, type Proof, type SignInOutcome } from "./complete-sign-in.js";
import { hookedTransaction } from "../hooks/hooked-transaction.js";

export interface LoginInput {
  email: string;
  password: string;
  client: ClientInfo;
}

/**
 * An unknown email, a user without a password and a wrong password cost the same argon2 work
 * and give the same answer. Only after a correct password does a disabled user learn so
 * (completeSignIn), and only then does MFA come into play.
 *
 * Rate limits come first: an account or an address that must wait is answered before any
 * lookup or argon2 work, whether the email is registered or not, and the right password
 * waits too. The try holds a place among both counts' remaining guesses while the password is
 * checked, so parallel guesses cannot all pass one check; a failure is counted, a success
 * counts nothing and forgets the account's failures (src/limits).
 */
export async function login(
  deps: Pick<
    FlowDeps,
    | "config"
    | "db"
    | "clock"
    | "passwords"
    | "secrets"
    | "logger"
    | "sms"
    | "codes"
    | "verification"
    | "limits"
    | "hooks"
    | "detached"
  >,
  project: Project,
  input: LoginInput,
): Promise<SignInOutcome> {
  const attempt: SignInAttempt = { method: "password", email: input.email };
  return auditedSignIn(deps, project, input.client, attempt, () => passwordSignIn(deps, project, input, attempt));
}

async function passwordSignIn(
  deps: Pick<
    FlowDeps,
    | "config"
    | "db"
    | "clock"
    | "passwords"
    | "secrets"
    | "logger"
    | "sms"
    | "codes"
    | "verification"
    | "limits"
    | "hooks"
    | "detached"
  >,
  project: Project,
  input: LoginInput,
  attempt: SignInAttempt,
): Promise<SignInOutcome> {
  const scope = projectScope(project);
  const account = normalizeEmail(input.email);
  const limited = await deps.limits.beginSignIn(scope, account, input.client.ipAddress);
  const { found, verdict } = await checking(limited, () => checkPassword(deps, project, input));
  attempt.userId = found?.user.id;
  if (!found || !verdict.ok) {
    await limited.failed();
    throw new DomainError("INVALID_CREDENTIALS", "the email or password is incorrect");
  }
  await limited.succeeded();
  const proof: Proof = { amr: ["pwd"], method: "password" };
  const subject = { existing: found.user };
  // A session is written in one statement: the common sign-in needs no transaction. A rehash or
  // a challenge (which may queue an SMS) writes more, and then one transaction holds it all.
  if (!verdict.needsRehash && !mayChallenge(project, found.user)) {
    return (await completeSignIn(deps, deps.db.repos, project, subject, proof, input.client)).outcome;
  }
  // Parameters changed since the hash was made: store a fresh one while the password is known.
  const rehash = verdict.needsRehash ? await deps.passwords.hash(input.password) : undefined;
  const completed = await hookedTransaction(deps, async (repos) => {
    if (rehash) await repos.users.update(project.id, found.user.id, { passwordHash: rehash });
    return completeSignIn(deps, repos, project, subject, proof, input.client);
  });
  return completed.outcome;
}

async function checkPassword(deps: Pick<FlowDeps, "db" | "passwords">, project: Project, input: LoginInput) {
  const found = await deps.db.repos.users.findCredentials(project.id, input.email);
  const verdict = await deps.passwords.verify(found?.passwordHash ?? null, input.password);
  return { found, verdict };
}
