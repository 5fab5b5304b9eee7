import { hashToken, randomToken } from "../../crypto/tokens.js";
import { normalizeEmail, type Project } from "../../domain/account.js";
import type { ClientInfo } from "../../domain/auth.js";
import { DomainError, resendTooSoon } from "../../domain/errors.js";
import { allowedRedirect } from "../../domain/redirects.js";
import { maySignUp } from "../../domain/signup-policy.js";
import { wordedMail, type Words, wordsFor } from "../../notify/message-templates/worded.js";
import { magicLinkUrl } from "../../notify/passwordless-templates.js";
import { UniqueViolation } from "../../store/errors.js";
import { checking, projectScope } from "../../limits/limits.js";
import { auditedSignIn } from "../audit/sign-in.js";
import type { FlowDeps } from "../deps.js";
import { admitSend, projectSendTarget, sendToUserOnly } from "../send-gate.js";
import {
  completeSignIn,
  isSignupsClosed,
  signupsClosed,
  type Completed,
  type SignInOutcome,
} from "./complete-sign-in.js";
import { newUserOfLink } from "./signup-confirmation.js";
import { MAGIC_LINK_RESEND_INTERVAL_SECONDS, MAGIC_LINK_TTL_SECONDS } from "./magic-link-timing.js";
import { hookedTransaction } from "../hooks/hooked-transaction.js";

/** One answer for every address: a link goes to any address, since VerifyMagicLink also signs up. */
export const MAGIC_LINK_SENT = "A sign-in link has been sent. It expires in 15 minutes.";

/**
 * SendMagicLink: 256 random bits, stored as SHA-256, replacing the address's previous link; the
 * email is queued in the same transaction. The link carries the token to the application (the
 * project's redirect_url, or an allowed override) and only the application's POST to
 * VerifyMagicLink spends it, so a mail scanner that follows links spends nothing.
 *
 * When the link may not sign a new user up (`create_user: false`, or the project's signup
 * settings refuse the address), only a registered address gets one, and nothing in the answer
 * may differ between the two: the request is counted and answered, and the rest runs detached,
 * as a password reset does. A resend within the minute then sends nothing, silently.
 */
export async function sendMagicLink(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "logger" | "mail" | "limits" | "detached">,
  project: Project,
  input: { email: string; redirectUrl: string; ip: string; createUser?: boolean; acceptLanguage?: string },
): Promise<{ message: string; expiresIn: number }> {
  const target = allowedRedirect(project, input.redirectUrl, deps.config.publicUrl);
  const email = input.email.trim();
  const sent = { message: MAGIC_LINK_SENT, expiresIn: MAGIC_LINK_TTL_SECONDS };
  const request = { kind: "magic_link", channel: "email", destination: normalizeEmail(email) } as const;
  if (!maySignUp(project, "magic_link", email, input.createUser ?? true)) {
    await sendToUserOnly(
      deps,
      projectSendTarget(project),
      { ...request, ip: input.ip },
      {
        what: "sign-in link for a registered address",
        findUser: async () => (await deps.db.repos.users.findCredentials(project.id, email))?.user,
        issue: (user) =>
          issueLink(deps, project, email, target, user.email, wordsFor(project, user.locale, input.acceptLanguage)),
      },
    );
    return sent;
  }
  // Links go to any address, registered or not, so a refusal tells nothing about registration;
  // whether it is a user's only decides which budget pays, and a spent budget answers the same.
  // One row's two columns (users.recipientAt): a registered address costs no more before the answer.
  const registered = await deps.db.repos.users.recipientAt(project.id, email);
  const admitted = { ...request, known: registered !== null, overDestination: "reject", ip: input.ip } as const;
  if (!(await admitSend(deps, projectSendTarget(project), admitted))) return sent;
  const issued = await issueLink(
    deps,
    project,
    email,
    target,
    registered?.email ?? null,
    wordsFor(project, registered?.locale, input.acceptLanguage),
  );
  if (issued !== "queued") {
    const wait = MAGIC_LINK_RESEND_INTERVAL_SECONDS - (issued.now.getTime() - issued.lastSentAt.getTime()) / 1000;
    throw resendTooSoon("a link was sent to this address less than a minute ago; wait before asking for another", wait);
  }
  return sent;
}

