import { createContextKey } from "@connectrpc/connect";
import type { ApiKey, Project } from "../domain/account.js";
import type { MemberPrincipal } from "../domain/principals.js";

/** What the transport knows about one request; filled in as the request moves inward. */
export interface RequestRecord {
  id: string;
  /** Client address, after TRUSTED_PROXIES were applied. */
  ip: string;
  userAgent: string;
  /** The `Accept-Language` header (bounded): the language of the messages a request sends, when the user chose none. */
  acceptLanguage?: string;
  /** `Service/Method` once an RPC was matched. */
  rpc?: string;
  /** Final status as a code name (`ok`, `permission_denied`), set by the error interceptor. */
  code?: string;
  reason?: string;
  /** Lets the credential interceptor answer CORS once it knows the project's origins. */
  allowOrigin(origin: string): void;
}

/**
 * The project and API key behind `X-Service-Key`; or, with `apiKey` null, the project a hosted
 * page names in `X-Gatehouse-Page` (src/interceptors/authenticators/page.ts), which has no key, or
 * (with `console`) the project the console administers for a member
 * (src/interceptors/authenticators/console.ts).
 */
export interface ProjectPrincipal {
  project: Project;
  apiKey: ApiKey | null;
  /** The console acting for a member (kMember holds who): the project's administrator. */
  console?: true;
}

/** The end user behind an access token (filled in by the authentication issue's JWT code). */
export interface UserPrincipal {
  userId: string;
  sessionId: string;
  claims: Record<string, unknown>;
}

export const kRequest = createContextKey<RequestRecord | undefined>(undefined, { description: "request" });
export const kProject = createContextKey<ProjectPrincipal | undefined>(undefined, { description: "project" });
export const kMember = createContextKey<MemberPrincipal | undefined>(undefined, { description: "member" });
export const kUser = createContextKey<UserPrincipal | undefined>(undefined, { description: "user" });
