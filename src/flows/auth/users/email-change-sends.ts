import { normalizeEmail, type Project } from "../../../domain/account.js";
import { admitSend, projectSendTarget } from "../../send-gate.js";
import type { FlowDeps } from "../../deps.js";
import { emailChangeRecipients } from "../email-change.js";
import { isAdmin, type UserActor } from "./actor.js";
import { userNotFound } from "./get-user.js";

/**
 * Counts the mails an email change will send (emailChangeRecipients) against the project's
 * send limits, per destination, per client address and per project, before the transaction
 * (the limits are never consulted inside one). Over any of them the change is refused,
 * RATE_LIMITED, before anything is written, whoever asks: an admin's change that took effect
 * without its verification link would be half done, and a dropped mail would leave the admin
 * believing the user had been asked to verify. The caller retries after `Retry-After`.
 *
 * Answers the address the notice was counted for (the user's email as read here); the
 * transaction checks it is still the user's, so a concurrent change cannot send an uncounted mail.
 */
export async function countEmailChangeMails(
  deps: Pick<FlowDeps, "db" | "logger" | "limits" | "detached">,
  project: Project,
  actor: UserActor,
  id: string,
  address: string,
  ip: string,
): Promise<string> {
  const user = await deps.db.repos.users.get(project.id, id);
  if (!user) throw userNotFound();
  const target = projectSendTarget(project);
  for (const to of emailChangeRecipients(user, address, isAdmin(actor))) {
    // The limiter's kinds share one count per destination; the notice counts like the link.
    // Both go to a user's own request, so the users' budget pays; a spent one refuses the change.
    const request = {
      kind: "verification",
      channel: "email",
      destination: normalizeEmail(to),
      known: true,
      overDestination: "reject",
      overBudget: "reject",
      ip,
    } as const;
    await admitSend(deps, target, request);
  }
  return user.email;
}
