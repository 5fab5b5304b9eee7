import { hashToken } from "../../../crypto/tokens.js";
import type { AuditOrigin } from "../../../domain/audit.js";
import { DomainError } from "../../../domain/errors.js";
import { MAX_CODE_ATTEMPTS } from "../../../domain/mfa.js";
import type { MemberMfaFactor, MemberMfaMethod, MemberProof } from "../../../domain/member-mfa.js";
import { ACCOUNT_SCOPE, checking } from "../../../limits/limits.js";
import type { Repositories } from "../../../store/database.js";
import type { FlowDeps } from "../../deps.js";
import { auditedAnswer, recordFailuresExceeded, recordForIdentity } from "./audit.js";
import { invalidMemberMfaToken } from "./challenge.js";
import { checkMemberCode, checkMemberEnrollmentCode, issueMemberRecoveryCodes } from "./codes.js";
import { completeMemberSignIn, type MemberSignedIn } from "./complete.js";
import { identityOfPrincipal, missingCredential, type MemberCaller } from "./identity.js";

export interface VerifyMemberMfaInput extends MemberCaller {
  code: string;
  method?: MemberMfaMethod;
  /** The client address (after TRUSTED_PROXIES), for the limits. */
  ip: string;
}

/** A confirmed enrollment: the method, and the recovery codes of the identity's first factor. */
export interface MemberEnrolled {
  method: MemberMfaMethod;
  recoveryCodes: string[];
}

export interface VerifyMemberMfaResult {
  signedIn?: MemberSignedIn;
  enrolled?: MemberEnrolled;
}

/**
 * VerifyMemberMfa, as end users' VerifyMfa (flows/auth/mfa/verify.ts). With an mfa_token the
 * code answers the challenge (or confirms the enrollment an enrollment challenge started) and
 * the sign-in ends with a management token. With the management token alone it confirms the
 * caller's pending enrollment. Tries are taken before the check from the client address, the
 * challenge and, answering a sign-in's second factor, the identity (the Account interface's
 * mfa_failures_per_account, counted across challenges as wrong passwords are per email).
 */
export async function verifyMemberMfa(
  deps: Pick<FlowDeps, "db" | "clock" | "secrets" | "logger" | "codes" | "limits" | "detached">,
  input: VerifyMemberMfaInput,
  origin: AuditOrigin,
): Promise<VerifyMemberMfaResult> {
  if (input.mfaToken !== "") return answerChallenge(deps, input, origin);
  if (!input.principal) throw missingCredential();
  const principal = input.principal;
  const result = await deps.db.transaction(async (repos): Promise<MemberEnrolled | "wrong"> => {
    const identity = await identityOfPrincipal(repos, principal);
    const pending = await repos.memberMfaFactors.lockPending(identity.id, input.method);
    if (!pending) throw notEnrolling();
    if (!(await checkMemberEnrollmentCode(deps, repos, pending, input.code))) {
      await repos.memberMfaFactors.recordPendingFailure(identity.id, pending.id, MAX_CODE_ATTEMPTS);
      return "wrong";
    }
    return confirmEnrollment(deps, repos, pending, origin);
  });
  if (result === "wrong") throw wrongCode();
  return { enrolled: result };
}

async function answerChallenge(
  deps: Pick<FlowDeps, "db" | "clock" | "secrets" | "logger" | "codes" | "limits" | "detached">,
  input: VerifyMemberMfaInput,
  origin: AuditOrigin,
): Promise<VerifyMemberMfaResult> {
  const tokenHash = hashToken(input.mfaToken.trim());
  // Outside the transaction (which would hold PGlite's only connection while the limits count).
  const live = await deps.db.repos.memberMfaChallenges.findLive(tokenHash, deps.clock.now());
  return auditedAnswer(deps, live, origin, "mfa", async () => {
    // An enrollment's first code is no guess at a factor the identity has: not counted for it.
    const secondFactorOf = live?.purpose === "verify" ? live.identityId : undefined;
    const limited = await deps.limits.beginVerify(
      ACCOUNT_SCOPE,
      { challenge: `member-mfa:${tokenHash}`, secondFactorOf },
      input.ip,
    );
    const result = await checking(limited, () => answer(deps, tokenHash, input, origin));
    if (result === "wrong") {
      const { tripped } = await limited.failed();
      if (tripped && secondFactorOf !== undefined) {
        const failures = ACCOUNT_SCOPE.limits.mfaFailuresPerAccount;
        deps.detached.run("member mfa failures", () => recordFailuresExceeded(deps, secondFactorOf, origin, failures));
      }
      throw wrongCode();
    }
    await limited.succeeded();
    return result;
  });
}

function answer(
  deps: Pick<FlowDeps, "db" | "clock" | "secrets" | "codes">,
  tokenHash: string,
  input: VerifyMemberMfaInput,
  origin: AuditOrigin,
): Promise<VerifyMemberMfaResult | "wrong"> {
  return deps.db.transaction(async (repos): Promise<VerifyMemberMfaResult | "wrong"> => {
    const now = deps.clock.now();
    // Locked: two answers to one challenge run one after the other, so only one can succeed.
    const challenge = await repos.memberMfaChallenges.lockLive(tokenHash, now);
    if (!challenge) throw invalidMemberMfaToken();
    let proof: MemberProof | undefined;
    let enrolled: MemberEnrolled | undefined;
    if (challenge.purpose === "enroll") {
      const pending = await repos.memberMfaFactors.lockPending(challenge.identityId, input.method);
      if (!pending) throw notEnrolling();
      if (await checkMemberEnrollmentCode(deps, repos, pending, input.code)) {
        enrolled = await confirmEnrollment(deps, repos, pending, origin);
        proof = pending.method;
      }
    } else {
      proof = await checkMemberCode(deps, repos, challenge.identityId, input.code, input.method);
    }
    if (proof === undefined) {
      await repos.memberMfaChallenges.recordFailure(tokenHash, MAX_CODE_ATTEMPTS, now);
      return "wrong";
    }
    const signedIn = await completeMemberSignIn(deps, repos, tokenHash, challenge, proof, origin);
    return { signedIn, enrolled };
  });
}

/** Makes the pending factor active; the identity's first factor comes with ten recovery codes. */
async function confirmEnrollment(
  deps: Pick<FlowDeps, "clock" | "codes">,
  repos: Repositories,
  pending: MemberMfaFactor,
  origin: AuditOrigin,
): Promise<MemberEnrolled> {
  // The identity's row, locked: its factors change one transaction at a time (unenroll.ts).
  await repos.memberIdentities.lockPasswordHash(pending.identityId);
  const before = await repos.memberMfaFactors.summary(pending.identityId);
  await repos.memberMfaFactors.confirm(pending.identityId, pending.id, deps.clock.now());
  const first = !before.totp && before.passkeys === 0;
  const recoveryCodes = first ? await issueMemberRecoveryCodes(deps, repos, pending.identityId) : [];
  await recordForIdentity(repos, pending.identityId, "member.mfa.enrolled", origin, {
    details: { method: pending.method },
  });
  return { method: pending.method, recoveryCodes };
}

function notEnrolling(): DomainError {
  return new DomainError(
    "MFA_NOT_ENROLLED",
    "there is no pending enrollment to confirm; start one with StartMemberMfaEnrollment",
  );
}

function wrongCode(): DomainError {
  return new DomainError("INVALID_CODE", "the code is wrong or was used already");
}
