import { sixDigitCode } from "../../crypto/one-time-codes.js";
import { normalizeEmail, type Project } from "../../domain/account.js";
import type { ClientInfo, User } from "../../domain/auth.js";
import { DomainError, resendTooSoon, validationFailed, type Reason } from "../../domain/errors.js";
import { MAX_CODE_ATTEMPTS } from "../../domain/mfa.js";
import { maySignUp } from "../../domain/signup-policy.js";
import { wordedMail, wordedSms, type Words, wordsFor } from "../../notify/message-templates/worded.js";
import type { Repositories } from "../../store/database.js";
import { UniqueViolation } from "../../store/errors.js";
import type { OtpChannel } from "../../store/repositories/otp-codes.js";
import { checking, projectScope } from "../../limits/limits.js";
import { auditedSignIn } from "../audit/sign-in.js";
import type { FlowDeps } from "../deps.js";
import { admitSend, projectSendTarget, sendToUserOnly } from "../send-gate.js";
import { completeSignIn, isSignupsClosed, type Completed, type SignInOutcome } from "./complete-sign-in.js";
import { hookedTransaction } from "../hooks/hooked-transaction.js";

/** Codes work for 10 minutes (auth.proto, SendOtp). */
export const OTP_TTL_SECONDS = 600;
/** At most one send per destination per minute. */
export const OTP_RESEND_INTERVAL_SECONDS = 60;
/** One answer for every address: a code goes to any address, since VerifyOtp also signs up. */
export const OTP_SENT = "A sign-in code has been sent. It expires in 10 minutes.";

export interface OtpAddress {
  email: string;
  phone: string;
}

interface Destination {
  channel: OtpChannel;
  /** As stored and compared: the normalized email, or the E.164 number. */
  key: string;
  /** As the user typed it: a new user's row, and the recipient when no user has the address. */
  address: string;
}

/**
 * SendOtp: a six-digit code from the CSPRNG, stored as an HMAC bound to the project, channel
 * and destination, replacing the destination's previous code; the message is queued in the
 * same transaction. A second send within a minute is RATE_LIMITED and changes nothing.
 *
 * When the code may not sign a new user up (`create_user: false`, or the project's signup
 * settings refuse the address), only a registered address gets one, and nothing in the answer
 * may differ between the two: the request is counted and answered, and the rest runs detached,
 * as a password reset does. A resend within the minute then sends nothing, silently.
 */
export async function sendOtp(
  deps: Pick<FlowDeps, "db" | "clock" | "logger" | "mail" | "sms" | "codes" | "limits" | "detached">,
  project: Project,
  input: OtpAddress & { channel: string; ip: string; createUser?: boolean; acceptLanguage?: string },
): Promise<{ message: string; expiresIn: number }> {
  const destination = sendDestination(input);
  const sent = { message: OTP_SENT, expiresIn: OTP_TTL_SECONDS };
  const email = destination.channel === "email" ? destination.address : "";
  const request = { kind: "otp", channel: destination.channel, destination: destination.key } as const;
  if (!maySignUp(project, "otp", email, input.createUser ?? true)) {
    await sendToUserOnly(
      deps,
      projectSendTarget(project),
      { ...request, ip: input.ip },
      {
        what: "one-time code for a registered address",
        findUser: () => userAt(deps.db.repos, project, destination),
        issue: (user) =>
          issueCode(deps, project, destination, user.email, wordsFor(project, user.locale, input.acceptLanguage)),
      },
    );
    return sent;
  }
  // Codes go to any address, registered or not, so a refusal tells nothing about registration;
  // whether it is a user's only decides which budget pays (send-gate.ts), and a spent budget
  // answers the same.
  const registered = await registeredAddress(deps.db.repos, project, destination);
  const admitted = { ...request, known: registered !== null, overDestination: "reject", ip: input.ip } as const;
  if (!(await admitSend(deps, projectSendTarget(project), admitted))) return sent;
  const issued = await issueCode(
    deps,
    project,
    destination,
    registered?.address ?? null,
    wordsFor(project, registered?.locale, input.acceptLanguage),
  );
  if (issued !== "queued") {
    const wait = OTP_RESEND_INTERVAL_SECONDS - (issued.now.getTime() - issued.lastSentAt.getTime()) / 1000;
    throw resendTooSoon("a code was sent to this address less than a minute ago; wait before asking for another", wait);
  }
  return sent;
}

