import type { Provider } from "oidc-provider";
import type { Project } from "../../domain/account.js";
import { SHIPPED_LANGUAGES } from "../../i18n/languages.js";
import type { FlowDeps } from "../deps.js";
import { issuerOf } from "../auth/issuer.js";
import { findAccount } from "./accounts.js";
import { projectAdapter } from "./adapter.js";
import { SCOPE_CLAIMS } from "./claims.js";
import { ALLOW_MISSING_PKCE, pkceRequired } from "./clients.js";
import type { EngineModule } from "./engine-module.js";
import { engineHtml } from "./engine-pages.js";
import { resourceOf } from "./resource.js";
import { userCodeLookup } from "./user-codes.js";

/** Where the engine's endpoints live below the issuer (`{PUBLIC_URL}/v1/auth/{login_id}`). */
export const ENGINE_ROUTES = {
  authorization: "/oauth/authorize",
  token: "/oauth/token",
  end_session: "/oauth/logout",
  introspection: "/oauth/introspect",
  revocation: "/oauth/revoke",
  device_authorization: "/oauth/device/auth",
  code_verification: "/oauth/device",
  pushed_authorization_request: "/oauth/par",
  // Served by Gatehouse's own route (routes/jwks.ts), which keeps retired keys until
  // their last token expires; named here so the discovery document points at it.
  jwks: "/.well-known/jwks.json",
  // Unused features, kept under the engine's prefix.
  registration: "/oauth/register",
  backchannel_authentication: "/oauth/backchannel",
  challenge: "/oauth/challenge",
  credential: "/oauth/credential",
} as const;

/** The client calling introspection or revocation, as the engine describes it. */
interface CallerClient {
  clientId: string;
  clientAuthMethod: string;
}

/** The private half of the project's active signing key, as the engine's JWKS takes it. */
export interface EngineKey {
  kid: string;
  privateJwk: Record<string, unknown>;
}

/**
 * The OpenID Provider of one project: panva's oidc-provider with Gatehouse's storage, users,
 * clients and signing key. Authorization code (PKCE S256 required of every client but a
 * confidential one given the legacy exception), refresh tokens rotated at each use, client
 * credentials and the device grant (its user codes typed under limits, user-codes.ts); ID
 * tokens and access tokens are ES256 JWTs under the project's key, access tokens with `aud` =
 * the client id. Login and consent happen on the hosted pages (flows/oidc/interactions.ts).
 */
export function createEngine(
  lib: EngineModule,
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "logger" | "codes" | "limits">,
  project: Project,
  key: EngineKey,
): Provider {
  const { Provider } = lib;
  const issuer = issuerOf(deps.config.publicUrl, project);
  const base = `/v1/auth/${project.loginId}`;
  const secure = deps.config.publicUrl.startsWith("https:");
  const repos = () => deps.db.repos;
  const cookie = { httpOnly: true, sameSite: "lax", secure, signed: true, path: `${base}/oauth` };
  const provider = new Provider(issuer, {
    adapter: projectAdapter(repos, deps.clock, project.id, () => Provider.ctx, userCodeLookup(deps, project.id)),
    findAccount: findAccount(repos, project.id),
    jwks: { keys: [{ ...key.privateJwk, kid: key.kid, alg: "ES256", use: "sig" }] },
    routes: ENGINE_ROUTES,
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `${base}/oauth/interaction/${interaction.uid}`,
    },
    cookies: {
      names: {
        session: "_gatehouse_op_session",
        interaction: "_gatehouse_op_interaction",
        resume: "_gatehouse_op_resume",
      },
      long: cookie,
      short: cookie,
      keys: [deps.codes.hmac("openid provider cookies", project.id)],
    },
    // Every ID token says how the user signed in (amr, RFC 8176); the rest goes by scope.
    claims: { acr: null, auth_time: null, sid: null, iss: null, ...SCOPE_CLAIMS, openid: ["sub", "amr"] },
    scopes: ["openid", "offline_access", "email", "profile", "app_metadata"],
    responseTypes: ["code"],
    clientAuthMethods: ["client_secret_basic", "client_secret_post", "none"],
    extraClientMetadata: { properties: [ALLOW_MISSING_PKCE] },
    pkce: { required: (_ctx: unknown, client: Parameters<typeof pkceRequired>[0]) => pkceRequired(client) },
    enabledJWA: { idTokenSigningAlgValues: ["ES256"] },
    clientDefaults: {
      id_token_signed_response_alg: "ES256",
      grant_types: ["authorization_code"],
      response_types: ["code"],
    },
    // No userinfo in the engine: it answers only opaque tokens, and Gatehouse issues JWTs, so
    // the ID token carries the scopes' claims and Gatehouse serves userinfo itself (userinfo.ts).
    conformIdTokenClaims: false,
    // The hosted pages speak these; an authorization's ui_locales picks among them (interactions.ts).
    discovery: { userinfo_endpoint: `${issuer}/oauth/userinfo`, ui_locales_supported: [...SHIPPED_LANGUAGES] },
    features: engineFeatures(lib, deps.config, project),
    extraTokenClaims: async (_ctx: unknown, token: { accountId?: string; sessionUid?: string; grantId?: string }) => {
      if (!token.accountId) return { project_id: project.id };
      const sid = await deps.db.repos.oidcPayloads.boundSession(
        project.id,
        token.sessionUid ?? null,
        token.grantId ?? null,
      );
      // The grant, so that VerifyToken and userinfo refuse the token once the grant is gone (a
      // replayed code, a revoked refresh token, a withdrawn consent) even before it expires.
      return { project_id: project.id, grant_id: token.grantId, ...(sid ? { sid } : {}) };
    },
    // Every refresh token is used once, as Gatehouse's own are.
    rotateRefreshToken: () => true,
    ttl: engineLifetimes(project),
    renderError: engineHtml.error,
  });
  // Endpoint URLs come from PUBLIC_URL, which the route puts in the forwarded headers it sets.
  provider.proxy = true;
  // The engine answers its own failures (server_error); the operator reads why in the log.
  provider.on("server_error", (_ctx: unknown, error: unknown) =>
    deps.logger.error({ err: error, project_id: project.id }, "openid provider failed"),
  );
  return provider;
}

