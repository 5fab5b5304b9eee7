import { Publishable, type Access } from "../../../gen/gatehouse/options/v1/options_pb.js";
import type { Project } from "../../domain/account.js";
import { DomainError } from "../../domain/errors.js";
import { pagesOrigins } from "../../domain/relying-party.js";
import type { ProjectPrincipal } from "../context.js";
import type { Authenticator } from "./authenticator.js";
import { missingAccessToken, userFor, type UserTokenVerifier } from "./user-token.js";

/** The header a hosted page names its project in (docs/pages.md): the public login_id, no secret. */
export const PAGE_HEADER = "x-gatehouse-page";

export interface PageCredentialDeps {
  projects: { getByLoginId(loginId: string): Promise<Project | null> };
  /** Gatehouse's own origin (PUBLIC_URL's), where the hosted pages are served. */
  pagesOrigin: string;
}

/**
 * The hosted pages' credential, X-Gatehouse-Page (rules below), with the user's access token
 * beside it on the RPCs a page may call as that user. Same-origin by rule, so there is no CORS
 * answer to give.
 */
export function pageAuthenticator(deps: PageCredentialDeps & { userTokens: UserTokenVerifier }): Authenticator {
  return {
    presented: (request) => request.header.get(PAGE_HEADER) !== null,
    async authenticate(request) {
      const { access, authorization } = request;
      const loginId = (request.header.get(PAGE_HEADER) ?? "").trim();
      const project = await pagePrincipal(deps, access, loginId, request.origin, authorization, request.method.name);
      // Only the RPCs pagePrincipal lets act as a user get this far with a token.
      const user = await userFor(deps.userTokens, project.project, authorization);
      if (!user && access.publishable === Publishable.WITH_USER_TOKEN) throw missingAccessToken();
      return { project, user };
    },
  };
}

const LOGIN_ID = /^lp_[0-9a-z]{26}$/;

/**
 * The RPCs a hosted page may call as a signed-in user, with the user's access token beside the
 * page credential: the passkey steps of the `security` page and of the offer after a signup
 * (docs/pages.md). Each acts on that user's own passkeys and nothing else; every other RPC takes
 * no user token from the pages.
 */
const AS_USER = new Set([
  "StartPasskeyRegistration",
  "FinishPasskeyRegistration",
  "ListPasskeys",
  "RenamePasskey",
  "DeletePasskey",
]);

// The hosted pages call the Auth interface with no API key: a key in a page is public anyway,
// and a project should not have to make one to get sign-in pages. What they send instead is
// the project's public login_id, and what it buys is less than a publishable key's: only the
// RPCs a publishable key may call without a user token (sign-up, sign-in, codes, links, MFA,
// reset, verification), with the auth:write scope alone, acting for no user; and, with the
// user's access token, that user's own passkeys (AS_USER). A browser cannot
// forge `Origin`, so requiring Gatehouse's own origin (or a host of the project's own that
// serves its pages, docs/passkeys.md) keeps other sites' pages from using it;
// a script outside a browser can send any header, and then has no more than the same public
// sign-in endpoints any publishable key opens, behind the same rate limits.
async function pagePrincipal(
  deps: PageCredentialDeps,
  access: Access,
  loginId: string,
  origin: string | null,
  authorization: string | null,
  method: string,
): Promise<ProjectPrincipal> {
  const project = LOGIN_ID.test(loginId) ? await deps.projects.getByLoginId(loginId) : null;
  // Gatehouse's origin, or a host of the project's own that serves its pages (relying-party.ts).
  const pages = project ? pagesOrigins(project, deps.pagesOrigin) : [deps.pagesOrigin];
  if (origin === null || !pages.some((o) => o.toLowerCase() === origin.toLowerCase())) {
    throw new DomainError(
      "ORIGIN_NOT_ALLOWED",
      "the hosted pages' credential (X-Gatehouse-Page) works only from Gatehouse's own pages; other callers send an API key in X-Service-Key",
    );
  }
  const asUser = AS_USER.has(method);
  const reachable = asUser
    ? access.publishable !== Publishable.UNSPECIFIED
    : access.publishable === Publishable.ALLOWED && (access.scope === "" || access.scope === "auth:write");
  if (!reachable) {
    throw new DomainError(
      "SCOPE_REQUIRED",
      `the hosted pages' credential reaches only sign-in operations; call ${method} with an API key`,
    );
  }
  if (authorization !== null && !asUser) {
    throw new DomainError(
      "SCOPE_REQUIRED",
      "the hosted pages' credential acts for no user here; send no Authorization header with it",
    );
  }
  if (!project) throw new DomainError("INVALID_API_KEY", "X-Gatehouse-Page names no project");
  return { project, apiKey: null };
}
