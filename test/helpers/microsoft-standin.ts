import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { json, readBody, startStandinServer } from "./standin-server.js";

// Microsoft Entra ID's v2.0 endpoints, played by a loopback HTTP server, with what a relying
// party must handle: the multi-tenant authorities (`common`, `organizations`, `consumers`)
// publish one discovery document whose issuer is the template
// `{base}/{tenantid}/v2.0`, while each ID token's `iss` is its user's own tenant's
// (`{base}/{tid}/v2.0`) with that tenant in `tid`; a tenant's own authority (`{base}/{tid}/v2.0`)
// is a plain OpenID provider admitting its accounts only. Tokens are RS256 with a `kid`; the
// token endpoint takes the client secret in the body or as HTTP Basic, checks PKCE, and
// answers errors as AADSTS messages. No sign-in page: `authorize` signs in the user named by
// `?login=` (a test-only parameter) or `defaultLogin` and redirects at once.

export interface MicrosoftUser {
  /** The user's directory (tenant) id: a GUID. */
  tid: string;
  /** The user's object id in that tenant. */
  oid: string;
  email?: string;
  name?: string;
  preferred_username?: string;
  /** The optional claim "email domain owner verified", sent only when set. */
  xms_edov?: boolean;
}

export interface MicrosoftStandinOptions {
  /** The app registration. Default "ms-client-id" / "ms-client-secret". */
  clientId?: string;
  clientSecret?: string;
  /** The registered redirect URI; a request naming another is refused (AADSTS50011). */
  redirectUri: string;
}

export interface MicrosoftStandin {
  /** The origin, e.g. http://127.0.0.1:PORT, standing for https://login.microsoftonline.com. */
  url: string;
  /** The multi-tenant issuer a connection names: `{url}/common/v2.0`. */
  commonIssuer: string;
  /** A tenant's own issuer: `{url}/{tid}/v2.0`. */
  issuerOf(tid: string): string;
  clientId: string;
  clientSecret: string;
  defaultLogin: string;
  setUser(login: string, user: Partial<MicrosoftUser> & { tid: string }): MicrosoftUser;
  /**
   * The next ID tokens' `iss`: the user's tenant's (null, as Entra ID does), or this value,
   * signed with the real key all the same (a token of another tenant's issuer).
   */
  forgeIssuer(iss: string | null): void;
  /** Every request received, in order (method and path). */
  requests: Array<{ method: string; path: string; body: string; headers: Record<string, string> }>;
  stop(): Promise<void>;
}

const MULTI_TENANT = new Set(["common", "organizations", "consumers"]);
/** The tenant Microsoft gives personal accounts (MSA). */
export const CONSUMERS_TENANT = "9188040d-6c67-4c5b-b112-36a304b66dad";
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface IssuedCode {
  login: string;
  nonce: string | undefined;
  challenge: string | undefined;
  redirectUri: string;
  scope: string;
}

