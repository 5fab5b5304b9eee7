import { closedPort } from "../helpers/ports.js";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import { allowInsecureRequests, discovery } from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../helpers/account.js";
import { http } from "../helpers/clients.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { authFixture, type AuthFixture } from "../auth/helpers.js";

// JWT middleware configured by issuer (go-oidc, Spring's issuer-uri, ASP.NET's Authority,
// openid-client, jose's remote JWKS) reads {issuer}/.well-known/openid-configuration, insists
// that its `issuer` is exactly the URL it was given and the tokens' `iss`, and fetches the keys
// from its `jwks_uri`. Any mismatch and every token fails; a document for a deleted project
// would keep its keys trusted.

const UNKNOWN = "lp_00000000000000000000000000";

describe("OIDC discovery per project", () => {
  let server: TestServer;
  let app: AuthFixture;
  let issuer: string;

  beforeAll(async () => {
    // A free port, so PUBLIC_URL (the issuer) can name the server before it listens.
    const port = await closedPort();
    server = await startTestServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` });
    app = await authFixture(server);
    issuer = `${server.url}/v1/auth/${app.loginId}`;
  });
  afterAll(() => server?.stop());

  it("openid-client's discovery() accepts the issuer, and jose verifies a real access token with the discovered JWKS and issuer", async () => {
    const config = await discovery(new URL(issuer), app.projectId, undefined, undefined, {
      execute: [allowInsecureRequests],
    });
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(issuer);
    expect(metadata.jwks_uri).toBe(`${issuer}/.well-known/jwks.json`);
    expect(metadata.id_token_signing_alg_values_supported).toEqual(["ES256"]);

    const { body } = await app.signup();
    const token: string = body.access_token;
    expect(decodeJwt(token).iss).toBe(metadata.issuer);
    const jwks = createRemoteJWKSet(new URL(metadata.jwks_uri!));
    const { payload, protectedHeader } = await jwtVerify(token, jwks, {
      issuer: metadata.issuer,
      audience: app.projectId,
      algorithms: metadata.id_token_signing_alg_values_supported,
    });
    expect(payload.sub).toBe(body.user.id);
    expect(protectedHeader.alg).toBe("ES256");
    // Another project's token does not pass as this one's.
    const other = await authFixture(server);
    const foreign = (await other.signup()).body.access_token as string;
    await expect(jwtVerify(foreign, jwks, { issuer: metadata.issuer, audience: app.projectId })).rejects.toThrow();
  });

  it("the document: the OpenID Provider's endpoints, only what works, cacheable and open to every origin like the JWKS", async () => {
    const res = await http(`${issuer}/.well-known/openid-configuration`, {
      headers: { origin: "https://anywhere.example.org" },
    });
    expect(res.status).toBe(200);
    const oauth = (name: string) => `${issuer}/oauth/${name}`;
    expect(res.body).toEqual({
      issuer,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      authorization_endpoint: oauth("authorize"),
      token_endpoint: oauth("token"),
      userinfo_endpoint: oauth("userinfo"),
      end_session_endpoint: oauth("logout"),
      introspection_endpoint: oauth("introspect"),
      revocation_endpoint: oauth("revoke"),
      device_authorization_endpoint: oauth("device/auth"),
      response_types_supported: ["code"],
      response_modes_supported: ["form_post", "fragment", "query"],
      grant_types_supported: [
        "authorization_code",
        "refresh_token",
        "client_credentials",
        "urn:ietf:params:oauth:grant-type:device_code",
      ],
      code_challenge_methods_supported: ["S256"],
      scopes_supported: ["openid", "offline_access", "email", "profile", "app_metadata"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["ES256"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
      claims_supported: [
        "sub",
        "amr",
        "email",
        "email_verified",
        "name",
        "picture",
        "locale",
        "updated_at",
        "app_metadata",
        "sid",
        "auth_time",
        "iss",
      ],
      claim_types_supported: ["normal"],
      claims_parameter_supported: false,
      request_uri_parameter_supported: false,
      authorization_response_iss_parameter_supported: true,
      // The hosted sign-in and consent pages' languages (docs/languages.md).
      ui_locales_supported: ["en", "es", "fr", "de", "ar"],
    });
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("access-control-allow-origin")).toBe("https://anywhere.example.org");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const jwks = await http(res.body.jwks_uri);
    expect(jwks.status).toBe(200);
    expect(jwks.headers.get("cache-control")).toBe(res.headers.get("cache-control"));
  });

  it("an unknown or deleted project is 404 PROJECT_NOT_FOUND in the API's error shape, and discovery() fails", async () => {
    const unknown = await http(`${server.url}/v1/auth/${UNKNOWN}/.well-known/openid-configuration`);
    expectError(unknown, 404, "PROJECT_NOT_FOUND");
    expect(unknown.body.code).toBe("not_found");
    expect(unknown.headers.get("cache-control")).toBe("no-store");
    await expect(
      discovery(new URL(`${server.url}/v1/auth/${UNKNOWN}`), "x", undefined, undefined, {
        execute: [allowInsecureRequests],
      }),
    ).rejects.toThrow();

    const doomed = await authFixture(server);
    const path = `/v1/auth/${doomed.loginId}/.well-known/openid-configuration`;
    expect((await http(`${server.url}${path}`)).status).toBe(200);
    const deleted = await http(`${server.url}/v1/projects/${doomed.projectId}`, {
      method: "DELETE",
      headers: await doomed.admin(),
    });
    expect(deleted.status).toBe(200);
    expectError(await http(`${server.url}${path}`), 404, "PROJECT_NOT_FOUND");
  });

  it("only GET: another method is 405 with Allow: GET", async () => {
    const res = await http(`${issuer}/.well-known/openid-configuration`, { method: "POST", body: {} });
    expect({ status: res.status, allow: res.headers.get("allow"), reason: res.body?.reason }).toEqual({
      status: 405,
      allow: "GET",
      reason: "METHOD_NOT_ALLOWED",
    });
  });
});
