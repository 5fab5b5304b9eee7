import type { Project } from "../../domain/account.js";
import type { ClientInfo } from "../../domain/auth.js";
import { DomainError } from "../../domain/errors.js";
import type { FlowDeps } from "../deps.js";
import { startSession, type SignedIn, type SignInContext } from "./tokens.js";

export interface LoginInput {
  email: string;
  password: string;
  client: ClientInfo;
}

/**
 * An unknown email, a user without a password and a wrong password cost the same argon2 work
 * and give the same answer. Only after a correct password does a disabled user learn so.
 */
export async function login(deps: FlowDeps, project: Project, input: LoginInput): Promise<SignedIn> {
  const found = await deps.db.repos.users.findCredentials(project.id, input.email);
  const verdict = await deps.passwords.verify(found?.passwordHash ?? null, input.password);
  if (!found || !verdict.ok) throw new DomainError("INVALID_CREDENTIALS", "the email or password is incorrect");
  if (found.user.disabled) throw new DomainError("USER_DISABLED", "this account is disabled");
  // Parameters changed since the hash was made: store a fresh one while the password is known.
  const context: SignInContext = { amr: ["pwd"], method: "password", kind: "login", client: input.client };
  // startSession writes in one statement: only a rehash needs a transaction around it.
  if (!verdict.needsRehash) return startSession(deps, deps.db.repos, project, found.user, context);
  const rehash = await deps.passwords.hash(input.password);
  return deps.db.transaction(async (repos) => {
    await repos.users.update(project.id, found.user.id, { passwordHash: rehash });
    return startSession(deps, repos, project, found.user, context);
  });
}