export async function startMicrosoftStandin(options: MicrosoftStandinOptions): Promise<MicrosoftStandin> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = randomBytes(12).toString("base64url");
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, use: "sig", alg: "RS256" };
  const users = new Map<string, MicrosoftUser>();
  const codes = new Map<string, IssuedCode>();
  let forgedIssuer: string | null = null;

  const { url, stop } = await startStandinServer(
    (req, res) => route(req, res),
    (res, message) => json(res, 500, { error: "server_error", error_description: message }),
  );

  const standin: MicrosoftStandin = {
    url,
    commonIssuer: `${url}/common/v2.0`,
    issuerOf: (tid) => `${url}/${tid}/v2.0`,
    clientId: options.clientId ?? "ms-client-id",
    clientSecret: options.clientSecret ?? "ms-client-secret",
    defaultLogin: "adele",
    setUser(login, user) {
      const full: MicrosoftUser = { oid: randomUUID(), ...user };
      users.set(login, full);
      return full;
    },
    forgeIssuer(iss) {
      forgedIssuer = iss;
    },
    requests: [],
    stop,
  };
  standin.setUser("adele", {
    tid: "72f988bf-86f1-41af-91ab-2d7cd011db47",
    email: "adele@contoso.example",
    name: "Adele Vance",
    preferred_username: "adele@contoso.example",
    xms_edov: true,
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = new URL(req.url ?? "/", url);
    const body = await readBody(req);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v ?? "")]));
    standin.requests.push({ method: req.method ?? "", path: target.pathname, body, headers });
    // /{authority}/v2.0/.well-known/openid-configuration, /{authority}/oauth2/v2.0/{authorize,token},
    // /{authority}/discovery/v2.0/keys
    const [, authority = "", ...rest] = target.pathname.split("/");
    if (!MULTI_TENANT.has(authority) && !GUID.test(authority))
      return json(res, 400, aadError("invalid_tenant", "AADSTS90002: Tenant not found."));
    const path = rest.join("/");
    if (req.method === "GET" && path === "v2.0/.well-known/openid-configuration")
      return json(res, 200, discovery(authority));
    if (req.method === "GET" && path === "discovery/v2.0/keys") return json(res, 200, { keys: [jwk] });
    if (req.method === "GET" && path === "oauth2/v2.0/authorize") return authorize(authority, target.searchParams, res);
    if (req.method === "POST" && path === "oauth2/v2.0/token") return token(body, headers, res);
    json(res, 404, { error: "not_found" });
  }

  function discovery(authority: string): Record<string, unknown> {
    const base = `${url}/${authority}`;
    return {
      token_endpoint: `${base}/oauth2/v2.0/token`,
      token_endpoint_auth_methods_supported: ["client_secret_post", "private_key_jwt", "client_secret_basic"],
      jwks_uri: `${base}/discovery/v2.0/keys`,
      response_modes_supported: ["query", "fragment", "form_post"],
      subject_types_supported: ["pairwise"],
      id_token_signing_alg_values_supported: ["RS256"],
      response_types_supported: ["code", "id_token", "code id_token", "id_token token"],
      scopes_supported: ["openid", "profile", "email", "offline_access"],
      // The multi-tenant authorities' issuer is a template; `consumers` is the personal
      // accounts' tenant; a tenant's is its own.
      issuer:
        authority === "consumers"
          ? `${url}/${CONSUMERS_TENANT}/v2.0`
          : MULTI_TENANT.has(authority)
            ? `${url}/{tenantid}/v2.0`
            : `${base}/v2.0`,
      request_uri_parameter_supported: false,
      userinfo_endpoint: `${url}/oidc/userinfo`,
      authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
      http_logout_supported: true,
      frontchannel_logout_supported: true,
      end_session_endpoint: `${base}/oauth2/v2.0/logout`,
      claims_supported: [
        "sub",
        "iss",
        "aud",
        "exp",
        "iat",
        "nonce",
        "name",
        "oid",
        "tid",
        "email",
        "preferred_username",
      ],
      tenant_region_scope: null,
      cloud_instance_name: "microsoftonline.com",
    };
  }

  function authorize(authority: string, query: URLSearchParams, res: ServerResponse): void {
    if (query.get("client_id") !== standin.clientId)
      return json(res, 400, aadError("unauthorized_client", "AADSTS700016: Application not found in the directory."));
    const redirectUri = query.get("redirect_uri") ?? "";
    if (redirectUri !== options.redirectUri)
      return json(res, 400, aadError("invalid_request", "AADSTS50011: The redirect URI does not match."));
    const back = (params: Record<string, string>) => {
      const location = new URL(redirectUri);
      for (const [k, v] of Object.entries(params)) location.searchParams.set(k, v);
      const state = query.get("state");
      if (state !== null) location.searchParams.set("state", state);
      res.writeHead(302, { location: location.toString() }).end();
    };
    if (query.get("response_type") !== "code")
      return back({ error: "unsupported_response_type", error_description: "AADSTS700054" });
    const login = query.get("login") ?? standin.defaultLogin;
    const user = users.get(login);
    if (!user) return json(res, 400, { error: `the stand-in has no user ${login}` });
    // A tenant's own authority admits its accounts only (AADSTS50020); `consumers` personal ones.
    const admitted =
      authority === "common" ||
      (authority === "organizations" && user.tid !== CONSUMERS_TENANT) ||
      (authority === "consumers" && user.tid === CONSUMERS_TENANT) ||
      authority === user.tid;
    if (!admitted)
      return back({
        error: "access_denied",
        error_description: "AADSTS50020: User account from identity provider does not exist in tenant.",
      });
    const challenge = query.get("code_challenge") ?? undefined;
    if (challenge !== undefined && query.get("code_challenge_method") !== "S256")
      return back({ error: "invalid_request", error_description: "AADSTS501491: Invalid code_challenge_method." });
    const code = randomBytes(24).toString("base64url");
    codes.set(code, {
      login,
      nonce: query.get("nonce") ?? undefined,
      challenge,
      redirectUri,
      scope: query.get("scope") ?? "",
    });
    back({ code, session_state: randomUUID() });
  }

  async function token(raw: string, headers: Record<string, string>, res: ServerResponse): Promise<void> {
    const params = new URLSearchParams(raw);
    const basic = /^Basic\s+(.+)$/i.exec(headers.authorization ?? "")?.[1];
    if (basic) {
      const pair = Buffer.from(basic, "base64").toString("utf8");
      const colon = pair.indexOf(":");
      params.set("client_id", decodeURIComponent(pair.slice(0, colon)));
      params.set("client_secret", decodeURIComponent(pair.slice(colon + 1)));
    }
    if (params.get("client_id") !== standin.clientId || params.get("client_secret") !== standin.clientSecret)
      return json(
        res,
        401,
        aadError(
          "invalid_client",
          "AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value.",
        ),
      );
    const code = params.get("code") ?? "";
    const issued = codes.get(code);
    codes.delete(code);
    if (params.get("grant_type") !== "authorization_code" || !issued)
      return json(res, 400, aadError("invalid_grant", "AADSTS70000: The provided authorization code is invalid."));
    if (params.get("redirect_uri") !== issued.redirectUri)
      return json(res, 400, aadError("invalid_grant", "AADSTS50011: The redirect URI does not match."));
    if (issued.challenge !== undefined) {
      const verifier = params.get("code_verifier") ?? "";
      if (createHash("sha256").update(verifier).digest("base64url") !== issued.challenge)
        return json(res, 400, aadError("invalid_grant", "AADSTS501481: The Code_Verifier does not match."));
    }
    const user = users.get(issued.login)!;
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = {
      ver: "2.0",
      tid: user.tid,
      oid: user.oid,
      // Entra ID's `sub` is pairwise: per user and application.
      sub: createHash("sha256").update(`${user.oid}:${standin.clientId}`).digest("base64url").slice(0, 43),
      nbf: now,
      ...(issued.nonce !== undefined ? { nonce: issued.nonce } : {}),
      ...(user.name !== undefined ? { name: user.name } : {}),
      ...(user.preferred_username !== undefined ? { preferred_username: user.preferred_username } : {}),
      ...(user.email !== undefined ? { email: user.email } : {}),
      ...(user.xms_edov !== undefined ? { xms_edov: user.xms_edov } : {}),
    };
    const idToken = await new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", kid, typ: "JWT" })
      .setIssuer(forgedIssuer ?? standin.issuerOf(user.tid))
      .setAudience(standin.clientId)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(privateKey);
    json(res, 200, {
      token_type: "Bearer",
      scope: issued.scope,
      expires_in: 3600,
      ext_expires_in: 3600,
      access_token: randomBytes(32).toString("base64url"),
      id_token: idToken,
    });
  }

  return standin;
}

function aadError(error: string, description: string): Record<string, unknown> {
  return {
    error,
    error_description: `${description} Trace ID: ${randomUUID()} Correlation ID: ${randomUUID()} Timestamp: ${new Date().toISOString()}`,
    error_codes: [Number(/AADSTS(\d+)/.exec(description)?.[1] ?? 0)],
    timestamp: new Date().toISOString().replace("T", " ").slice(0, 19) + "Z",
    trace_id: randomUUID(),
    correlation_id: randomUUID(),
  };
}
