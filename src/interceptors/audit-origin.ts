import type { ContextValues } from "@connectrpc/connect";
import type { AuditOrigin } from "../domain/audit.js";
import { kMember, kProject, kRequest, kUser } from "./context.js";
import { kOperator } from "./operator-credential.js";

/**
 * Who is calling, for the audit log: the end user behind an access token, else the member
 * behind a management token, else the operator (the CLI, named by its operating-system account), else the API key (acting as the project's administrator), else
 * nobody known (a hosted page's request too); with the client's address (after TRUSTED_PROXIES) and user agent.
 */
export function auditOriginOf(values: ContextValues): AuditOrigin {
  const record = values.get(kRequest);
  const user = values.get(kUser);
  const member = values.get(kMember);
  const project = values.get(kProject);
  const operator = values.get(kOperator);
  const actor = user
    ? { type: "user" as const, id: user.userId }
    : member
      ? { type: "member" as const, id: member.member.id }
      : operator
        ? { type: "operator" as const, id: operator.account }
        : project?.apiKey
          ? { type: "api_key" as const, id: project.apiKey.id }
          : // A hosted page's request (no key) is someone not yet signed in.
            { type: "anonymous" as const, id: "" };
  return { actor, ip: record?.ip ?? "", userAgent: record?.userAgent ?? "" };
}
