import { DomainError } from "../../domain/errors.js";
import type { RequestRecord } from "../context.js";

export const PROJECT_HINT = "add it to the project's allowed_origins";
export const CONSOLE_HINT = "the Account interface answers pages of the console only (the origin of PUBLIC_URL)";

/**
 * No `Origin` (a server, curl, a gRPC client): nothing to check. Otherwise the origin must be
 * allowed, and the answer then names it for the browser. `null` (sandboxed frames, file:
 * pages, some redirects) matches nothing, since the format rule never admits it to a list.
 */
export function requireOrigin(
  record: RequestRecord | undefined,
  origin: string | null,
  allowed: readonly string[],
  hint: string,
): void {
  if (origin === null) return;
  if (!allowed.some((o) => o.toLowerCase() === origin.toLowerCase())) {
    throw new DomainError(
      "ORIGIN_NOT_ALLOWED",
      `requests from the origin ${JSON.stringify(origin.slice(0, 200))} are not allowed; ${hint}`,
    );
  }
  record?.allowOrigin(origin);
}
