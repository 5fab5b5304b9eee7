import type { Project } from "../../domain/account.js";
import type { FlowDeps } from "../deps.js";
import { issuerOf } from "../auth/issuer.js";
import { userClaims } from "./claims.js";
import { dpopRefusal } from "./dpop.js";
import { checkOAuthAccessToken } from "./verify-oauth-token.js";

/** An RFC 6750 refusal: the status and the `WWW-Authenticate` error it names. */
export interface BearerRefusal {
  status: 401 | 403;
  error: "invalid_token" | "insufficient_scope" | "invalid_dpop_proof";
  description: string;
}

/** The token as the request presents it: `Authorization: Bearer …` or `DPoP …`, and the proof header. */
export interface PresentedToken {
  scheme: "bearer" | "dpop";
  token: string;
  method: string;
  dpopProof: string | undefined;
}

/**
 * UserInfo (OpenID Connect Core 5.3): the claims of the user an OAuth access token with the
 * `openid` scope names, for the scopes it was granted. Gatehouse serves it rather than the
 * engine, whose userinfo takes only opaque tokens. A token bound to a key with DPoP is taken
 * only with a proof made with that key (RFC 9449 section 7).
 */
export async function userinfo(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "verification">,
  project: Project,
  presented: PresentedToken | undefined,
): Promise<{ claims: Record<string, unknown> } | BearerRefusal> {
  const invalid: BearerRefusal = { status: 401, error: "invalid_token", description: "the access token is not valid" };
  if (!presented) return { ...invalid, description: "no access token" };
  const verified = await checkOAuthAccessToken(deps, project, presented.token);
  if (!verified?.userId) return invalid;
  const jkt = (verified.claims.cnf as { jkt?: unknown } | undefined)?.jkt;
  if (typeof jkt === "string") {
    if (presented.scheme !== "dpop")
      return { ...invalid, description: "the access token is bound to a key: present it with DPoP" };
    const refused = await dpopRefusal(
      {
        method: presented.method,
        url: `${issuerOf(deps.config.publicUrl, project)}/oauth/userinfo`,
        proof: presented.dpopProof,
        accessToken: presented.token,
      },
      jkt,
      deps.clock.now(),
    );
    if (refused) return { status: 401, error: "invalid_dpop_proof", description: refused };
  } else if (presented.scheme !== "bearer") {
    return { ...invalid, description: "the access token is not bound to a key: present it as Bearer" };
  }
  if (!verified.scopes.has("openid"))
    return { status: 403, error: "insufficient_scope", description: "the token was not granted the openid scope" };
  const user = await deps.db.repos.users.get(project.id, verified.userId);
  if (!user || user.disabled) return invalid;
  return { claims: userClaims(user, verified.scopes) };
}
