import type { IncomingMessage, ServerResponse } from "node:http";
import type { InteractionDetails, Provider } from "oidc-provider";
import type { Project } from "../../domain/account.js";
import { DomainError } from "../../domain/errors.js";
import type { StoredOAuthClient } from "../../domain/oauth-clients.js";
import type { ClientInfo } from "../../domain/auth.js";
import type { FlowDeps } from "../deps.js";
import { checkAccessToken } from "../auth/verify-access-token.js";

// Login and consent for the engine, through the hosted pages (docs/openid-provider.md): the
// engine sends the browser to the interaction URL, which sends it on to the sign-in page or the
// consent page; those pages report back here with the user's access token or their choice.

/** One request to an interaction endpoint: the project's engine, and the browser's request. */
export interface InteractionCall {
  deps: FlowDeps;
  engine: Provider;
  project: Project;
  req: IncomingMessage;
  res: ServerResponse;
  /** The interaction the path names. */
  uid: string;
  /** The browser's address and user agent, for the audit log. */
  from: ClientInfo;
}

/** What the consent and sign-in pages show of a pending authorization. */
export interface InteractionView {
  prompt: "login" | "consent";
  client: { client_id: string; name: string; logo_uri: string; first_party: boolean };
  scopes: string[];
  login_hint: string;
}

const expired = () =>
  new DomainError(
    "AUTHORIZATION_REQUEST_EXPIRED",
    "this sign-in request has expired or was already answered: go back to the application and start again",
  );

async function pending({ engine, req, res, uid }: InteractionCall): Promise<InteractionDetails> {
  let details: InteractionDetails;
  try {
    details = await engine.interactionDetails(req, res);
  } catch {
    throw expired();
  }
  // The cookie names the interaction; the path must name the same one.
  if (details.uid !== uid) throw expired();
  return details;
}

async function clientOf(
  deps: Pick<FlowDeps, "db">,
  project: Project,
  details: InteractionDetails,
): Promise<StoredOAuthClient> {
  const client = await deps.db.repos.oauthClients.findForProvider(project.id, details.params.client_id);
  if (!client) throw new DomainError("OAUTH_CLIENT_NOT_FOUND", "the application is no longer registered");
  return client;
}

/** The scopes asked for that the client may have, in the order asked. */
function requestedScopes(details: InteractionDetails, client: StoredOAuthClient): string[] {
  const asked = typeof details.params.scope === "string" ? details.params.scope.split(" ") : [];
  return [...new Set(asked.filter((s) => (client.scopes as string[]).includes(s)))];
}

/**
 * GET …/oauth/interaction/{uid}: where the browser goes next. Sign-in first; then consent,
 * which a first-party client, or a user who already consented to these scopes (unless the
 * client asks with prompt=consent), passes at once.
 */
export async function nextStep(call: InteractionCall): Promise<string> {
  const { deps, project, uid } = call;
  const details = await pending(call);
  const pages = `/v1/auth/${project.loginId}`;
  // The application's preferred languages (OpenID Connect ui_locales) choose the pages' words.
  const locales =
    typeof details.params.ui_locales === "string" ? `&ui_locales=${encodeURIComponent(details.params.ui_locales)}` : "";
  if (details.prompt.name === "login") {
    const hint =
      typeof details.params.login_hint === "string"
        ? `&login_hint=${encodeURIComponent(details.params.login_hint)}`
        : "";
    return `${pages}/login?oauth=${encodeURIComponent(uid)}${hint}${locales}`;
  }
  if (details.prompt.name !== "consent" || !details.session) throw expired();
  const client = await clientOf(deps, project, details);
  const scopes = requestedScopes(details, client);
  const consent = await deps.db.repos.oauthConsents.get(project.id, details.session.accountId, client.id);
  const remembered = consent !== undefined && consent !== null && scopes.every((s) => consent.scopes.includes(s));
  // prompt=consent asks for the page even when the consent is remembered (OpenID Connect Core 3.1.2.1).
  const asked = typeof details.params.prompt === "string" && details.params.prompt.split(" ").includes("consent");
  if (client.firstParty || (remembered && !asked)) return grantAndResume(call, details, client, scopes);
  return `${pages}/consent?oauth=${encodeURIComponent(uid)}${locales}`;
}

