import { hashToken, randomToken } from "../../../crypto/tokens.js";
import { normalizeEmail, type Project } from "../../../domain/account.js";
import type { AuditOrigin } from "../../../domain/audit.js";
import type { User } from "../../../domain/auth.js";
import { DomainError } from "../../../domain/errors.js";
import { allowedRedirect, isAllowedRedirect } from "../../../domain/redirects.js";
import { userInvitationLink } from "../../../notify/invitation-templates.js";
import { wordedMail } from "../../../notify/message-templates/worded.js";
import { messageLanguage } from "../../../i18n/messages.js";
import type { Repositories } from "../../../store/database.js";
import { askBeforeUserCreated } from "../../hooks/before-user-created.js";
import type { FlowDeps } from "../../deps.js";
import { admitSend, projectSendTarget } from "../../send-gate.js";
import { emailExists } from "../email-change.js";
import { adminOnly, type UserActor } from "./actor.js";
import { initialMetadata, isEmailTaken } from "./create-user.js";

/** An invitation link works for 7 days (auth.proto, InviteUser). */
export const USER_INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface InviteUserInput {
  email: string;
  /** Where the hosted page sends the person once the password is set; empty: sign-in, then the project's. */
  redirectUrl?: string;
  metadata?: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
}

export interface Invited {
  user: User;
  invitationExpiresAt: Date;
}

/**
 * InviteUser: the project's administrator makes a user without a password and mails it a link
 * to the hosted page where it chooses one (ResetPassword spends the link, sets the password and
 * marks the address verified). The user row, the link (stored as SHA-256), the `user.invited`
 * audit event and the mail commit together; the mail goes to delivery after commit.
 *
 * Inviting an address again while its user has no password and has never signed in sends a
 * new link that replaces the previous one (userTokens.issue) and answers that user as it is
 * (metadata unchanged); any other user of the address is EMAIL_EXISTS. Signup settings do not
 * apply: they govern the public paths. The send counts against the project's limits like any
 * other (per address, per client address, the users' budget), refused RATE_LIMITED when over.
 */
export async function inviteUser(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "logger" | "mail" | "limits" | "hooks" | "detached">,
  project: Project,
  actor: UserActor,
  input: InviteUserInput,
  origin: AuditOrigin,
): Promise<Invited> {
  adminOnly(actor, "inviting users");
  const redirectUrl = input.redirectUrl ?? "";
  allowedRedirect(project, redirectUrl, deps.config.publicUrl);
  // One of the project's own hosted pages is no destination the page takes as `?redirect_url=`:
  // the link leaves it out and the page ends at sign-in, a hosted page too.
  const destination = redirectUrl !== "" && isAllowedRedirect(project, redirectUrl) ? redirectUrl : "";
  const fresh = {
    metadata: initialMetadata(input.metadata, "metadata"),
    appMetadata: initialMetadata(input.appMetadata, "app_metadata"),
  };
  for (let attempt = 1; ; attempt++) {
    const existing = await invitableUser(deps.db.repos, project, input.email);
    // Asked once, for a user that does not exist yet: a re-invitation creates nobody.
    if (existing === null && attempt === 1)
      await askBeforeUserCreated(
        deps,
        deps.db.repos,
        project,
        { email: input.email, phone: null, emailVerified: false, ...fresh },
        "invite",
      );
    if (attempt === 1) await countInvitation(deps, project, input.email, origin.ip);
    try {
      return await issueInvitation(deps, project, { ...input, ...fresh, destination }, existing, origin);
    } catch (error) {
      // The address changed hands between the look-up and the transaction (a parallel
      // invitation made the user, or the user went): look again.
      if (!(error instanceof Raced || isEmailTaken(error))) throw error;
      if (attempt === MAX_ATTEMPTS)
        throw new DomainError("SERVICE_UNAVAILABLE", "this address changed during the invitation; try again", [], 1);
    }
  }
}

const MAX_ATTEMPTS = 3;

class Raced extends Error {}

/**
 * The user an invitation of `email` goes to: null for an address no user has; the user itself
 * when it has no password and has never signed in (a new invitation replaces the link);
 * EMAIL_EXISTS otherwise.
 */
async function invitableUser(repos: Repositories, project: Project, email: string): Promise<User | null> {
  const found = await repos.users.findCredentials(project.id, email);
  if (!found) return null;
  if (found.passwordHash !== null || found.user.lastLoginAt !== null) throw emailExists();
  return found.user;
}

/** Per address, per client address and against the users' budget; over one, RATE_LIMITED. Outside any transaction. */
async function countInvitation(
  deps: Pick<FlowDeps, "db" | "logger" | "limits" | "detached">,
  project: Project,
  email: string,
  ip: string,
): Promise<void> {
  const request = {
    kind: "invitation",
    channel: "email",
    destination: normalizeEmail(email),
    known: true,
    overDestination: "reject",
    overBudget: "reject",
    ip,
  } as const;
  await admitSend(deps, projectSendTarget(project), request);
}

async function issueInvitation(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "logger" | "mail">,
  project: Project,
  input: Required<Pick<InviteUserInput, "email" | "metadata" | "appMetadata">> & { destination: string },
  expected: User | null,
  origin: AuditOrigin,
): Promise<Invited> {
  const token = randomToken("guin");
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + USER_INVITATION_TTL_MS);
  const user = await deps.db.transaction(async (repos) => {
    const current = await invitableUser(repos, project, input.email);
    if (current?.id !== expected?.id) throw new Raced();
    const user =
      current ??
      (await repos.users.create(project.id, {
        organizationId: project.organizationId,
        email: input.email,
        emailVerified: false,
        passwordHash: null,
        metadata: input.metadata,
        appMetadata: input.appMetadata,
      }));
    // Spends the user's earlier invitation link, if any.
    await repos.userTokens.issue(project.id, {
      userId: user.id,
      kind: "invitation",
      tokenHash: hashToken(token),
      email: user.email,
      expiresAt,
      issuedAt: now,
    });
    // A new user is `user.created` (webhooks' user.created) as well as invited; a re-invitation is
    // only `user.invited`.
    if (current === null)
      await repos.auditEvents.record({
        type: "user.created",
        organizationId: project.organizationId,
        projectId: project.id,
        userId: user.id,
        targetId: user.id,
        details: { password: false, email_verified: false, invited: true },
        origin,
      });
    await repos.auditEvents.record({
      type: "user.invited",
      organizationId: project.organizationId,
      projectId: project.id,
      userId: user.id,
      targetId: user.id,
      details: { resent: current !== null },
      origin,
    });
    // The administrator's request says nothing of the invited person's language: the user's own
    // (a re-invitation), else the project's.
    const language = messageLanguage({ userLocale: user.locale, projectDefault: project.defaultLocale });
    const content = await wordedMail(deps, repos, { project, language, userLocale: user.locale }, "user_invitation", {
      projectName: project.displayName || project.name,
      link: userInvitationLink(deps.config.publicUrl, project.loginId, token, input.destination),
      expiresAt,
    });
    await deps.mail.queue(repos, { to: user.email, ...content });
    return user;
  });
  return { user, invitationExpiresAt: expiresAt };
}
