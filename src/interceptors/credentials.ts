import type { Interceptor } from "@connectrpc/connect";
import { getOption, type DescMethod } from "@bufbuild/protobuf";
import {
  access as accessExt,
  Credential,
  Publishable,
  Role,
  type Access,
} from "../../gen/gatehouse/options/v1/options_pb.js";
import type { Project } from "../domain/account.js";
import type { Clock } from "../domain/clock.js";
import { DomainError } from "../domain/errors.js";
import { hashToken } from "../crypto/tokens.js";
import type { Repositories } from "../store/repositories/index.js";
import type { VerificationCache } from "../store/verification-cache.js";
import { PAGE_HEADER, pagePrincipal, type PageCredentialDeps } from "./page-credential.js";
import { CONSOLE_HEADER, consolePrincipal } from "./console-credential.js";
import { operatorCredential } from "./operator-credential.js";
import { kMember, kProject, kRequest, kUser, type RequestRecord, type UserPrincipal } from "./context.js";

/** Checks an end user's access token (flows/auth/verify-access-token.ts). */
export interface UserTokenVerifier {
  verify(project: Project, token: string): Promise<UserPrincipal | undefined>;
}

export interface CredentialDeps {
  repos: Pick<Repositories, "managementTokens" | "projects">;
  /** API keys come from the verification cache, which the change feed keeps current. */
  apiKeys: Pick<VerificationCache, "findActiveApiKey">;
  clock: Clock;
  userTokens: UserTokenVerifier;
  /** Browser origins allowed to call the Account interface (the dashboard's). */
  accountOrigins: string[];
  /** The hosted pages' credential: their project by login_id, and their origin. */
  pages: PageCredentialDeps;
}

// Enforces the `(gatehouse.options.v1.access)` declared on each RPC: the credential kind,
// the API key scope and the member role. Management tokens are read from the database on every
// request; API keys from the verification cache, which a revoke clears on every instance
// before the revoke answers (store/change-feed.ts). Expiry is judged on every request.
//
// An `Authorization` header is never ignored: on the Authentication interface, whatever the
// RPC declares, a header that is present must carry a valid access token of the key's
// project, and on the Account interface a valid management token. A header the server does
// not understand (a bare JWT, `Basic …`, `Bearer` with nothing) or a token that is not valid
// fails the request; it never falls back to the rights the API key has alone, which are
// admin rights. The handlers then limit a request with a user token to that user.
//
// A browser says where a request comes from in `Origin`, and a page cannot forge it. So a
// request with an `Origin` is refused before any work unless the origin is one the project
// (or, for the Account interface, the console) allows: hiding the answer from a foreign page
// is not enough, since the request would still have run. And a secret key never works with an
// `Origin` at all: in a page it is no longer secret.
export function credentialInterceptor(deps: CredentialDeps): Interceptor {
  return (next) => async (req) => {
    const access = accessOf(req.method);
    if (operatorCredential(req.contextValues, access)) return next(req);
    const record = req.contextValues.get(kRequest);
    const origin = req.header.get("origin");
    const authorization = req.header.get("authorization");
    switch (access.credential) {
      case Credential.NONE:
        requireOrigin(record, origin, deps.accountOrigins, CONSOLE_HINT);
        break;
      case Credential.OPTIONAL_MANAGEMENT_TOKEN:
      case Credential.MANAGEMENT_TOKEN: {
        requireOrigin(record, origin, deps.accountOrigins, CONSOLE_HINT);
        // Optional: without the header the request names its member by an mfa_token (the
        // handler refuses it with neither); a header that is present is never ignored.
        if (authorization === null && access.credential === Credential.OPTIONAL_MANAGEMENT_TOKEN) break;
        const principal = await memberFor(deps, authorization);
        if (access.role === Role.ADMIN && principal.member.role !== "admin") {
          throw new DomainError("ROLE_REQUIRED", "this operation needs the admin role");
        }
        req.contextValues.set(kMember, principal);
        break;
      }
      case Credential.API_KEY:
      case Credential.API_KEY_AND_USER_TOKEN:
      case Credential.API_KEY_OPTIONAL_USER_TOKEN: {
        const key = req.header.get("x-service-key");
        const page = req.header.get(PAGE_HEADER);
        const consoleProject = req.header.get(CONSOLE_HEADER);
        if (key === null && consoleProject !== null) {
          // The console's user pages: the member's management token in Authorization acts as
          // the project's administrator, so no user token can come with it (console-credential.ts).
          const principal = await consolePrincipal(
            { projects: deps.repos.projects, consoleOrigins: deps.accountOrigins },
            {
              projectId: consoleProject.trim(),
              origin,
              method: req.method.name,
              member: () => memberFor(deps, authorization),
            },
          );
          req.contextValues.set(kProject, principal.project);
          req.contextValues.set(kMember, principal.member);
          if (origin !== null) record?.allowOrigin(origin);
          break;
        }
        if (key === null && page !== null) {
          // Same-origin by rule, so there is no CORS answer to give.
          const principal = await pagePrincipal(
            deps.pages,
            access,
            page.trim(),
            origin,
            authorization,
            req.method.name,
          );
          req.contextValues.set(kProject, principal);
          // Only the RPCs pagePrincipal lets act as a user get this far with a token.
          const user = await userFor(deps, principal.project, authorization);
          if (!user && access.publishable === Publishable.WITH_USER_TOKEN) {
            throw new DomainError(
              "MISSING_ACCESS_TOKEN",
              "this operation needs the user's access token in Authorization: Bearer",
            );
          }
          if (user) req.contextValues.set(kUser, user);
          break;
        }
        const principal = await projectFor(deps, key);
        req.contextValues.set(kProject, principal);
        requireOrigin(record, origin, principal.project.allowedOrigins, PROJECT_HINT);
        const publishable = principal.apiKey.kind === "publishable";
        if (origin !== null && !publishable) {
          throw new DomainError(
            "SECRET_KEY_IN_BROWSER",
            "a secret API key must not be used from a browser; create a publishable key for web pages and keep secret keys on servers",
          );
        }
        if (publishable && access.publishable === Publishable.UNSPECIFIED) {
          throw new DomainError(
            "SCOPE_REQUIRED",
            `a publishable key reaches only end-user operations; call ${req.method.name} from a server with a secret key`,
          );
        }
        // Who the request is (401) before what it may do (403).
        const user = await userFor(deps, principal.project, authorization);
        if (
          !user &&
          (access.credential === Credential.API_KEY_AND_USER_TOKEN ||
            (publishable && access.publishable === Publishable.WITH_USER_TOKEN))
        ) {
          throw new DomainError(
            "MISSING_ACCESS_TOKEN",
            "this operation needs the user's access token in Authorization: Bearer",
          );
        }
        requireScope(access, principal.apiKey.scopes, user !== undefined);
        if (user) req.contextValues.set(kUser, user);
        break;
      }
      default:
        // A method without a declared credential fails closed.
        throw new Error(`RPC ${req.method.parent.typeName}/${req.method.name} declares no credential`);
    }
    return next(req);
  };
}

