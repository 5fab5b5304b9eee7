import { SIGNING_ALGORITHM } from "../../crypto/signing-keys.js";
import type { FlowDeps } from "../deps.js";
import { issuerOf } from "./issuer.js";

/**
 * OpenID Provider Metadata (OpenID Connect Discovery 1.0, section 3) for a provider that only
 * issues JWTs: Gatehouse signs tokens but runs no OAuth authorization or token endpoint, so the
 * document names what JWT middleware configured by issuer reads (the issuer, which must equal
 * the tokens' `iss`, the JWKS and the algorithm) and what the specification requires of every
 * provider, and nothing a client could mistake for an OAuth flow (docs/discovery.md).
 */
export interface OpenidConfiguration {
  issuer: string;
  jwks_uri: string;
  response_types_supported: string[];
  subject_types_supported: string[];
  id_token_signing_alg_values_supported: string[];
  claims_supported: string[];
}

/** The claims every access token carries (API.md sections 5 and 6). */
const CLAIMS = ["iss", "sub", "aud", "exp", "iat", "jti", "email", "project_id", "sid", "amr", "app_metadata"];

/** Undefined when no project has this login id (never existed, or deleted), as for its JWKS. */
export async function openidConfiguration(deps: FlowDeps, loginId: string): Promise<OpenidConfiguration | undefined> {
  const project = await deps.db.repos.projects.getByLoginId(loginId);
  if (!project) return undefined;
  const issuer = issuerOf(deps.config.publicUrl, project);
  return {
    issuer,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    response_types_supported: ["id_token"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: [SIGNING_ALGORITHM],
    claims_supported: CLAIMS,
  };
}