function userAt(repos: Repositories, project: Project, destination: Destination): Promise<User | null> {
  return destination.channel === "email"
    ? repos.users.findCredentials(project.id, destination.key).then((found) => found?.user ?? null)
    : repos.users.findByPhone(project.id, destination.key);
}

/**
 * Whether a user has the destination, as little as that takes: the stored spelling of its email
 * and its language (one row's two columns, so a registered address costs no more before the
 * answer than an unknown one), or the number itself for a user's phone.
 */
async function registeredAddress(
  repos: Repositories,
  project: Project,
  destination: Destination,
): Promise<{ address: string; locale: string } | null> {
  if (destination.channel === "email") {
    const found = await repos.users.recipientAt(project.id, destination.key);
    return found ? { address: found.email, locale: found.locale } : null;
  }
  const user = await repos.users.findByPhone(project.id, destination.key);
  return user ? { address: destination.address, locale: user.locale } : null;
}

/** Stores the destination's new code and queues its message, or answers when the last one went out. */
async function issueCode(
  deps: Pick<FlowDeps, "db" | "clock" | "logger" | "mail" | "sms" | "codes">,
  project: Project,
  destination: Destination,
  /** The address the destination's user has, if any (registeredAddress): an email code goes there. */
  userAddress: string | null,
  words: Words,
): Promise<{ lastSentAt: Date; now: Date } | "queued"> {
  const code = sixDigitCode();
  const now = deps.clock.now();
  const content = { projectName: project.name, code, validMinutes: OTP_TTL_SECONDS / 60 };
  return deps.db.transaction(async (repos) => {
    const stored = await repos.otpCodes.replace(project.id, {
      channel: destination.channel,
      destination: destination.key,
      codeHmac: deps.codes.hmac(otpContext(project.id, destination), code),
      now,
      expiresAt: new Date(now.getTime() + OTP_TTL_SECONDS * 1000),
      minIntervalMs: OTP_RESEND_INTERVAL_SECONDS * 1000,
    });
    if (!stored.stored) return { lastSentAt: stored.lastSentAt, now };
    if (destination.channel === "email") {
      // A user's code goes to the address it has, never to the spelling typed (another case).
      const to = userAddress || destination.address;
      await deps.mail.queue(repos, {
        to,
        ...(await wordedMail(deps, repos, { project, ...words }, "email_otp", content)),
      });
    } else {
      const body = await wordedSms(deps, repos, { project, ...words }, "sms_otp", content);
      await deps.sms.queue(repos, { to: destination.address, body });
    }
    return "queued";
  });
}

/**
 * VerifyOtp: checks the code of the address; five wrong codes spend it. A right code signs in
 * the user with that email or phone (marking it verified), or signs a new one up with it
 * verified, through the completion step; the code is spent in the same transaction. A failure
 * is audited (auditedSignIn).
 */
export async function verifyOtp(
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
  input: OtpAddress & { otp: string; client: ClientInfo },
): Promise<SignInOutcome> {
  const attempt = { method: "otp" as const, email: input.email || undefined };
  return auditedSignIn(deps, project, input.client, attempt, () => codeSignIn(deps, project, input));
}

async function codeSignIn(
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
  input: OtpAddress & { otp: string; client: ClientInfo },
): Promise<SignInOutcome> {
  const destination = verifyDestination(input);
  const scope = projectScope(project);
  // Outside the transaction (which holds PGlite's only connection): per code and per IP.
  const challenge = `otp:${destination.channel}:${destination.key}`;
  const limited = await deps.limits.beginVerify(scope, { challenge }, input.client.ipAddress);
  const result = await checking(limited, () => checkCode(deps, project, destination, input));
  if ("failed" in result) {
    await limited.failed();
    throw codeError(result.failed);
  }
  await limited.succeeded();
  return result.completed.outcome;
}

