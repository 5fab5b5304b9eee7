import type { Project } from "../../../domain/account.js";
import type { ClientInfo, User } from "../../../domain/auth.js";
import type { ProvenIdentity } from "../../../domain/sso.js";
import type { Repositories } from "../../../store/database.js";
import { UniqueViolation } from "../../../store/errors.js";
import type { SignInAttempt } from "../../audit/sign-in.js";
import type { FlowDeps } from "../../deps.js";
import { completeSignIn, type Completed, type SignInOutcome } from "../complete-sign-in.js";
import { hookedTransaction } from "../../hooks/hooked-transaction.js";

/**
 * Signs in the user an identity belongs to, through the completion step: the user already
 * linked to it; else the user with its (verified) email, linked now; else a new user with the
 * email verified, linked. All in one transaction, so a refused sign-in (a disabled user) links
 * nothing. `newUserMetadata` is what a new user starts with (Apple's name, told once).
 */
export async function signInWithIdentity(
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
  project: Project,
  identity: ProvenIdentity,
  client: ClientInfo,
  audited?: SignInAttempt,
  newUserMetadata: Record<string, unknown> = {},
): Promise<SignInOutcome> {
  const proof = { amr: ["sso"], method: "sso" as const };
  // Two first sign-ins of one identity (or email) racing: the loser's insert fails on the
  // unique key, and running again signs it in as the user the winner created.
  for (let attempt = 0; ; attempt++) {
    try {
      const completed = await hookedTransaction(deps, async (repos): Promise<Completed> => {
        const now = deps.clock.now();
        const linked = await repos.ssoIdentities.find(project.id, identity.issuer, identity.subject);
        const linkedUser = linked && (await repos.users.get(project.id, linked.userId));
        // The user it names, for the audit log of a refusal (a disabled user).
        if (audited) audited.userId = linkedUser?.id;
        if (linkedUser) return completeSignIn(deps, repos, project, { existing: linkedUser }, proof, client);
        const byEmail = (await repos.users.findCredentials(project.id, identity.email))?.user;
        if (byEmail) {
          if (audited) audited.userId = byEmail.id;
          const user = await adopt(repos, project, byEmail, now);
          await repos.ssoIdentities.link(project.id, { ...identity, userId: user.id, linkedAt: now });
          return completeSignIn(deps, repos, project, { existing: user }, proof, client);
        }
        const create = {
          email: identity.email,
          phone: null,
          emailVerified: true,
          phoneVerified: false,
          passwordHash: null,
          metadata: newUserMetadata,
        };
        const completed = await completeSignIn(deps, repos, project, { create }, proof, client);
        await repos.ssoIdentities.link(project.id, { ...identity, userId: completed.user.id, linkedAt: now });
        return completed;
      });
      return completed.outcome;
    } catch (error) {
      if (!(error instanceof UniqueViolation) || attempt > 0) throw error;
    }
  }
}

/**
 * The user whose email the provider vouches for. If that user never proved the address, the
 * account may have been made by someone else with the victim's email, waiting for this link
 * (pre-account takeover): its password and sessions go, and the address becomes verified.
 */
async function adopt(repos: Repositories, project: Project, user: User, now: Date): Promise<User> {
  if (user.emailVerified) return user;
  await repos.sessions.revokeAll(project.id, user.id, now);
  return (await repos.users.update(project.id, user.id, { emailVerified: true, passwordHash: null })) ?? user;
}
