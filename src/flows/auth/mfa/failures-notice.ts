import type { Project } from "../../../domain/account.js";
import type { ClientInfo } from "../../../domain/auth.js";
import { effectiveRateLimits } from "../../../domain/rate-limits.js";
import { countMfaFailuresExceeded } from "../../../metrics/sends.js";
import { messageLanguage } from "../../../i18n/messages.js";
import { wordedMail } from "../../../notify/message-templates/worded.js";
import type { FlowDeps } from "../../deps.js";

/**
 * A user's wrong second factors first reached the project's mfa_failures_per_account: whoever
 * answers knows the password. The user is told by email (no link, no code: see the template)
 * and the audit log records `user.mfa.failures_exceeded`, with the address of the answer that
 * tripped it. Run after the answer, so its timing tells the guesser nothing.
 */
export async function noticeMfaFailures(
  deps: Pick<FlowDeps, "db" | "logger" | "mail">,
  project: Project,
  userId: string,
  client: ClientInfo,
): Promise<void> {
  const failures = effectiveRateLimits(project.rateLimits).mfaFailuresPerAccount;
  countMfaFailuresExceeded();
  await deps.db.transaction(async (repos) => {
    const user = await repos.users.get(project.id, userId);
    if (!user) return;
    await repos.auditEvents.record({
      type: "user.mfa.failures_exceeded",
      organizationId: project.organizationId,
      projectId: project.id,
      userId: user.id,
      targetId: user.id,
      details: { failures },
      origin: { actor: { type: "anonymous", id: "" }, ip: client.ipAddress, userAgent: client.userAgent },
    });
    const language = messageLanguage({
      userLocale: user.locale,
      acceptLanguage: client.acceptLanguage,
      projectDefault: project.defaultLocale,
    });
    if (user.email !== "") {
      const to = { project, language, userLocale: user.locale };
      const notice = await wordedMail(deps, repos, to, "mfa_failures_notice", { projectName: project.name, failures });
      await deps.mail.queue(repos, { to: user.email, ...notice });
    }
  });
}
