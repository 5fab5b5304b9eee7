import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { json, readBody, startStandinServer } from "./standin-server.js";

// A plain OpenID provider on loopback whose discovery document may name any URL for its keys,
// token and userinfo endpoints: what a provider chosen by a project member could publish to
// make Gatehouse call somewhere else (test/auth/sso-ssrf.test.ts). No sign-in page: `authorize`
// signs in one fixed user and redirects at once. `/redirect?to=…` answers a 302 to any URL, for
// a provider that sends the server's request elsewhere. ID tokens are RS256, carry the
// authorization request's nonce, and verify against `/jwks`.

export interface OidcStandin {
  /** `http://{hostname}:{port}`, the issuer. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Replaces URLs of the discovery document from now on (jwks_uri, token_endpoint, userinfo_endpoint). */
  point(overrides: Partial<Record<"jwks_uri" | "token_endpoint" | "userinfo_endpoint", string>>): void;
  /** Makes the discovery document itself a redirect to `to` (null: serve it). */
  redirectDiscovery(to: string | null): void;
  /** `${issuer}/redirect?to=…`. */
  redirectTo(to: string): string;
  /** Requests received, by path. */
  requests: string[];
  stop(): Promise<void>;
}

export async function startOidcStandin(options: { hostname?: string; redirectUri: string }): Promise<OidcStandin> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = randomBytes(8).toString("hex");
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" };
  const codes = new Map<string, { nonce: string }>();
  let overrides: Record<string, string> = {};
  let discoveryRedirect: string | null = null;
  const server = await startStandinServer((req, res) => route(req, res));
  const issuer = server.url.replace("127.0.0.1", options.hostname ?? "127.0.0.1");
  const standin: OidcStandin = {
    issuer,
    clientId: "standin-client",
    clientSecret: randomBytes(16).toString("hex"),
    point(given) {
      overrides = { ...overrides, ...given };
    },
    redirectDiscovery(to) {
      discoveryRedirect = to;
    },
    redirectTo: (to) => `${issuer}/redirect?${new URLSearchParams({ to }).toString()}`,
    requests: [],
    stop: server.stop,
  };

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = new URL(req.url ?? "/", issuer);
    standin.requests.push(target.pathname);
    const body = await readBody(req);
    if (target.pathname === "/redirect") {
      res.writeHead(302, { location: target.searchParams.get("to") ?? "/" }).end();
      return;
    }
    if (target.pathname === "/.well-known/openid-configuration") {
      if (discoveryRedirect !== null) {
        res.writeHead(302, { location: discoveryRedirect }).end();
        return;
      }
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        userinfo_endpoint: `${issuer}/userinfo`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        token_endpoint_auth_methods_supported: ["client_secret_basic"],
        ...overrides,
      });
    }
    if (target.pathname === "/authorize") {
      const code = randomBytes(12).toString("hex");
      codes.set(code, { nonce: target.searchParams.get("nonce") ?? "" });
      const back = new URL(options.redirectUri);
      back.searchParams.set("code", code);
      back.searchParams.set("state", target.searchParams.get("state") ?? "");
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (target.pathname === "/jwks") return json(res, 200, { keys: [jwk] });
    if (target.pathname === "/userinfo")
      return json(res, 200, { sub: "standin-user", email: "standin-user@example.com", email_verified: true });
    if (target.pathname === "/token") {
      // The client's credentials and PKCE are not what these tests are about: the code is.
      const issued = codes.get(new URLSearchParams(body).get("code") ?? "");
      if (!issued) return json(res, 400, { error: "invalid_grant" });
      const now = Math.floor(Date.now() / 1000);
      // No email in the ID token: Gatehouse asks userinfo for it.
      const idToken = await new SignJWT({ nonce: issued.nonce })
        .setProtectedHeader({ alg: "RS256", kid })
        .setIssuer(issuer)
        .setAudience(standin.clientId)
        .setSubject("standin-user")
        .setIssuedAt(now)
        .setExpirationTime(now + 600)
        .sign(privateKey);
      return json(res, 200, {
        access_token: "standin-token",
        token_type: "Bearer",
        expires_in: 600,
        id_token: idToken,
      });
    }
    json(res, 404, { error: "not_found" });
  }
  return standin;
}
