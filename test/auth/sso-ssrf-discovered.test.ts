import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../helpers/clients.js";
import { startInternalService, type InternalService } from "../helpers/internal-service-standin.js";
import { startOidcStandin, type OidcStandin } from "../helpers/oidc-standin.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import { expectReason } from "./mfa-helpers.js";
import { expectFragmentError, expectTokens } from "./sso-checks.js";
import { CALLBACK_URL, useSsoWorld } from "./sso-helpers.js";
import { privateSpellings } from "./sso-ssrf-spellings.js";

// Threat (issue 46): the URLs a provider publishes are the provider's to choose, so a provider
// that a project member controls can name the service's own network in its discovery document
// (jwks_uri, token_endpoint, userinfo_endpoint) or answer a redirect into it. Here the server
// admits the provider by name only (OUTBOUND_ALLOW_HOSTS=localhost, the stand-in answering at
// http://localhost:PORT), and every URL the provider names is judged by the outbound rules on
// its own: the internal service on 127.0.0.1 (and ::1) never sees a connection.

const world = useSsoWorld({ env: { OUTBOUND_ALLOW_HOSTS: "localhost" } });
const { ctx } = world;
let internal: InternalService;
let standin: OidcStandin;
let app: AuthFixture;
let connection: string;
let refused = 0;

/** Longer than the providers' metadata cache (providers.ts), so each case reads discovery afresh. */
const PAST_METADATA_TTL_MS = 11 * 60_000;
const UNREACHABLE = "the identity provider could not be reached, or its answer could not be read";

beforeAll(async () => {
  internal = await startInternalService();
  standin = await startOidcStandin({ hostname: "localhost", redirectUri: CALLBACK_URL });
  app = await authFixture(ctx.server);
  const created = await http(`${ctx.server.url}/v1/projects/${app.projectId}/sso-connections`, {
    headers: await app.admin(),
    body: {
      name: "Stand-in",
      issuer: standin.issuer,
      client_id: standin.clientId,
      client_secret: standin.clientSecret,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  connection = created.body.id;
});
afterAll(async () => {
  await standin?.stop();
  await internal?.stop();
  console.info(`sso-ssrf-discovered: ${refused} SSRF spellings refused`);
});

/** A sign-in after the provider changed its discovery document (read afresh). */
async function signInAfter(change: () => void) {
  standin.point({
    jwks_uri: `${standin.issuer}/jwks`,
    token_endpoint: `${standin.issuer}/token`,
    userinfo_endpoint: `${standin.issuer}/userinfo`,
  });
  standin.redirectDiscovery(null);
  change();
  ctx.clock.advance(PAST_METADATA_TTL_MS);
  return (await world.signInAt(app, connection, "anyone")).answer;
}

describe("URLs a provider's discovery document names", () => {
  it("the provider itself, admitted by OUTBOUND_ALLOW_HOSTS by name, signs a user in", async () => {
    expectTokens(await signInAfter(() => {}));
  });

  it("jwks_uri, token_endpoint and userinfo_endpoint at a private address, in any spelling, are never called", async () => {
    for (const url of privateSpellings(internal.port)) {
      // The exchange and the keys: sso_failed in Gatehouse's words.
      for (const field of ["token_endpoint", "jwks_uri"] as const) {
        const answer = await signInAfter(() => standin.point({ [field]: url }));
        expect(expectFragmentError(answer, "sso_failed"), `${field} ${url}`).toBe(UNREACHABLE);
        refused++;
      }
      // The ID token has no address: without userinfo there is none.
      const answer = await signInAfter(() => standin.point({ userinfo_endpoint: url }));
      expectFragmentError(answer, "email_missing");
      refused++;
    }
    expect(internal.connections).toBe(0);
  });

  it("a redirect into the network is never followed: discovery, token, keys, userinfo", async () => {
    const into = `${internal.url}/`;
    const start = async () => {
      ctx.clock.advance(PAST_METADATA_TTL_MS);
      return app.call("POST", "/v1/auth/sso/authorize", { connection_id: connection });
    };
    standin.redirectDiscovery(into);
    const discovery = await start();
    expectReason(discovery, 400, "SSO_FAILED");
    expect(discovery.body.message).toBe("the identity provider's discovery document could not be read");
    refused++;
    for (const field of ["token_endpoint", "jwks_uri"] as const) {
      const answer = await signInAfter(() => standin.point({ [field]: standin.redirectTo(into) }));
      expect(expectFragmentError(answer, "sso_failed")).toBe(UNREACHABLE);
      refused++;
    }
    expectFragmentError(
      await signInAfter(() => standin.point({ userinfo_endpoint: standin.redirectTo(into) })),
      "email_missing",
    );
    refused++;
    expect(internal.connections).toBe(0);
    // The provider is fine again once it names its own URLs.
    expectTokens(await signInAfter(() => {}));
  });

  it("an OAuth 2.0 connection's token and userinfo URLs that redirect into the network", async () => {
    const into = `${internal.url}/`;
    for (const field of ["token_url", "userinfo_url"] as const) {
      const created = await http(`${ctx.server.url}/v1/projects/${app.projectId}/sso-connections`, {
        headers: await app.admin(),
        body: {
          name: "Redirecting",
          provider: "generic_oauth2",
          client_id: standin.clientId,
          client_secret: standin.clientSecret,
          authorization_url: `${standin.issuer}/authorize`,
          token_url: `${standin.issuer}/token`,
          userinfo_url: `${standin.issuer}/userinfo`,
          [field]: standin.redirectTo(into),
          claim_mapping: { id: "db_password" },
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const { answer } = await world.signInAt(app, created.body.id, "anyone");
      expect(expectFragmentError(answer, "sso_failed")).toBe(UNREACHABLE);
      expect(answer.location).not.toContain(internal.secret);
      refused++;
    }
    expect(internal.connections).toBe(0);
  });
});