async function checkCode(
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
  destination: Destination,
  input: { otp: string; client: ClientInfo },
): Promise<{ failed: Reason } | { completed: Completed }> {
  const context = otpContext(project.id, destination);
  // A sign-up racing another for the same address loses on the unique email or phone and is
  // then run again, as the sign-in of the user the other created.
  for (let attempt = 0; ; attempt++) {
    try {
      return await hookedTransaction(deps, async (repos): Promise<{ failed: Reason } | { completed: Completed }> => {
        const now = deps.clock.now();
        const live = await repos.otpCodes.lockLive(project.id, destination.channel, destination.key);
        if (!live) return { failed: "INVALID_CODE" };
        if (live.expiresAt <= now) {
          await repos.otpCodes.consume(project.id, destination.channel, destination.key, now);
          return { failed: "CODE_EXPIRED" };
        }
        if (!deps.codes.matches(context, input.otp, live.codeHmac)) {
          await repos.otpCodes.recordFailure(project.id, destination.channel, destination.key, MAX_CODE_ATTEMPTS, now);
          return { failed: "INVALID_CODE" };
        }
        await repos.otpCodes.consume(project.id, destination.channel, destination.key, now);
        return { completed: await signInOrUp(deps, repos, project, destination, input.client) };
      });
    } catch (error) {
      // A code sent while the project took signups, for an address it no longer admits: as if
      // none had been sent, with nothing written (the transaction, and so the spend, rolled back).
      if (isSignupsClosed(error)) return { failed: "INVALID_CODE" };
      if (!(error instanceof UniqueViolation) || attempt > 0) throw error;
    }
  }
}

async function signInOrUp(
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
  destination: Destination,
  client: ClientInfo,
): Promise<Completed> {
  const proof = { amr: ["otp"], method: "otp" as const };
  const byEmail = destination.channel === "email";
  const found: User | null = byEmail
    ? ((await repos.users.findCredentials(project.id, destination.address))?.user ?? null)
    : await repos.users.findByPhone(project.id, destination.address);
  if (!found) {
    const create = {
      email: byEmail ? destination.address : "",
      phone: byEmail ? null : destination.address,
      emailVerified: byEmail,
      phoneVerified: !byEmail,
      passwordHash: null,
      metadata: {},
    };
    return completeSignIn(deps, repos, project, { create }, proof, client);
  }
  // The code reached the address: it is the user's, verified.
  const alreadyVerified = byEmail ? found.emailVerified : found.phoneVerified;
  const user = alreadyVerified
    ? found
    : ((await repos.users.update(project.id, found.id, byEmail ? { emailVerified: true } : { phoneVerified: true })) ??
      found);
  return completeSignIn(deps, repos, project, { existing: user }, proof, client);
}

/** The HMAC context of a code: a code sent to one address of one project works nowhere else. */
function otpContext(projectId: string, destination: Destination): string {
  return `otp:${projectId}:${destination.channel}:${destination.key}`;
}

function sendDestination(input: OtpAddress & { channel: string }): Destination {
  const channel: OtpChannel =
    input.channel === "sms" || (input.channel === "" && input.email === "" && input.phone !== "") ? "sms" : "email";
  if (channel === "email" && input.email === "")
    throw validationFailed([{ field: "email", description: "is required to send a code by email" }]);
  if (channel === "sms" && input.phone === "")
    throw validationFailed([{ field: "phone", description: "is required to send a code by SMS" }]);
  return destinationOf(channel, channel === "email" ? input.email : input.phone);
}

function verifyDestination(input: OtpAddress): Destination {
  if (input.email !== "" && input.phone !== "") {
    throw validationFailed([{ field: "phone", description: "give the email or the phone the code went to, not both" }]);
  }
  if (input.email === "" && input.phone === "") {
    throw validationFailed([{ field: "email", description: "is required (or phone, for a code sent by SMS)" }]);
  }
  return input.email !== "" ? destinationOf("email", input.email) : destinationOf("sms", input.phone);
}

function destinationOf(channel: OtpChannel, address: string): Destination {
  const trimmed = address.trim();
  return { channel, key: channel === "email" ? normalizeEmail(trimmed) : trimmed, address: trimmed };
}

function codeError(reason: Reason): DomainError {
  return reason === "CODE_EXPIRED"
    ? new DomainError("CODE_EXPIRED", "this code has expired; ask for a new one")
    : new DomainError("INVALID_CODE", "the code is wrong, used or was not sent to this address");
}
