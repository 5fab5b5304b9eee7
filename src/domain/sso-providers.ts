import { checkIssuer, type ClaimMapping, type OAuth2Endpoints, type SsoConnection, type SsoProvider } from "./sso.js";
import type { Violation } from "./errors.js";

// The presets of SSO connections (issue 29): what each kind of provider needs, and what it gets
// by default. GitHub is OAuth 2.0 without OpenID Connect: no issuer, no ID token; the user comes
// from its API (docs/sso-providers.md).

/** GitHub.com's endpoints; GitHub Enterprise Server's are given on the connection. */
export const GITHUB_ENDPOINTS: OAuth2Endpoints = {
  authorizationUrl: "https://github.com/login/oauth/authorize",
  tokenUrl: "https://github.com/login/oauth/access_token",
  userinfoUrl: "https://api.github.com/user",
};

/** What a GitHub sign-in asks for: the profile and the addresses with their verification. */
export const GITHUB_SCOPES = ["read:user", "user:email"];

/** What a connection is made of, as the Account interface gives it. */
export interface PresetInput {
  provider: SsoProvider;
  issuer: string;
  endpoints: OAuth2Endpoints;
  scopes: string[];
  claimMapping: ClaimMapping;
}

/**
 * The connection's settings with its kind's defaults applied, or the violations: `oidc` needs an
 * issuer and no endpoints; `github` no issuer, GitHub's endpoints unless all three are given
 * (GitHub Enterprise); `generic_oauth2` no issuer and all three endpoints. Every URL is https,
 * or http on a loopback host.
 */
export function resolvePreset(input: PresetInput): { settings: PresetInput } | { violations: Violation[] } {
  const violations: Violation[] = [];
  const given = Object.entries(input.endpoints).filter(([, url]) => url !== "");
  const field = { authorizationUrl: "authorization_url", tokenUrl: "token_url", userinfoUrl: "userinfo_url" } as const;
  for (const [key, url] of given) {
    const problem = checkIssuer(url);
    if (problem) violations.push({ field: field[key as keyof OAuth2Endpoints], description: problem });
  }
  if (input.provider === "oidc") {
    if (input.issuer === "") violations.push({ field: "issuer", description: "is required for an oidc provider" });
    else {
      const problem = checkIssuer(input.issuer);
      if (problem) violations.push({ field: "issuer", description: problem });
    }
    for (const [key] of given)
      violations.push({
        field: field[key as keyof OAuth2Endpoints],
        description: "is read from the issuer's discovery for oidc",
      });
  } else if (input.issuer !== "") {
    violations.push({ field: "issuer", description: `is not used by ${input.provider}: give its endpoints instead` });
  }
  if (input.provider !== "generic_oauth2" && Object.keys(input.claimMapping).length > 0)
    violations.push({ field: "claim_mapping", description: "is for generic_oauth2 only" });
  let endpoints = input.endpoints;
  if (input.provider === "github" && given.length === 0) endpoints = GITHUB_ENDPOINTS;
  else if (input.provider !== "oidc" && given.length < 3) {
    for (const key of Object.keys(field) as Array<keyof OAuth2Endpoints>)
      if (input.endpoints[key] === "")
        violations.push({
          field: field[key],
          description:
            input.provider === "github"
              ? "is required when another GitHub endpoint is given (GitHub Enterprise: give all three)"
              : "is required for generic_oauth2",
        });
  }
  if (violations.length > 0) return { violations };
  const scopes = input.provider === "github" && input.scopes.length === 0 ? GITHUB_SCOPES : input.scopes;
  return { settings: { ...input, endpoints, scopes } };
}

/**
 * The namespace of a connection's subjects, kept with each linked identity: the issuer for
 * OpenID Connect; for the OAuth 2.0 kinds, the origin that signs users in (GitHub's or the
 * Enterprise server's), so the same account reached by two connections is one identity.
 */
export function identityIssuer(connection: Pick<SsoConnection, "provider" | "issuer" | "endpoints">): string {
  if (connection.provider === "oidc") return connection.issuer;
  return new URL(connection.endpoints.authorizationUrl).origin;
}
