import { userInfo } from "node:os";
import type { AuditOrigin } from "../domain/audit.js";

/**
 * Who the audit log says acted: the CLI runs on the server's machine with the service's own
 * configuration, so its caller is whoever may run it there: the operating-system account. A
 * command run through the server's operator channel names the account the command line proved
 * to the server (operator-peer.ts), never a name it sent.
 */
export function operatorOrigin(name: string = operatorName()): AuditOrigin {
  return { actor: { type: "operator", id: name }, ip: "", userAgent: "gatehouse-cli" };
}

export function operatorName(): string {
  try {
    return userInfo().username;
  } catch {
    // A uid with no passwd entry (a container's): the number is what there is.
    return process.env.USER || `uid:${process.getuid?.() ?? "unknown"}`;
  }
}
