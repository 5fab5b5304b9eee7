import * as oidc from "openid-client";
import { randomToken, hashToken } from "../../../crypto/tokens.js";
import type { Project } from "../../../domain/account.js";
import type { ClientInfo } from "../../../domain/auth.js";
import { DomainError } from "../../../domain/errors.js";
import { checkEmail } from "../../../domain/formats.js";
import type { ProvenIdentity, SsoConnectionWithSecret, SsoFlow } from "../../../domain/sso.js";
import { auditedSignIn, type SignInAttempt } from "../../audit/sign-in.js";
import type { FlowDeps } from "../../deps.js";
import { ssoCallbackUrl } from "./authorize.js";
import { signInWithIdentity } from "./identity-sign-in.js";
import { appleUserMetadata } from "./apple-user.js";
import { codeGrantFor, emailDomainVerified, tenantProblem } from "./microsoft.js";
import { oauth2Profile } from "./oauth2.js";
import { identityIssuer } from "../../../domain/sso-providers.js";
import { isOidcKind } from "../../../domain/sso.js";
import { errorRedirect, handoverRedirect, outcomeRedirect } from "./redirects.js";
import { exchangeRefusal, providerRedirectRefusal, refusal, SsoRefusal, ssoFailed } from "./refusals.js";

/** A handover code is traded within a minute (auth.proto, SsoExchange). */
export const SSO_HANDOVER_TTL_SECONDS = 60;

/**
 * What the callback route answers: a redirect to the flow's URL, or, when no flow is known, a
 * page saying why (the route words it in the browser's language): no `state` in the answer, or
 * a state that names no flow still waiting.
 */
export type CallbackAnswer = { redirect: string } | { page: "incomplete" | "unknown_flow" };

/** How the provider's answer came: in the query of a GET, or as a posted form (Apple's form_post). */
export type ResponseMode = "query" | "form_post";

/**
 * GET /v1/auth/sso/callback: spends the flow named by `state`, exchanges the code (PKCE and
 * the client secret, opened only here), validates the ID token (issuer, audience, nonce,
 * expiry, signature from the provider's JWKS), takes the email from the ID token or userinfo,
 * and signs the identity in. Every failure once the flow is known goes back to the flow's URL
 * as `#error=…&error_description=…`, and into the project's audit log as `user.login.failed`
 * (auditedSignIn); without a known flow there is nowhere safe to send the browser, so it gets
 * a page, and no project whose log it could go to.
 */
export async function ssoCallback(
  deps: Pick<
    FlowDeps,
    | "config"
    | "db"
    | "clock"
    | "secrets"
    | "logger"
    | "sms"
    | "codes"
    | "sso"
    | "verification"
    | "limits"
    | "hooks"
    | "detached"
  >,
  query: URLSearchParams,
  client: ClientInfo,
  mode: ResponseMode = "query",
): Promise<CallbackAnswer> {
  const state = query.get("state");
  if (!state) return { page: "incomplete" };
  const flow = await deps.db.repos.ssoFlows.consume(hashToken(state), deps.clock.now());
  if (!flow) return { page: "unknown_flow" };
  const fail = (error: string, description: string): CallbackAnswer => ({
    redirect: errorRedirect(flow.redirectUrl, error, description),
  });
  const project = await deps.db.repos.projects.getByIdForFlow(flow.projectId);
  if (!project) {
    const gone = ssoFailed("connection_gone");
    return fail(gone.error, gone.description);
  }
  const attempt: SignInAttempt = { method: "sso" };
  try {
    return await auditedSignIn(deps, project, client, attempt, async () => {
      try {
        return await finish(deps, project, flow, state, query, client, attempt, mode);
      } catch (error) {
        // The audit log says what the application was told; the server's log why.
        const told = redirectErrorOf(error);
        if (told) attempt.details = { error: told.error };
        if (error instanceof SsoRefusal)
          deps.logger.warn(
            { connection_id: flow.connectionId, error: error.error, reason: error.detail ?? error.description },
            "sso sign-in refused",
          );
        throw error;
      }
    });
  } catch (error) {
    const told = redirectErrorOf(error);
    if (told) return fail(told.error, told.description);
    throw error;
  }
}

