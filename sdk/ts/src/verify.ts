import { createRemoteJWKSet, customFetch, jwtVerify, type JWTPayload } from "jose";

/** The claims of a Gatehouse access token (API.md section 5). */
export interface AccessTokenClaims extends JWTPayload {
  sub: string;
  email: string;
  sid: string;
  project_id: string;
  amr: string[];
  app_metadata?: Record<string, unknown>;
}

export interface VerifierOptions {
  /** Gatehouse's public URL (its PUBLIC_URL), e.g. https://auth.example.com. */
  baseUrl: string;
  /** The project's public login id (lp_…): names its issuer and its JWKS. */
  loginId: string;
  /** The project's id: the tokens' audience. */
  projectId: string;
  /**
   * The tokens' `iss`, when Gatehouse is reached at another address than its PUBLIC_URL (a
   * private network name); default `{baseUrl}/v1/auth/{loginId}`.
   */
  issuer?: string;
  /** For tests and proxies: how the key set is fetched. */
  fetch?: typeof globalThis.fetch;
  /**
   * After a fetch, a token naming an unknown key waits this long before the key set is fetched
   * again (it is refused meanwhile), so tokens with made-up key ids cannot make this process
   * flood Gatehouse. Default 5 s: a rotation's first tokens may be refused for that long.
   */
  refetchCooldownMs?: number;
}

/**
 * Checks access tokens offline against the project's published keys, as a backend that must
 * not call Gatehouse on every request does. The key set is fetched once and kept; a token
 * signed with a key it does not know (after a rotation) fetches it again, at most once per
 * `refetchCooldownMs` (jose's remote key set). Answers the claims, or rejects for a bad signature, another
 * issuer or audience, or an expired token. Revocation is not visible offline: call
 * VerifyToken where a revoked session must be refused at once.
 */
export function createAccessTokenVerifier(options: VerifierOptions): (token: string) => Promise<AccessTokenClaims> {
  const base = options.baseUrl.replace(/\/+$/, "");
  const issuer = options.issuer ?? `${base}/v1/auth/${options.loginId}`;
  const keys = createRemoteJWKSet(new URL(`${base}/v1/auth/${options.loginId}/.well-known/jwks.json`), {
    cooldownDuration: options.refetchCooldownMs ?? 5_000,
    ...(options.fetch ? { [customFetch]: options.fetch } : {}),
  });
  return async (token) => {
    const { payload } = await jwtVerify(token, keys, { issuer, audience: options.projectId, algorithms: ["ES256"] });
    return payload as AccessTokenClaims;
  };
}
