import { hashToken } from "../../../crypto/tokens.js";
import type { Project } from "../../../domain/account.js";
import type { ClientInfo, User } from "../../../domain/auth.js";
import { DomainError } from "../../../domain/errors.js";
import { MAX_CODE_ATTEMPTS, type MfaFactor, type MfaMethod } from "../../../domain/mfa.js";
import type { Repositories } from "../../../store/database.js";
import { checking, projectScope } from "../../../limits/limits.js";
import { noticeMfaFailures } from "./failures-notice.js";
import { auditedSignIn, userOrigin, type SignInAttempt } from "../../audit/sign-in.js";
import type { FlowDeps } from "../../deps.js";
import { completeSignIn, type Completed, type SignInOutcome } from "../complete-sign-in.js";
import { challengeSmsContext } from "./challenge.js";
import { invalidMfaToken } from "./enroll.js";
import { issueRecoveryCodes } from "./recovery-codes.js";
import { checkChallengeCode, checkEnrollmentCode, type SecondFactor } from "./second-factor.js";
import { hookedTransaction } from "../../hooks/hooked-transaction.js";

export interface VerifyMfaInput {
  mfaToken: string;
  code: string;
  method?: MfaMethod;
  /** The user of the access token, when one was sent. */
  userId?: string;
  client: ClientInfo;
}

/** A finalized enrollment: the method, and the recovery codes issued with the user's first factor. */
export interface Enrolled {
  method: MfaMethod;
  recoveryCodes: string[];
}

export interface VerifyMfaResult {
  /** Absent when an access token finalized an enrollment (the user is signed in already). */
  outcome?: SignInOutcome;
  enrolled?: Enrolled;
}

/**
 * VerifyMfa. With an mfa_token: the code answers the challenge (a sign-in's second factor, or
 * the first code of the enrollment an enrollment challenge started), and the sign-in ends in the
 * completion step, with the factor added to `amr`. With the user's access token: the code
 * finalizes the pending enrollment. A wrong code counts against the mfa_token (or the pending
 * enrollment); the fifth spends it. Answering a challenge is a sign-in, and its failure is audited
 * (auditedSignIn); confirming an enrollment is not.
 */
export async function verifyMfa(
  deps: Pick<
    FlowDeps,
    | "config"
    | "db"
    | "clock"
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
  input: VerifyMfaInput,
): Promise<VerifyMfaResult> {
  if (input.mfaToken !== "") {
    // Told the challenge's user once it is known (answerChallenge).
    const attempt: SignInAttempt = { method: "mfa", userId: input.userId };
    return auditedSignIn(deps, project, input.client, attempt, () => verifyChallenge(deps, project, input, attempt));
  }
  if (input.userId === undefined)
    throw new DomainError("MISSING_ACCESS_TOKEN", "send the mfa_token of the challenge, or the user's access token");
  const userId = input.userId;
  const result = await deps.db.transaction(async (repos): Promise<Enrolled | "wrong"> => {
    const pending = await repos.mfaFactors.lockPending(project.id, userId, input.method);
    const user = await repos.users.get(project.id, userId);
    if (!pending || !user) throw notEnrolling();
    if (!(await checkEnrollmentCode(deps, repos, project, pending, input.code))) {
      await repos.mfaFactors.recordPendingFailure(project.id, pending.id, MAX_CODE_ATTEMPTS);
      return "wrong";
    }
    return confirmEnrollment(deps, repos, project, user, pending, input.client);
  });
  if (result === "wrong") throw wrongCode();
  return { enrolled: result };
}