/** GET …/interaction/{uid}/details: what the pages show. */
export async function describe(call: InteractionCall): Promise<InteractionView> {
  const { deps, project } = call;
  const details = await pending(call);
  const client = await clientOf(deps, project, details);
  return {
    prompt: details.prompt.name === "login" ? "login" : "consent",
    client: { client_id: client.id, name: client.name, logo_uri: client.logoUri, first_party: client.firstParty },
    scopes: requestedScopes(details, client),
    login_hint: typeof details.params.login_hint === "string" ? details.params.login_hint : "",
  };
}

/**
 * POST …/interaction/{uid}/login `{access_token}`: the user signed in on the hosted pages (with
 * MFA when the project or the user asks for it). The engine's session is bound to that Gatehouse
 * session: its codes and tokens end when the session does.
 */
export async function finishLogin(call: InteractionCall, accessToken: unknown): Promise<string> {
  const { deps, engine, project, req, res } = call;
  const details = await pending(call);
  if (details.prompt.name !== "login") throw expired();
  const verified = typeof accessToken === "string" ? await checkAccessToken(deps, project, accessToken) : undefined;
  if (!verified) throw new DomainError("INVALID_ACCESS_TOKEN", "the access token is not valid for this project");
  const login = {
    accountId: verified.userId,
    amr: verified.claims.amr,
    ts: verified.claims.iat,
    remember: true,
    gatehouseSessionId: verified.sessionId,
  };
  return engine.interactionResult(req, res, { login }, { mergeWithLastSubmission: false });
}

/** POST …/interaction/{uid}/consent `{approve}`: the user allowed or denied the application. */
export async function finishConsent(call: InteractionCall, approve: unknown): Promise<string> {
  const { deps, engine, project, req, res } = call;
  const details = await pending(call);
  if (details.prompt.name !== "consent" || !details.session) throw expired();
  if (approve !== true) {
    return engine.interactionResult(
      req,
      res,
      { error: "access_denied", error_description: "the user denied the request" },
      { mergeWithLastSubmission: false },
    );
  }
  const client = await clientOf(deps, project, details);
  return grantAndResume(call, details, client, requestedScopes(details, client));
}

/** Records the consent (remembered per user and client) and hands the engine its grant. */
async function grantAndResume(
  { deps, engine, project, req, res, from }: InteractionCall,
  details: InteractionDetails,
  client: StoredOAuthClient,
  scopes: string[],
): Promise<string> {
  // Both callers have refused an interaction without a session (expired()).
  // eslint-disable-next-line @typescript-eslint/no-non-null-assertion
  const accountId = details.session!.accountId;
  const grant =
    (details.grantId && (await engine.Grant.find(details.grantId))) ||
    new engine.Grant({ accountId, clientId: client.id });
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, resourceScopes] of Object.entries(missing.missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, resourceScopes.join(" "));
  const grantId = await grant.save();
  const now = deps.clock.now();
  const consent = await deps.db.repos.oauthConsents.grant(project.id, accountId, client.id, scopes, now);
  // A new consent, or one that grew: the audit log says who allowed what, and when.
  if (consent.updatedAt.getTime() === now.getTime())
    await deps.db.repos.auditEvents.record({
      type: "user.authorized_app.granted",
      organizationId: project.organizationId,
      projectId: project.id,
      userId: accountId,
      targetId: client.id,
      origin: { actor: { type: "user", id: accountId }, ip: from.ipAddress, userAgent: from.userAgent },
      details: { scopes: consent.scopes, first_party: client.firstParty },
    });
  return engine.interactionResult(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}
