import { hashToken, randomToken } from "../../crypto/tokens.js";
import { normalizeEmail, type Project } from "../../domain/account.js";
import { messageLanguage } from "../../i18n/messages.js";
import { magicLinkUrl } from "../../notify/passwordless-templates.js";
import { wordedMail } from "../../notify/message-templates/worded.js";
import type { PendingSignup } from "../../store/repositories/magic-links.js";
import type { FlowDeps } from "../deps.js";
import { admitSend, projectSendTarget } from "../send-gate.js";
import { MAGIC_LINK_RESEND_INTERVAL_SECONDS, MAGIC_LINK_TTL_SECONDS } from "./magic-link-timing.js";
import type { NewUser } from "./tokens.js";

// Signup from a public credential (a publishable key, the hosted pages) in a project without
// `reveal_email_exists` (docs/security.md, "No user enumeration"). Answering EMAIL_EXISTS tells
// anyone holding the public key who is registered, and answering "as for a new address" cannot
// be done with tokens: tokens for one and not the other, or a later Login with the chosen
// password working for one and not the other, would tell. So, as Supabase does with email
// confirmation on, the mailbox confirms the signup before the account exists: every address
// gets the same answer, `{confirmation_required: true}`, and its mail tells the two apart.

/** The answer of a signup that waits for its address (SignupResponse.confirmation_required). */
export interface ConfirmationRequired {
  confirmationRequired: true;
  tokens?: undefined;
  challenge?: undefined;
}

/** Whether a signup waits for its address: from a public credential, unless the project chose to reveal EMAIL_EXISTS. */
export function confirmsByEmail(project: Project, publicCredential: boolean): boolean {
  return publicCredential && !project.revealEmailExists;
}

export interface SignupConfirmationInput {
  email: string;
  /** Hashed by the caller, for every address alike: the argon2 work is the same either way. */
  passwordHash: string;
  metadata: Record<string, unknown>;
  /** Where the link points: the project's redirect_url or the request's allowed one. */
  linkTarget: string;
  ip: string;
  /** The new user's language (canonical BCP 47), kept with the pending signup; "": none. */
  locale?: string;
  /** The request's Accept-Language: the mail's language when no locale names one. */
  acceptLanguage?: string;
}

/**
 * Counts the mail against the client address's and the destination's send limits, the same
 * for every address, the "drop" way (over them nothing is mailed and the answer stays the same),
 * and answers before any work that depends on the address, as RequestPasswordReset does; the
 * rest runs detached (confirmOrNotify), where the budget is spent: the users' for a notice, the
 * first contacts' for a new address. Nothing is recorded in the audit log here: the account's
 * `user.signup` is recorded when the link is opened.
 */
export async function requestSignupConfirmation(
  deps: Pick<FlowDeps, "db" | "clock" | "logger" | "mail" | "limits" | "detached">,
  project: Project,
  input: SignupConfirmationInput,
): Promise<ConfirmationRequired> {
  const request = {
    kind: "verification",
    channel: "email",
    destination: normalizeEmail(input.email),
    known: false,
    overDestination: "drop",
  } as const;
  if (await admitSend(deps, projectSendTarget(project), { ...request, ip: input.ip, only: "destination" })) {
    deps.detached.run("signup confirmation", () => confirmOrNotify(deps, project, input));
  }
  return { confirmationRequired: true };
}

/**
 * An address no user has: the pending signup is stored as the address's magic link (replacing
 * an earlier link, unless an ordinary one went less than a minute ago) and the link mailed.
 * An address a user has: its owner is told that someone tried, and nothing is written. A
 * disabled user is sent nothing, as for a password reset.
 */
async function confirmOrNotify(
  deps: Pick<FlowDeps, "db" | "clock" | "logger" | "mail" | "limits" | "detached">,
  project: Project,
  input: SignupConfirmationInput,
): Promise<void> {
  const email = input.email.trim();
  const registered = (await deps.db.repos.users.findCredentials(project.id, email))?.user;
  if (registered?.disabled) return;
  const kind = registered ? "signup_notice" : "verification";
  const spend = {
    kind,
    channel: "email",
    destination: normalizeEmail(email),
    known: registered !== undefined,
    overDestination: "drop",
    only: "budget",
  } as const;
  if (!(await admitSend(deps, projectSendTarget(project), spend))) return;
  const token = randomToken("gml");
  const now = deps.clock.now();
  await deps.db.transaction(async (repos) => {
    const found = (await repos.users.findCredentials(project.id, email))?.user;
    if (found) {
      if (found.disabled) return;
      // To the address the account has, never the string typed into the form, in its owner's language.
      const language = messageLanguage({
        userLocale: found.locale,
        acceptLanguage: input.acceptLanguage,
        projectDefault: project.defaultLocale,
      });
      const to = { project, language, userLocale: found.locale };
      const notice = await wordedMail(deps, repos, to, "signup_notice", {
        projectName: project.name,
        email: found.email,
      });
      await deps.mail.queue(repos, { to: found.email, ...notice });
      return;
    }
    const stored = await repos.magicLinks.replace(project.id, {
      emailNormalized: normalizeEmail(email),
      email,
      tokenHash: hashToken(token),
      now,
      expiresAt: new Date(now.getTime() + MAGIC_LINK_TTL_SECONDS * 1000),
      minIntervalMs: MAGIC_LINK_RESEND_INTERVAL_SECONDS * 1000,
      signup: { passwordHash: input.passwordHash, metadata: input.metadata, locale: input.locale ?? "" },
    });
    if (!stored.stored) return;
    const language = messageLanguage({
      userLocale: input.locale,
      acceptLanguage: input.acceptLanguage,
      projectDefault: project.defaultLocale,
    });
    const content = await wordedMail(
      deps,
      repos,
      { project, language, userLocale: input.locale },
      "signup_confirmation",
      {
        projectName: project.name,
        link: magicLinkUrl(input.linkTarget, token),
        validMinutes: MAGIC_LINK_TTL_SECONDS / 60,
      },
    );
    await deps.mail.queue(repos, { to: email, ...content });
  });
}

/**
 * The user a magic link makes when its address has none yet: the pending signup's password
 * and metadata when the link confirms one, else no password and no metadata. The address is
 * verified either way: the link was opened from its mailbox.
 */
export function newUserOfLink(email: string, signup: PendingSignup | null): NewUser {
  return {
    email,
    phone: null,
    emailVerified: true,
    phoneVerified: false,
    passwordHash: signup?.passwordHash ?? null,
    metadata: signup?.metadata ?? {},
    locale: signup?.locale ?? "",
  };
}
