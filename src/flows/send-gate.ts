import type { Project } from "../domain/account.js";
import type { AuditOrigin } from "../domain/audit.js";
import { rateLimited, validationFailed } from "../domain/errors.js";
import { smsDestinationProblem } from "../domain/sms-destinations.js";
import {
  ACCOUNT_SCOPE,
  organizationScope,
  projectScope,
  type BudgetReached,
  type LimitScope,
  type SendRequest,
} from "../limits/limits.js";
import { countBudgetReached } from "../metrics/sends.js";
import type { FlowDeps } from "./deps.js";

/** Whose sends: the limits that count them, and who is told when a budget is spent. */
export interface SendTarget {
  scope: LimitScope;
  /** Null for the Account interface's own mail (member password resets): no organization to alert. */
  organizationId: string | null;
  projectId: string | null;
  /** Where SMS may go (the project's sms_country_codes); empty: any country. */
  smsCountryCodes: readonly string[];
}

export function projectSendTarget(project: Project): SendTarget {
  return {
    scope: projectScope(project),
    organizationId: project.organizationId,
    projectId: project.id,
    smsCountryCodes: project.smsCountryCodes,
  };
}

/** An organization's own mail (invitations), with the default limits. */
export function organizationSendTarget(organizationId: string): SendTarget {
  return { scope: organizationScope(organizationId), organizationId, projectId: null, smsCountryCodes: [] };
}

/** The Account interface's mail to members (password resets), with the default limits. */
export const ACCOUNT_SEND_TARGET: SendTarget = {
  scope: ACCOUNT_SCOPE,
  organizationId: null,
  projectId: null,
  smsCountryCodes: [],
};

/**
 * The one gate every mail and SMS passes before it is queued (docs/security.md, "Sends"):
 *
 * - an SMS to a high-cost range, or to a country the project does not serve, is refused as the
 *   caller's input (VALIDATION_FAILED naming `phone`) when the caller named the number, or not
 *   sent when it did not (an MFA challenge's SMS to a factor enrolled earlier);
 * - the request is counted against the client address (`ip`; absent when the caller counted it
 *   already, as a password reset does before it answers);
 * - the message is counted against its destination and against the project's budget for users
 *   or for first contacts (limits.send; `only` counts one of them, for a flow that counts the
 *   destination when it answers and the budget once it knows a message goes out). A spent budget sends nothing, answers as usual, and
 *   alerts the project's admins once per window: the audit event `send_budget.reached` and the
 *   metric gatehouse_send_budget_reached_total.
 *
 * Answers whether to queue the message; `overBudget: "reject"` makes a spent budget a
 * RATE_LIMITED refusal instead, for a caller whose answer says nothing about registration (a
 * signed-in user's own email change). Never inside a transaction: the limits take their own
 * connection (PGlite has one).
 */
export async function admitSend(
  deps: Pick<FlowDeps, "db" | "logger" | "limits" | "detached">,
  target: SendTarget,
  request: SendRequest & { ip?: string; overBudget?: "drop" | "reject"; only?: "destination" | "budget" },
): Promise<boolean> {
  if (request.channel === "sms") {
    const problem = smsDestinationProblem(request.destination, target.smsCountryCodes);
    if (problem !== undefined) {
      if (request.overDestination === "reject") throw validationFailed([{ field: "phone", description: problem }]);
      deps.logger.info(
        { kind: request.kind, project: target.projectId },
        "sms not sent: the number may not receive codes",
      );
      return false;
    }
  }
  if (request.ip !== undefined) await deps.limits.sendRequested(target.scope, request.ip);
  const verdict = await deps.limits.send(target.scope, request, request.only);
  if (verdict.send) return true;
  if (!verdict.budgetReached) return false;
  alertBudgetReached(deps, target, request, verdict.budgetReached);
  if (request.overBudget === "reject")
    throw rateLimited(
      "this project has sent as many messages as it may for now; try again later",
      verdict.budgetReached.retryAfterSeconds,
    );
  return false;
}

const BUDGET_ORIGIN: AuditOrigin = { actor: { type: "anonymous", id: "" }, ip: "", userAgent: "" };

function alertBudgetReached(
  deps: Pick<FlowDeps, "db" | "logger" | "limits" | "detached">,
  target: SendTarget,
  request: SendRequest,
  reached: BudgetReached,
): void {
  countBudgetReached(reached.budget, request.channel);
  deps.logger.warn(
    { project: target.projectId, budget: reached.budget, country: reached.country, limit: reached.limit },
    "send budget reached: messages are not sent until it refills",
  );
  const { organizationId } = target;
  if (organizationId === null) return;
  deps.detached.run("audit send_budget.reached", async () => {
    // Once per budget and window: a flood of dropped sends writes one row.
    if (!(await deps.limits.firstRefusal(`audit:${reached.key}`, reached.retryAfterSeconds))) return;
    const details: Record<string, string | number> = {
      budget: reached.budget,
      limit: reached.limit,
      channel: request.channel,
      kind: request.kind,
      retry_after_seconds: reached.retryAfterSeconds,
    };
    if (reached.country !== undefined) details.country = reached.country;
    await deps.db.repos.auditEvents.record({
      type: "send_budget.reached",
      organizationId,
      projectId: target.projectId,
      details,
      origin: BUDGET_ORIGIN,
    });
  });
}

/**
 * A send only a registered address may get, answered alike for every address: the request is
 * counted against the client address and the destination and answered; after the answer,
 * `findUser` looks the address up, and only a user found spends the users' budget and gets
 * `issue`. Over a limit, or for an address no user has, nothing is sent and nothing shows.
 */
export async function sendToUserOnly<U>(
  deps: Pick<FlowDeps, "db" | "logger" | "limits" | "detached">,
  target: SendTarget,
  request: Pick<SendRequest, "kind" | "channel" | "destination"> & { ip: string },
  work: { what: string; findUser: () => Promise<U | null | undefined>; issue: (user: U) => Promise<unknown> },
): Promise<void> {
  const counted = { ...request, known: false, overDestination: "drop", only: "destination" } as const;
  if (!(await admitSend(deps, target, counted))) return;
  deps.detached.run(work.what, async () => {
    const user = await work.findUser();
    if (user === null || user === undefined) return;
    const { ip: _ip, ...message } = request;
    const budget = { ...message, known: true, overDestination: "drop", only: "budget" } as const;
    if (await admitSend(deps, target, budget)) await work.issue(user);
  });
}
