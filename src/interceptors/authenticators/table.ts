import { Credential } from "../../../gen/gatehouse/options/v1/options_pb.js";
import type { Clock } from "../../domain/clock.js";
import type { Repositories } from "../../store/repositories/index.js";
import { apiKeyAuthenticator, type ApiKeyDeps } from "./api-key.js";
import type { Authenticator } from "./authenticator.js";
import { consoleAuthenticator } from "./console.js";
import { managementTokenAuthenticator } from "./management-token.js";
import { operatorAuthenticator } from "./operator.js";
import { pageAuthenticator, type PageCredentialDeps } from "./page.js";
import { publicAuthenticator } from "./public.js";
import type { UserTokenVerifier } from "./user-token.js";

export interface CredentialDeps {
  repos: Pick<Repositories, "managementTokens" | "projects">;
  apiKeys: ApiKeyDeps["apiKeys"];
  clock: Clock;
  userTokens: UserTokenVerifier;
  /** Browser origins allowed to call the Account interface (the dashboard's). */
  accountOrigins: string[];
  /** The hosted pages' credential: their project by login_id, and their origin. */
  pages: PageCredentialDeps;
}

/** What an RPC that declares one credential kind accepts. */
export interface CredentialRow {
  /** In precedence order: the first whose credential the request presents authenticates it. */
  accepted: readonly Authenticator[];
  /** With none of them presented: refuses the missing credential, or lets a public call through. */
  otherwise: Authenticator;
}

/**
 * The credential kind each RPC declares (`(gatehouse.options.v1.access).credential`) → the
 * authenticators that may answer for it. A new kind of credential is a file beside this one and
 * its place in the rows that accept it; a new declared kind is a row. A kind with no row
 * (CREDENTIAL_UNSPECIFIED, a forgotten annotation) fails closed in the interceptor.
 */
export function credentialTable(deps: CredentialDeps): ReadonlyMap<Credential, CredentialRow> {
  const consoleOrigins = deps.accountOrigins;
  const { managementTokens } = deps.repos;
  const publicCaller = publicAuthenticator({ consoleOrigins });
  const managementToken = managementTokenAuthenticator({ managementTokens, clock: deps.clock, consoleOrigins });
  const apiKey = apiKeyAuthenticator(deps);
  const project: CredentialRow = {
    // An API key outranks the console's and the pages' headers, and the console's the pages'.
    accepted: [
      apiKey,
      consoleAuthenticator({ projects: deps.repos.projects, consoleOrigins, managementTokens, clock: deps.clock }),
      pageAuthenticator({ ...deps.pages, userTokens: deps.userTokens }),
    ],
    otherwise: apiKey,
  };
  const rows = new Map<Credential, CredentialRow>([
    // An Authorization header on a public RPC is not read: nothing there acts as anybody.
    [Credential.NONE, { accepted: [], otherwise: publicCaller }],
    [Credential.MANAGEMENT_TOKEN, { accepted: [managementToken], otherwise: managementToken }],
    // Without the header the request names its member by an mfa_token (the handler refuses it
    // with neither); a header that is present is never ignored.
    [Credential.OPTIONAL_MANAGEMENT_TOKEN, { accepted: [managementToken], otherwise: publicCaller }],
    [Credential.API_KEY, project],
    [Credential.API_KEY_AND_USER_TOKEN, project],
    [Credential.API_KEY_OPTIONAL_USER_TOKEN, project],
  ]);
  // The CLI's operator goes first everywhere, so it is never read as any other kind of caller.
  for (const [kind, row] of rows) rows.set(kind, { ...row, accepted: [operatorAuthenticator, ...row.accepted] });
  return rows;
}
