import { sixDigitCode } from "../../../crypto/one-time-codes.js";
import { hashToken, randomToken } from "../../../crypto/tokens.js";
import type { Project } from "../../../domain/account.js";
import type { User } from "../../../domain/auth.js";
import { DomainError } from "../../../domain/errors.js";
import { MFA_CHALLENGE_TTL_SECONDS, type MfaChallenge, type UserMfaMethod } from "../../../domain/mfa.js";
import { wordedSms } from "../../../notify/message-templates/worded.js";
import { messageLanguage } from "../../../i18n/messages.js";
import type { Repositories } from "../../../store/database.js";
import { admitSend, projectSendTarget } from "../../send-gate.js";
import type { FlowDeps } from "../../deps.js";
import type { Completed, Proof } from "../complete-sign-in.js";

/** The HMAC context of the SMS code sent with a challenge: valid for that challenge only. */
export function challengeSmsContext(projectId: string, tokenHash: string): string {
  return `mfa-challenge:${projectId}:${tokenHash}`;
}

/**
 * Holds a sign-in at its second factor (`verify`) or at enrollment (`enroll`): an mfa_token of
 * 256 random bits, stored as SHA-256, valid 300 s. A user whose only method is SMS is sent the
 * code with the challenge (API.md section 5): the challenge stores the code's HMAC, and after
 * commit (repos.afterCommit) the SMS passes the send gate (send-gate.ts: the number's country and
 * limits, the client's address, the users' budget), then is queued. Counted there because the
 * limits are never consulted inside a transaction; over a limit no SMS goes out and the
 * challenge stands (a recovery code still answers it), as a reset over its limit answers the
 * same and sends nothing.
 */
export async function openChallenge(
  deps: Pick<FlowDeps, "db" | "clock" | "logger" | "sms" | "codes" | "limits" | "detached">,
  repos: Repositories,
  project: Project,
  user: User,
  purpose: MfaChallenge["purpose"],
  proof: Proof,
  ip: string,
): Promise<Completed> {
  const token = randomToken("gmfa");
  const tokenHash = hashToken(token);
  const now = deps.clock.now();
  const methods = purpose === "enroll" ? [] : await answerableMethods(repos, project, user, proof);
  // Only a passkey used without user verification, whose user has no other factor, gets here:
  // a challenge with no method would read as an enrollment one. The user's other ways in remain
  // (a password or code, then this passkey as the second factor).
  if (purpose === "verify" && methods.length === 0)
    throw new DomainError(
      "PASSKEY_VERIFICATION_FAILED",
      "this passkey did not verify you (PIN or biometrics) and the account has no other second factor: use a passkey that verifies you, or sign in another way first",
    );
  const { smsCodeHmac, sendSms } =
    methods.length === 1 && methods[0] === "sms"
      ? await challengeSms(deps, repos, project, user, tokenHash, ip)
      : { smsCodeHmac: null, sendSms: undefined };
  const expiresAt = new Date(now.getTime() + MFA_CHALLENGE_TTL_SECONDS * 1000);
  await repos.mfaChallenges.create(
    project.id,
    tokenHash,
    {
      userId: user.id,
      purpose,
      amr: proof.amr,
      method: proof.method,
      smsCodeHmac,
      passkeyId: proof.passkeyId ?? null,
      attempts: 0,
      expiresAt,
    },
    now,
  );
  // Detached: the answer does not wait for the limits or the second transaction.
  if (sendSms) repos.afterCommit(() => deps.detached.run("mfa challenge sms", sendSms));
  return { outcome: { challenge: { mfaToken: token, methods, expiresIn: MFA_CHALLENGE_TTL_SECONDS } }, user };
}

/**
 * The code of a challenge whose only method is SMS: its HMAC for the challenge row, and the send,
 * run after commit under the send limits. No confirmed SMS factor (removed meanwhile): no code.
 */
async function challengeSms(
  deps: Pick<FlowDeps, "db" | "sms" | "codes" | "limits" | "logger" | "detached">,
  repos: Repositories,
  project: Project,
  user: User,
  tokenHash: string,
  ip: string,
): Promise<{ smsCodeHmac: string | null; sendSms: (() => Promise<void>) | undefined }> {
  const factor = (await repos.mfaFactors.list(project.id, user.id)).find(
    (f) => f.method === "sms" && f.confirmedAt !== null,
  );
  if (!factor?.phone) return { smsCodeHmac: null, sendSms: undefined };
  const phone = factor.phone;
  const code = sixDigitCode();
  const smsCodeHmac = deps.codes.hmac(challengeSmsContext(project.id, tokenHash), code);
  // The request's Accept-Language does not reach here: the user's language, else the project's.
  const language = messageLanguage({ userLocale: user.locale, projectDefault: project.defaultLocale });
  const to = { project, language, userLocale: user.locale };
  const input = {
    projectName: project.name,
    code,
    validMinutes: MFA_CHALLENGE_TTL_SECONDS / 60,
    purpose: "verify" as const,
  };
  const sendSms = async () => {
    const request = {
      kind: "mfa_sms",
      channel: "sms",
      destination: phone,
      known: true,
      overDestination: "drop",
      ip,
    } as const;
    if (!(await admitSend(deps, projectSendTarget(project), request))) return;
    await deps.db.transaction(async (tx) =>
      deps.sms.queue(tx, { to: phone, body: await wordedSms(deps, tx, to, "sms_mfa", input) }),
    );
  };
  return { smsCodeHmac, sendSms };
}

/**
 * The methods that can answer a sign-in challenge: the user's, less `webauthn` when the passkey
 * that proved the first factor is the user's only one (a gesture without user verification
 * cannot be its own second factor).
 */
async function answerableMethods(
  repos: Repositories,
  project: Project,
  user: User,
  proof: Proof,
): Promise<UserMfaMethod[]> {
  const methods = user.mfaMethods.filter((m): m is UserMfaMethod => m === "totp" || m === "sms" || m === "webauthn");
  if (proof.passkeyId === undefined || !methods.includes("webauthn")) return methods;
  const others = (await repos.passkeys.listOfUser(project.id, user.id)).some((p) => p.id !== proof.passkeyId);
  return others ? methods : methods.filter((m) => m !== "webauthn");
}