/** Stores the address's new link and queues its mail, or answers when the last one went out. */
async function issueLink(
  deps: Pick<FlowDeps, "db" | "clock" | "logger" | "mail">,
  project: Project,
  email: string,
  target: string,
  /** The email the address's user has, if any: its link goes there. */
  userEmail: string | null,
  words: Words,
): Promise<{ lastSentAt: Date; now: Date } | "queued"> {
  const token = randomToken("gml");
  const now = deps.clock.now();
  const input = {
    projectName: project.name,
    link: magicLinkUrl(target, token),
    validMinutes: MAGIC_LINK_TTL_SECONDS / 60,
  };
  return deps.db.transaction(async (repos) => {
    const stored = await repos.magicLinks.replace(project.id, {
      emailNormalized: normalizeEmail(email),
      email,
      tokenHash: hashToken(token),
      now,
      expiresAt: new Date(now.getTime() + MAGIC_LINK_TTL_SECONDS * 1000),
      minIntervalMs: MAGIC_LINK_RESEND_INTERVAL_SECONDS * 1000,
    });
    if (!stored.stored) return { lastSentAt: stored.lastSentAt, now };
    // A user's link goes to the address it has, never to the spelling typed (another case).
    const to = userEmail || email;
    await deps.mail.queue(repos, {
      to,
      ...(await wordedMail(deps, repos, { project, ...words }, "magic_link", input)),
    });
    return "queued";
  });
}

/**
 * VerifyMagicLink: burns the link (one conditional UPDATE: of two racing uses, one wins) and
 * signs in the user with that email, marking it verified, or signs a new one up with it
 * verified (with the password and metadata of the signup the link confirms, if it does one),
 * through the completion step, in the same transaction. A failure is audited (auditedSignIn).
 */
export async function verifyMagicLink(
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
  input: { token: string; client: ClientInfo },
): Promise<SignInOutcome> {
  return auditedSignIn(deps, project, input.client, { method: "magic_link" }, () => linkSignIn(deps, project, input));
}

async function linkSignIn(
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
  input: { token: string; client: ClientInfo },
): Promise<SignInOutcome> {
  // A link is 256 random bits: guessing one is hopeless, but guessing many is still a flood.
  const limited = await deps.limits.beginVerify(projectScope(project), {}, input.client.ipAddress);
  const completed = await checking(limited, () => consumeLink(deps, project, input));
  if (completed === "invalid") {
    await limited.failed();
    throw invalidLink();
  }
  await limited.succeeded();
  return completed.outcome;
}

async function consumeLink(
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
  input: { token: string; client: ClientInfo },
): Promise<Completed | "invalid"> {
  const proof = { amr: ["magic_link"], method: "magic_link" as const };
  for (let attempt = 0; ; attempt++) {
    try {
      return await hookedTransaction(deps, async (repos): Promise<Completed | "invalid"> => {
        const link = await repos.magicLinks.consume(project.id, hashToken(input.token.trim()), deps.clock.now());
        if (link === null) return "invalid";
        const { email } = link;
        const found = (await repos.users.findCredentials(project.id, email))?.user;
        if (!found) {
          // A pending signup's link makes the user with its password and metadata (signup-confirmation.ts):
          // a password signup, so the project must still take those.
          if (link.signup && !maySignUp(project, "password", email)) throw signupsClosed();
          return completeSignIn(
            deps,
            repos,
            project,
            { create: newUserOfLink(email, link.signup) },
            proof,
            input.client,
          );
        }
        // A user who has the address by now is signed in as by any link: a pending signup changes nothing of theirs.
        const user = found.emailVerified
          ? found
          : ((await repos.users.update(project.id, found.id, { emailVerified: true })) ?? found);
        return completeSignIn(deps, repos, project, { existing: user }, proof, input.client);
      });
    } catch (error) {
      // A link sent while the project took signups, for an address it no longer admits: as an
      // invalid link, with nothing written (the transaction, and so the spend, rolled back).
      if (isSignupsClosed(error)) return "invalid";
      // A sign-up racing another for the same email: run again, as the other user's sign-in.
      if (!(error instanceof UniqueViolation) || attempt > 0) throw error;
    }
  }
}

function invalidLink(): DomainError {
  return new DomainError("INVALID_LINK", "this sign-in link is invalid, used, replaced or expired");
}
