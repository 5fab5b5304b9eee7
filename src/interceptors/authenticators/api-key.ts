import { Credential, Publishable, type Access } from "../../../gen/gatehouse/options/v1/options_pb.js";
import type { Clock } from "../../domain/clock.js";
import { DomainError } from "../../domain/errors.js";
import { hashToken } from "../../crypto/tokens.js";
import type { VerificationCache } from "../../store/verification-cache.js";
import type { Authenticator } from "./authenticator.js";
import { PROJECT_HINT, requireOrigin } from "./origin.js";
import { missingAccessToken, userFor, type UserTokenVerifier } from "./user-token.js";

/** The header a project API key travels in. */
export const API_KEY_HEADER = "x-service-key";

export interface ApiKeyDeps {
  /** API keys come from the verification cache, which the change feed keeps current. */
  apiKeys: Pick<VerificationCache, "findActiveApiKey">;
  clock: Clock;
  userTokens: UserTokenVerifier;
}

// A project API key in X-Service-Key, and the end user's access token beside it when the RPC
// takes one. The key is read from the verification cache, which a revoke clears on every
// instance before the revoke answers (store/change-feed.ts); expiry is judged on every request.
//
// A browser says where a request comes from in `Origin`, and a page cannot forge it: a request
// from an origin the project does not allow is refused before any work. And a secret key never
// works with an `Origin` at all: in a page it is no longer secret. A user token that is present
// must be valid; it never falls back to the rights the key has alone, which are admin rights.
//
// It is also the kind a request without any project credential is refused as (MISSING_API_KEY).
export function apiKeyAuthenticator(deps: ApiKeyDeps): Authenticator {
  return {
    presented: (request) => request.header.get(API_KEY_HEADER) !== null,
    async authenticate(request) {
      const { access, origin } = request;
      const project = await projectFor(deps, request.header.get(API_KEY_HEADER));
      requireOrigin(request.record, origin, project.project.allowedOrigins, PROJECT_HINT);
      const publishable = project.apiKey.kind === "publishable";
      if (origin !== null && !publishable) {
        throw new DomainError(
          "SECRET_KEY_IN_BROWSER",
          "a secret API key must not be used from a browser; create a publishable key for web pages and keep secret keys on servers",
        );
      }
      if (publishable && access.publishable === Publishable.UNSPECIFIED) {
        throw new DomainError(
          "SCOPE_REQUIRED",
          `a publishable key reaches only end-user operations; call ${request.method.name} from a server with a secret key`,
        );
      }
      // Who the request is (401) before what it may do (403).
      const user = await userFor(deps.userTokens, project.project, request.authorization);
      if (
        !user &&
        (access.credential === Credential.API_KEY_AND_USER_TOKEN ||
          (publishable && access.publishable === Publishable.WITH_USER_TOKEN))
      ) {
        throw missingAccessToken();
      }
      requireScope(access, project.apiKey.scopes, user !== undefined);
      return { project, user };
    },
  };
}

async function projectFor(deps: ApiKeyDeps, key: string | null) {
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