/** The `#error=…` a refusal sends the browser back with; none for a fault (answered 500). */
function redirectErrorOf(error: unknown): { error: string; description: string } | undefined {
  if (error instanceof SsoRefusal) return error;
  if (error instanceof DomainError && error.reason === "USER_DISABLED")
    return { error: "user_disabled", description: error.message };
  // The provider proved the address to its owner, so saying that this project takes no
  // signups for it tells a stranger nothing (API.md section 7).
  if (error instanceof DomainError && error.reason === "SIGNUPS_CLOSED")
    return { error: "signups_closed", description: error.message };
  // The hook's message is written for the person signing up (API.md section 7).
  if (error instanceof DomainError && error.reason === "SIGNUP_REFUSED_BY_HOOK")
    return { error: "signup_refused", description: error.message };
  // A hook that could not vet the user, or the database away: the browser goes back to the
  // application with the OAuth error for "try again later" rather than to an error page.
  if (error instanceof DomainError && error.reason === "SERVICE_UNAVAILABLE")
    return { error: "temporarily_unavailable", description: error.message };
  return undefined;
}

/** The callback once its flow and project are known: any refusal is thrown, for the audit log. */
async function finish(
  deps: Pick<
    FlowDeps,
    | "config"
    | "db"
    | "clock"
    | "secrets"
    | "logger"
    | "sms"
    | "codes"
    | "sso"
    | "verification"
    | "limits"
    | "hooks"
    | "detached"
  >,
  project: Project,
  flow: SsoFlow,
  state: string,
  query: URLSearchParams,
  client: ClientInfo,
  attempt: SignInAttempt,
  mode: ResponseMode,
): Promise<CallbackAnswer> {
  const now = deps.clock.now();
  if (flow.expiresAt <= now) throw refusal("flow_expired");
  const providerError = query.get("error");
  // An RFC 6749 code with Gatehouse's sentence for it: the provider's own words go to the log only.
  if (providerError !== null) throw providerRedirectRefusal(providerError, query.get("error_description"));
  const connection = await deps.db.repos.ssoConnections.getWithSecret(project.id, flow.connectionId, deps.secrets);
  if (!connection) throw ssoFailed("connection_gone");
  // Only Apple is asked for form_post, and it answers no other way: a post for another flow
  // (or a GET for Apple's) is not the provider's answer to this sign-in.
  if ((mode === "form_post") !== (connection.provider === "apple"))
    throw ssoFailed(mode === "form_post" ? "not_form_post" : "form_post_only");
  // Apple's `user` field (the name, on the first authorization only) is not part of the
  // OAuth answer, and is read for Apple alone.
  const answer = new URLSearchParams(query);
  answer.delete("user");
  const newUserMetadata = connection.provider === "apple" ? appleUserMetadata(query.get("user")) : {};
  const identity = await proveIdentity(deps, connection, flow, state, answer);
  attempt.email = identity.email;
  if (flow.codeChallenge !== null) {
    const code = randomToken("gsc");
    const codeHash = hashToken(code);
    const handover = {
      ...identity,
      codeChallenge: flow.codeChallenge,
      // Apple tells the name once: the user SsoExchange makes must not lose it.
      newUserMetadataSealed:
        Object.keys(newUserMetadata).length > 0 ? deps.secrets.seal(JSON.stringify(newUserMetadata), codeHash) : null,
      expiresAt: new Date(now.getTime() + SSO_HANDOVER_TTL_SECONDS * 1000),
    };
    await deps.db.repos.ssoHandovers.create(project.id, codeHash, handover, now);
    return { redirect: handoverRedirect(flow.redirectUrl, code) };
  }
  return {
    redirect: outcomeRedirect(
      flow.redirectUrl,
      await signInWithIdentity(deps, project, identity, client, attempt, newUserMetadata),
    ),
  };
}

