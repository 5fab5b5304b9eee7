import * as oidc from "openid-client";
import { newId } from "../../../crypto/ids.js";
import { hashToken } from "../../../crypto/tokens.js";
import type { Project } from "../../../domain/account.js";
import { DomainError } from "../../../domain/errors.js";
import { isIdOf } from "../../../domain/ids.js";
import { allowedRedirect } from "../../../domain/redirects.js";
import type { FlowDeps } from "../../deps.js";
import { oauth2AuthorizationUrl } from "./oauth2.js";
import { isOidcKind } from "../../../domain/sso.js";

/** An SSO sign-in must come back within 10 minutes (auth.proto, SsoAuthorize). */
export const SSO_FLOW_TTL_SECONDS = 600;

/** Where every provider sends the browser back: project owners register this URL. */
export function ssoCallbackUrl(publicUrl: string): string {
  return `${publicUrl}/v1/auth/sso/callback`;
}

export interface SsoAuthorizeInput {
  connectionId: string;
  /** "" for the project's redirect_url. */
  redirectUrl: string;
  /** The application's S256 challenge for the code handover; "" for tokens in the fragment. */
  codeChallenge: string;
}

/**
 * SsoAuthorize: a flow row (the state as SHA-256; the nonce and the PKCE verifier sealed, as
 * they are sent on later) and the provider's authorization URL carrying the state, the nonce
 * (OpenID Connect only) and the S256 challenge. The redirect URL obeys the same allow-list as magic links.
 */
export async function ssoAuthorize(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "secrets" | "sso">,
  project: Project,
  input: SsoAuthorizeInput,
): Promise<{ authorizationUrl: string }> {
  const redirectUrl = allowedRedirect(project, input.redirectUrl, deps.config.publicUrl);
  const connection = isIdOf("sso", input.connectionId)
    ? await deps.db.repos.ssoConnections.get(project.id, input.connectionId)
    : null;
  if (!connection) throw new DomainError("SSO_CONNECTION_NOT_FOUND", "no such SSO connection in this project");
  // OpenID Connect providers are read from their discovery first (unreachable: SSO_FAILED).
  const config = isOidcKind(connection.provider) ? await deps.sso.forAuthorization(connection) : undefined;
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const verifier = oidc.randomPKCECodeVerifier();
  const id = newId("ssof");
  const now = deps.clock.now();
  await deps.db.repos.ssoFlows.create(
    project.id,
    hashToken(state),
    {
      id,
      projectId: project.id,
      connectionId: connection.id,
      nonceSealed: deps.secrets.seal(nonce, id),
      verifierSealed: deps.secrets.seal(verifier, id),
      redirectUrl,
      codeChallenge: input.codeChallenge === "" ? null : input.codeChallenge,
      expiresAt: new Date(now.getTime() + SSO_FLOW_TTL_SECONDS * 1000),
    },
    now,
  );
  const codeChallenge = await oidc.calculatePKCECodeChallenge(verifier);
  const callbackUrl = ssoCallbackUrl(deps.config.publicUrl);
  if (!config) return { authorizationUrl: oauth2AuthorizationUrl(connection, { state, codeChallenge, callbackUrl }) };
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: callbackUrl,
    scope: connection.scopes.join(" "),
    state,
    nonce,
    code_challenge: codeChallenge,
    code_challenge_method: "S256",
    // Google shows only the Workspace's accounts; the callback checks `hd` whatever was chosen.
    ...(connection.hostedDomain ? { hd: connection.hostedDomain } : {}),
    // Apple answers a request for the name or email only by posting a form to the callback.
    ...(connection.provider === "apple" ? { response_mode: "form_post" } : {}),
  });
  return { authorizationUrl: url.href };
}