// Read once per method: getOption builds the option message anew on every call.
const accessByMethod = new WeakMap<DescMethod, Access>();
function accessOf(method: DescMethod): Access {
  let access = accessByMethod.get(method);
  if (!access) {
    access = getOption(method, accessExt);
    accessByMethod.set(method, access);
  }
  return access;
}

async function memberFor(deps: CredentialDeps, authorization: string | null) {
  if (authorization === null) {
    throw new DomainError("MISSING_MANAGEMENT_TOKEN", "send the management token in Authorization: Bearer");
  }
  const token = bearerToken(authorization);
  const found =
    token === undefined ? null : await deps.repos.managementTokens.findActive(hashToken(token), deps.clock.now());
  if (!found)
    throw new DomainError(
      "INVALID_MANAGEMENT_TOKEN",
      "the management token is invalid or expired; send it as Authorization: Bearer <token>",
    );
  return { member: found.member, organizationId: found.organizationId, tokenId: found.id };
}

/** The user behind the Authorization header: none without a header, else a valid token or INVALID_ACCESS_TOKEN. */
async function userFor(
  deps: CredentialDeps,
  project: Project,
  authorization: string | null,
): Promise<UserPrincipal | undefined> {
  if (authorization === null) return undefined;
  const token = bearerToken(authorization);
  const user = token === undefined ? undefined : await deps.userTokens.verify(project, token);
  if (!user) {
    throw new DomainError(
      "INVALID_ACCESS_TOKEN",
      "the access token is invalid or expired; send it as Authorization: Bearer <access_token>, or send no Authorization header",
    );
  }
  return user;
}

async function projectFor(deps: CredentialDeps, key: string | null) {
  if (key === null || key.trim() === "") {
    throw new DomainError("MISSING_API_KEY", "send the project API key in X-Service-Key");
  }
  const found = await deps.apiKeys.findActiveApiKey(hashToken(key.trim()), deps.clock.now());
  if (!found) throw new DomainError("INVALID_API_KEY", "the API key is invalid, revoked or expired");
  return found;
}

function requireScope(access: Access, scopes: readonly string[], withUserToken: boolean): void {
  const needed = withUserToken && access.userScope !== "" ? access.userScope : access.scope;
  if (needed !== "" && !scopes.includes(needed)) {
    throw new DomainError("SCOPE_REQUIRED", `this operation needs an API key with the ${needed} scope`);
  }
}

/** The token of `Bearer <token>` (the scheme is case-insensitive, RFC 9110); anything else: undefined. */
function bearerToken(header: string): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : undefined;
}

const PROJECT_HINT = "add it to the project's allowed_origins";
const CONSOLE_HINT = "the Account interface answers pages of the console only (the origin of PUBLIC_URL)";

/**
 * No `Origin` (a server, curl, a gRPC client): nothing to check. Otherwise the origin must be
 * allowed, and the answer then names it for the browser. `null` (sandboxed frames, file:
 * pages, some redirects) matches nothing, since the format rule never admits it to a list.
 */
function requireOrigin(
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