async function proveIdentity(
  deps: Pick<FlowDeps, "config" | "secrets" | "logger" | "sso">,
  connection: SsoConnectionWithSecret,
  flow: SsoFlow,
  state: string,
  query: URLSearchParams,
): Promise<ProvenIdentity> {
  if (!isOidcKind(connection.provider)) return proveOAuth2Identity(deps, connection, flow, query);
  const config = await deps.sso.forExchange(connection).catch((error: unknown) => {
    throw exchangeRefusal(error);
  });
  const callbackUrl = ssoCallbackUrl(deps.config.publicUrl);
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    // Checks state, PKCE, and the ID token's issuer, audience, nonce and expiry.
    // Microsoft's multi-tenant issuers are checked per tenant (microsoft.ts).
    tokens = await codeGrantFor(deps.sso, connection)(
      config,
      new URL(`${callbackUrl}?${query.toString()}`),
      {
        pkceCodeVerifier: deps.secrets.open(flow.verifierSealed, flow.id).toString("utf8"),
        expectedNonce: deps.secrets.open(flow.nonceSealed, flow.id).toString("utf8"),
        expectedState: state,
        idTokenExpected: true,
      },
      { redirect_uri: callbackUrl },
    );
    // idTokenExpected: openid-client has refused an answer without an ID token (and its claims).
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion
    await deps.sso.verifyIdTokenSignature(connection, tokens.id_token!);
  } catch (error) {
    // The provider may have changed its endpoints or keys: read them afresh next time.
    deps.sso.forget(connection.issuer);
    throw exchangeRefusal(error);
  }
  // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- idTokenExpected, above
  const claims = tokens.claims()!;
  const tenant = tenantProblem(connection, config.serverMetadata().issuer, claims);
  // Gatehouse's sentence, naming the tenant only as a tenant id (microsoft.ts).
  if (tenant) throw new SsoRefusal("tenant_not_allowed", tenant);
  // A Workspace-only Google connection: the account must be of that domain, which Google says
  // in `hd` (an address's domain alone proves nothing: consumer accounts can use any address).
  if (connection.hostedDomain && claims.hd !== connection.hostedDomain)
    throw new SsoRefusal(
      "hosted_domain_mismatch",
      `the Google account is not one of ${connection.hostedDomain}'s`,
      `hd: ${typeof claims.hd === "string" ? claims.hd.slice(0, 255) : "none"}`,
    );
  let email = typeof claims.email === "string" ? claims.email : undefined;
  let verified = isTrue(claims.email_verified) || emailDomainVerified(connection, claims);
  if (email === undefined) {
    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub).catch((error: unknown) => {
      // No address then (email_missing); why is for the log.
      deps.logger.warn({ connection_id: connection.id, reason: exchangeRefusal(error).detail }, "sso userinfo failed");
      return undefined;
    });
    email = typeof info?.email === "string" ? info.email : undefined;
    verified = isTrue(info?.email_verified);
  }
  if (email === undefined || email.trim() === "") throw refusal("email_missing");
  // An address outside the canonical-form rule (domain/email.ts) neither links nor creates a
  // user, nor signs in an identity linked before: the sign-in is refused, saying why.
  const problem = checkEmail(email);
  if (problem !== undefined)
    throw new SsoRefusal("email_not_accepted", `the identity provider's email address is not accepted: it ${problem}`);
  if (!verified && !connection.trustEmails) throw refusal("unverified_email");
  return { connectionId: connection.id, issuer: claims.iss, subject: claims.sub, email: email.trim() };
}

/**
 * The OAuth 2.0 kinds: the state was matched when the flow was found by it; the code is traded
 * with the PKCE verifier, and the user read from the provider's API (oauth2.ts). GitHub's
 * address counts only when it is the primary one and GitHub verified it, whatever trust_emails
 * says; a generic provider's as its `email_verified` field (or trust_emails) says.
 */
async function proveOAuth2Identity(
  deps: Pick<FlowDeps, "config" | "secrets" | "sso">,
  connection: SsoConnectionWithSecret,
  flow: SsoFlow,
  query: URLSearchParams,
): Promise<ProvenIdentity> {
  const code = query.get("code");
  if (!code) throw ssoFailed("no_code");
  const profile = await oauth2Profile(deps.sso.fetch, connection, {
    code,
    verifier: deps.secrets.open(flow.verifierSealed, flow.id).toString("utf8"),
    callbackUrl: ssoCallbackUrl(deps.config.publicUrl),
  });
  const email = profile.email?.trim();
  if (!email) throw refusal("email_missing");
  const problem = checkEmail(email);
  if (problem !== undefined)
    throw new SsoRefusal("email_not_accepted", `the identity provider's email address is not accepted: it ${problem}`);
  const trusted = connection.provider === "generic_oauth2" && connection.trustEmails;
  if (!profile.verified && !trusted) throw refusal("unverified_email");
  return { connectionId: connection.id, issuer: identityIssuer(connection), subject: profile.subject, email };
}

/** Some providers send `email_verified` as the string "true". */
function isTrue(value: unknown): boolean {
  return value === true || value === "true";
}