/**
 * What the engine does beyond the code flow: introspection and revocation for the client's own
 * tokens, client credentials, logout, the device grant, resource indicators (a client's API is
 * its own audience) and PAR and DPoP as the operator configured them.
 */
function engineFeatures(lib: EngineModule, config: FlowDeps["config"], project: Project) {
  const { errors } = lib;
  return {
    devInteractions: { enabled: false },
    userinfo: { enabled: false },
    // A client learns about, and ends, only tokens issued to itself; introspection is for
    // confidential clients (a public client could be anyone holding its id).
    introspection: {
      enabled: true,
      allowedPolicy: async (_ctx: unknown, client: CallerClient, token: { clientId?: string }) =>
        client.clientAuthMethod !== "none" && token.clientId === client.clientId,
    },
    revocation: {
      enabled: true,
      allowedPolicy: async (_ctx: unknown, client: CallerClient, token: { clientId?: string }) =>
        token.clientId === client.clientId,
    },
    clientCredentials: { enabled: true },
    rpInitiatedLogout: {
      enabled: true,
      logoutSource: engineHtml.logout,
      postLogoutSuccessSource: engineHtml.loggedOut,
    },
    deviceFlow: {
      enabled: true,
      userCodeInputSource: engineHtml.deviceCodeInput,
      userCodeConfirmSource: engineHtml.deviceCodeConfirm,
      successSource: engineHtml.deviceDone,
    },
    resourceIndicators: {
      enabled: true,
      defaultResource: async (_ctx: unknown, client: { clientId: string }, oneOf?: string[]) =>
        oneOf ?? resourceOf(client.clientId),
      useGrantedResource: async () => true,
      getResourceServerInfo: async (_ctx: unknown, indicator: string, client: { clientId: string; scope?: string }) => {
        if (indicator !== resourceOf(client.clientId)) throw new errors.InvalidTarget();
        return {
          scope: client.scope ?? "",
          audience: client.clientId,
          accessTokenTTL: project.tokenExpiry,
          accessTokenFormat: "jwt",
          jwt: { sign: { alg: "ES256" } },
        };
      },
    },
    pushedAuthorizationRequests: {
      enabled: config.oidcPar !== "off",
      requirePushedAuthorizationRequests: config.oidcPar === "required",
    },
    dPoP: { enabled: config.oidcDpop },
  };
}

/** How long each of the engine's artefacts lives, in seconds: tokens follow the project's expiries. */
function engineLifetimes(project: Project) {
  return {
    AccessToken: project.tokenExpiry,
    ClientCredentials: project.tokenExpiry,
    IdToken: project.tokenExpiry,
    AuthorizationCode: 60,
    DeviceCode: 600,
    Interaction: 3600,
    Grant: project.refreshTokenExpiry,
    Session: project.refreshTokenExpiry,
    RefreshToken: project.refreshTokenExpiry,
  };
}
