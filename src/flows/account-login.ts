import { DomainError } from "../domain/errors.js";
import type { Membership } from "../domain/member-identity.js";
import { normalizeEmail } from "../domain/account.js";
import { ACCOUNT_SCOPE, checking } from "../limits/limits.js";
import type { AuditOrigin } from "../domain/audit.js";
import { auditedRefusal, recordMemberLoginFailed } from "./audit/member-sign-in.js";
import type { FlowDeps } from "./deps.js";
import { issueManagementToken, type IssuedManagementToken } from "./management-token.js";
import { secondStep, type MemberChallenge } from "./members/mfa/challenge.js";

export interface AccountLoginInput {
  email: string;
  password: string;
  /** The organization to sign in to; needed only when the identity belongs to several. */
  organizationId?: string;
  /** The client address (after TRUSTED_PROXIES), for the per-address limit. */
  ip: string;
}

/** A token bound to one organization, the organizations to choose from, or a second factor to give. */
export type AccountLoginResult =
  | { kind: "token"; token: IssuedManagementToken; organizationId: string }
  | { kind: "choose"; organizations: Array<{ id: string; name: string; role: string }> }
  | { kind: "challenge"; challenge: MemberChallenge };

const invalid = () => new DomainError("INVALID_CREDENTIALS", "the email or password is incorrect");

// An unknown email, a wrong password, an organization the identity is not a member of and an
// identity left without organizations give the same answer: the hasher verifies against a
// dummy hash when there is no identity, and the organizations are read only after the
// password proved who asks, so the list never reaches anyone else.
export async function accountLogin(
  deps: Pick<FlowDeps, "db" | "clock" | "passwords" | "logger" | "codes" | "limits" | "detached">,
  input: AccountLoginInput,
  origin: AuditOrigin,
): Promise<AccountLoginResult> {
  const { db, passwords, clock, limits } = deps;
  // The Account interface's own limits (the defaults), as for end users (login.ts).
  const account = normalizeEmail(input.email);
  const limited = await limits
    .beginSignIn(ACCOUNT_SCOPE, account, input.ip)
    .catch((error: unknown) => auditedRefusal(deps, account, error, origin));
  const { found, verdict } = await checking(limited, async () => {
    const found = await db.repos.memberIdentities.findCredentialsByEmail(input.email);
    return { found, verdict: await passwords.verify(found?.passwordHash ?? null, input.password) };
  });
  if (!found || !verdict.ok) {
    await limited.failed();
    // After the answer: a known identity writes an event per organization, an unknown one none.
    if (found)
      deps.detached.run("audit member.login.failed", () => recordMemberLoginFailed(deps, found.identity.id, origin));
    throw invalid();
  }
  // The password proved who asks: a wrong organization afterwards is no guess at the password.
  await limited.succeeded();
  const rehash = verdict.needsRehash ? await passwords.hash(input.password) : undefined;
  return db.transaction(async (repos) => {
    if (rehash) await repos.memberIdentities.rehashPassword(found.identity.id, found.passwordHash, rehash);
    const memberships = await repos.members.listForIdentity(found.identity.id);
    const chosen = choose(memberships, input.organizationId);
    if (chosen === "choose") {
      return {
        kind: "choose",
        organizations: memberships.map((m) => ({
          id: m.member.organizationId,
          name: m.organizationName,
          role: m.member.role,
        })),
      };
    }
    // The password is one factor: an identity with a second one (or without one, in an
    // organization that requires it) is held at a challenge (members/mfa/challenge.ts).
    const challenge = await secondStep(deps, repos, found.identity.id, chosen.member);
    if (challenge) return { kind: "challenge", challenge };
    const token = await issueManagementToken(repos, chosen.member, clock.now());
    const { organizationId, id } = chosen.member;
    await repos.auditEvents.record({
      type: "member.login.succeeded",
      organizationId,
      projectId: null,
      targetId: id,
      origin: { ...origin, actor: { type: "member", id } },
    });
    return { kind: "token", token, organizationId };
  });
}

function choose(memberships: Membership[], organizationId: string | undefined): Membership | "choose" {
  if (organizationId) {
    const named = memberships.find((m) => m.member.organizationId === organizationId);
    if (!named) throw invalid();
    return named;
  }
  if (memberships.length === 0) throw invalid();
  return memberships.length === 1 ? memberships[0] : "choose";
}
