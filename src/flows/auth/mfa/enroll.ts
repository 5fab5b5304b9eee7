import { newId } from "../../../crypto/ids.js";
import { sixDigitCode } from "../../../crypto/one-time-codes.js";
import { hashToken } from "../../../crypto/tokens.js";
import { newTotpSecret, qrCodeDataUri, totpUri } from "../../../crypto/totp.js";
import type { Project } from "../../../domain/account.js";
import type { User } from "../../../domain/auth.js";
import { DomainError, rateLimited, validationFailed } from "../../../domain/errors.js";
import { SMS_ENROLLMENT_TTL_SECONDS, SMS_RESEND_INTERVAL_SECONDS, type MfaMethod } from "../../../domain/mfa.js";
import { wordedSms } from "../../../notify/message-templates/worded.js";
import { messageLanguage } from "../../../i18n/messages.js";
import type { Repositories } from "../../../store/database.js";
import { admitSend, projectSendTarget } from "../../send-gate.js";
import type { FlowDeps } from "../../deps.js";
import { enrollmentSmsContext } from "./second-factor.js";

export interface EnrollmentInput {
  method: MfaMethod;
  phone: string;
  /** An enrollment challenge's token; "" when the user's access token names the user. */
  mfaToken: string;
  /** The user of the access token, when one was sent. */
  userId?: string;
  /** The client's address, for the send limits of an SMS. */
  ip: string;
  /** The request's Accept-Language: the SMS's language when the user chose none. */
  acceptLanguage?: string;
}

/**
 * StartMfaEnrollment: a pending factor, replacing a pending one of the same method. TOTP gets a
 * new 160-bit secret, sealed at rest and answered once as an `otpauth://` URI and its QR code;
 * SMS gets a code sent to the phone. Either becomes active only with VerifyMfa.
 */
export async function startMfaEnrollment(
  deps: Pick<FlowDeps, "db" | "clock" | "secrets" | "logger" | "sms" | "codes" | "limits" | "detached">,
  project: Project,
  input: EnrollmentInput,
): Promise<{ method: MfaMethod; totpUri: string; qrCode: string }> {
  if (input.method === "sms" && input.phone === "")
    throw validationFailed([{ field: "phone", description: "is required to enroll sms" }]);
  // Counted like a code sent by SendOtp to the same number, before the transaction holds a connection.
  // A number the user has not proven yet is a first contact, as a new address is.
  if (input.method === "sms") {
    const request = {
      kind: "mfa_sms",
      channel: "sms",
      destination: input.phone,
      known: false,
      overDestination: "reject",
      overBudget: "reject",
      ip: input.ip,
    } as const;
    await admitSend(deps, projectSendTarget(project), request);
  }
  const id = newId("mfa");
  const now = deps.clock.now();
  const uri = await deps.db.transaction(async (repos) => {
    const user = await enrollingUser(deps, repos, project, input);
    if (user.mfaMethods.includes(input.method)) throw alreadyEnrolled(input.method);
    const pending = { id, userId: user.id, method: input.method, now };
    if (input.method === "totp") {
      const secret = newTotpSecret();
      const fresh = await repos.mfaFactors.startPending(project.id, {
        ...pending,
        secretSealed: deps.secrets.seal(secret, id),
        phone: null,
        codeHmac: null,
        codeExpiresAt: null,
      });
      if (!fresh) throw alreadyEnrolled(input.method);
      return totpUri({ issuer: project.name, account: user.email || user.phone || user.id, secret });
    }
    // One enrollment code a minute, as one sign-in code a minute (SendOtp).
    const previous = await repos.mfaFactors.lockPending(project.id, user.id, "sms");
    const sentAt =
      previous?.pendingCodeExpiresAt && previous.pendingCodeExpiresAt.getTime() - SMS_ENROLLMENT_TTL_SECONDS * 1000;
    if (sentAt && now.getTime() - sentAt < SMS_RESEND_INTERVAL_SECONDS * 1000) {
      throw rateLimited(
        "an enrollment code was sent less than a minute ago; wait before asking for another",
        SMS_RESEND_INTERVAL_SECONDS - (now.getTime() - sentAt) / 1000,
      );
    }
    const code = sixDigitCode();
    const fresh = await repos.mfaFactors.startPending(project.id, {
      ...pending,
      secretSealed: null,
      phone: input.phone,
      codeHmac: deps.codes.hmac(enrollmentSmsContext(project.id, id), code),
      codeExpiresAt: new Date(now.getTime() + SMS_ENROLLMENT_TTL_SECONDS * 1000),
    });
    if (!fresh) throw alreadyEnrolled(input.method);
    const language = messageLanguage({
      userLocale: user.locale,
      acceptLanguage: input.acceptLanguage,
      projectDefault: project.defaultLocale,
    });
    const body = await wordedSms(deps, repos, { project, language, userLocale: user.locale }, "sms_mfa", {
      projectName: project.name,
      code,
      validMinutes: SMS_ENROLLMENT_TTL_SECONDS / 60,
      purpose: "enroll",
    });
    await deps.sms.queue(repos, { to: input.phone, body });
    return "";
  });
  // Drawn after commit: rendering the image needs no connection.
  return { method: input.method, totpUri: uri, qrCode: uri === "" ? "" : await qrCodeDataUri(uri) };
}

/**
 * The user an enrollment is for: the enrollment challenge's, else the access token's. A passkey
 * registration names its user the same way (passkeys/register.ts).
 */
export async function enrollingUser(
  deps: Pick<FlowDeps, "clock">,
  repos: Repositories,
  project: Project,
  input: Pick<EnrollmentInput, "mfaToken" | "userId">,
): Promise<User> {
  let userId = input.userId;
  if (input.mfaToken !== "") {
    // Only an enrollment challenge enrolls: a sign-in challenge proves a factor, it does not add one.
    const challenge = await repos.mfaChallenges.findLive(
      project.id,
      hashToken(input.mfaToken.trim()),
      deps.clock.now(),
    );
    if (!challenge || challenge.purpose !== "enroll") throw invalidMfaToken();
    userId = challenge.userId;
  }
  if (userId === undefined)
    throw new DomainError(
      "MISSING_ACCESS_TOKEN",
      "send the user's access token, or the mfa_token of an enrollment challenge",
    );
  const user = await repos.users.get(project.id, userId);
  if (!user) throw invalidMfaToken();
  if (user.disabled) throw new DomainError("USER_DISABLED", "this account is disabled");
  return user;
}

export function invalidMfaToken(): DomainError {
  return new DomainError("INVALID_MFA_TOKEN", "the mfa_token is invalid, used or expired");
}

function alreadyEnrolled(method: MfaMethod): DomainError {
  return new DomainError("MFA_ALREADY_ENROLLED", `${method} is already enrolled; unenroll it first to replace it`);
}
