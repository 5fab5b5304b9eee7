import type { Project } from "../../domain/account.js";
import { DomainError } from "../../domain/errors.js";
import type { MemberPrincipal } from "../../domain/principals.js";
import type { ProjectPrincipal } from "../context.js";
import type { Authenticator } from "./authenticator.js";
import { memberFor, type ManagementTokenDeps } from "./management-token.js";

/** The header the console names the project it administers in (docs/console.md): `proj_…`. */
export const CONSOLE_HEADER = "x-gatehouse-console";

export interface ConsoleCredentialDeps {
  projects: { get(organizationId: string, id: string): Promise<Project | null> };
  /** The console's origins (the Account interface's: PUBLIC_URL's). */
  consoleOrigins: readonly string[];
}

/**
 * The console's user pages on the Authentication interface: the member's management token in
 * Authorization acts as the project's administrator (rules below), so no user token can come
 * with it.
 */
export function consoleAuthenticator(
  deps: ConsoleCredentialDeps & Pick<ManagementTokenDeps, "managementTokens" | "clock">,
): Authenticator {
  return {
    presented: (request) => request.header.get(CONSOLE_HEADER) !== null,
    async authenticate(request) {
      const { origin } = request;
      const principal = await consolePrincipal(deps, {
        projectId: (request.header.get(CONSOLE_HEADER) ?? "").trim(),
        origin,
        method: request.method.name,
        member: () => memberFor(deps, request.authorization),
      });
      if (origin !== null) request.record?.allowOrigin(origin);
      return principal;
    },
  };
}

/**
 * The Auth RPCs the console's user pages call, each as the project's administrator: finding
 * and reading users, changing and deleting them, their sessions, identities, passkeys and
 * grants, and a password reset mail. Nothing that signs anybody in or issues a token.
 */
export const CONSOLE_RPCS: ReadonlySet<string> = new Set([
  "ListUsers",
  "GetUser",
  "CreateUser",
  "InviteUser",
  "UpdateUser",
  "DeleteUser",
  "RequestPasswordReset",
  "ListUserSessions",
  "RevokeUserSession",
  "RevokeAllUserSessions",
  "ListIdentities",
  "UnlinkIdentity",
  "ListPasskeys",
  "RenamePasskey",
  "DeletePasskey",
  "ListAuthorizedApps",
  "RevokeAuthorizedApp",
]);

const PROJECT_ID = /^proj_[0-9a-z]{26}$/;

// The console holds a member's management token, and the Authentication interface takes a
// project API key; making a key for the browser to hold would leave a long-lived admin secret
// in a tab. So the console sends the token it has, with the project in X-Gatehouse-Console,
// and gets no more than the member could get anyway by creating a key (both roles may): admin
// rights over that project's users, on the RPCs above only, from the console's own origin
// only (a browser cannot forge `Origin`; a script outside one that holds the token can make a
// key instead, so the origin rule keeps this a console path, not a second API credential).
// A project of another organization is PROJECT_NOT_FOUND, as on the Account interface, and
// the audit log names the member as the actor.
async function consolePrincipal(
  deps: ConsoleCredentialDeps,
  request: {
    projectId: string;
    origin: string | null;
    method: string;
    /** The member behind `Authorization` (MISSING_ or INVALID_MANAGEMENT_TOKEN otherwise). */
    member: () => Promise<MemberPrincipal>;
  },
): Promise<{ project: ProjectPrincipal; member: MemberPrincipal }> {
  const { origin } = request;
  if (origin === null || !deps.consoleOrigins.some((o) => o.toLowerCase() === origin.toLowerCase())) {
    throw new DomainError(
      "ORIGIN_NOT_ALLOWED",
      "the console's credential (X-Gatehouse-Console) works only from the console's pages; other callers send an API key in X-Service-Key",
    );
  }
  // Who the request is (401) before what it may do (403).
  const member = await request.member();
  if (!CONSOLE_RPCS.has(request.method)) {
    throw new DomainError(
      "SCOPE_REQUIRED",
      `the console's credential reaches only user administration; call ${request.method} with an API key`,
    );
  }
  const project = PROJECT_ID.test(request.projectId)
    ? await deps.projects.get(member.organizationId, request.projectId)
    : null;
  if (!project) throw new DomainError("PROJECT_NOT_FOUND", "X-Gatehouse-Console names no project of your organization");
  return { project: { project, apiKey: null, console: true }, member };
}