async function verifyChallenge(
  deps: Pick<
    FlowDeps,
    | "config"
    | "db"
    | "clock"
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
  input: VerifyMfaInput,
  attempt: SignInAttempt,
): Promise<VerifyMfaResult> {
  const tokenHash = hashToken(input.mfaToken.trim());
  // Outside the transaction (which holds PGlite's only connection): per challenge, per IP and,
  // for a sign-in's second factor, per user across challenges, so a new challenge (a new
  // password sign-in, from a new address) does not bring new guesses. An enrollment's first
  // code is no guess at a factor the user has, and does not count for the user.
  const live = await deps.db.repos.mfaChallenges.findLive(project.id, tokenHash, deps.clock.now());
  const secondFactorOf = live?.purpose === "verify" ? live.userId : undefined;
  const limited = await deps.limits.beginVerify(
    projectScope(project),
    { challenge: `mfa:${tokenHash}`, secondFactorOf },
    input.client.ipAddress,
  );
  const result = await checking(limited, () => answerChallenge(deps, project, tokenHash, input, attempt));
  if (result === "wrong") {
    const { tripped } = await limited.failed();
    if (tripped && secondFactorOf !== undefined) {
      deps.detached.run("mfa failures notice", () => noticeMfaFailures(deps, project, secondFactorOf, input.client));
    }
    throw wrongCode();
  }
  await limited.succeeded();
  return { outcome: result.completed.outcome, enrolled: result.enrolled };
}

function answerChallenge(
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
  tokenHash: string,
  input: VerifyMfaInput,
  attempt: SignInAttempt,
) {
  return hookedTransaction(deps, async (repos): Promise<{ completed: Completed; enrolled?: Enrolled } | "wrong"> => {
    const now = deps.clock.now();
    // Locked: two verifies of one challenge run one after the other, so only one can succeed.
    const challenge = await repos.mfaChallenges.lockLive(project.id, tokenHash, now);
    const user = challenge && (await repos.users.get(project.id, challenge.userId));
    if (!challenge || !user) throw invalidMfaToken();
    attempt.userId = user.id;
    let factor: SecondFactor | undefined;
    let enrolled: Enrolled | undefined;
    if (challenge.purpose === "enroll") {
      const pending = await repos.mfaFactors.lockPending(project.id, user.id, input.method);
      if (!pending) throw notEnrolling();
      if (await checkEnrollmentCode(deps, repos, project, pending, input.code)) {
        enrolled = await confirmEnrollment(deps, repos, project, user, pending, input.client);
        factor = pending.method;
      }
    } else {
      const smsContext = challengeSmsContext(project.id, tokenHash);
      factor = await checkChallengeCode(deps, repos, project, user, {
        code: input.code,
        method: input.method,
        smsCodeHmac: challenge.smsCodeHmac,
        smsContext,
      });
    }
    if (factor === undefined) {
      await repos.mfaChallenges.recordFailure(project.id, tokenHash, MAX_CODE_ATTEMPTS, now);
      return "wrong";
    }
    await repos.mfaChallenges.consume(project.id, tokenHash, now);
    // Read again: a finalized enrollment changed the user's methods.
    const current = (await repos.users.get(project.id, user.id)) ?? user;
    const proof = { amr: [...challenge.amr, factor], method: challenge.method };
    return {
      completed: await completeSignIn(deps, repos, project, { existing: current }, proof, input.client),
      enrolled,
    };
  });
}

/** Makes the pending factor active; the user's first factor comes with ten recovery codes. */
async function confirmEnrollment(
  deps: Pick<FlowDeps, "clock" | "codes">,
  repos: Repositories,
  project: Project,
  user: User,
  pending: MfaFactor,
  client: ClientInfo,
): Promise<Enrolled> {
  await repos.mfaFactors.confirm(project.id, user.id, pending.id, deps.clock.now());
  const recoveryCodes = user.mfaMethods.length === 0 ? await issueRecoveryCodes(deps, repos, project, user.id) : [];
  const event = {
    type: "user.mfa.enrolled" as const,
    organizationId: project.organizationId,
    projectId: project.id,
    userId: user.id,
  };
  await repos.auditEvents.record({
    ...event,
    details: { method: pending.method },
    origin: userOrigin(user.id, client),
  });
  return { method: pending.method, recoveryCodes };
}

function notEnrolling(): DomainError {
  return new DomainError(
    "MFA_NOT_ENROLLED",
    "there is no pending enrollment to finalize; start one with StartMfaEnrollment",
  );
}

function wrongCode(): DomainError {
  return new DomainError("INVALID_CODE", "the code is wrong or was used already");
}
