import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CONSUMERS_TENANT, startMicrosoftStandin, type MicrosoftStandin } from "../helpers/microsoft-standin.js";
import { http } from "../helpers/clients.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import { CALLBACK_URL, useSsoWorld } from "./sso-helpers.js";

// The Microsoft preset (issue 29) against a loopback stand-in of Entra ID: the multi-tenant
// `common` authority publishes the issuer template `{base}/{tenantid}/v2.0`, and each ID token
// carries its user's tenant in `tid` and that tenant's issuer in `iss`. Threats: a token of one
// tenant passed off as another's (its `iss` and `tid` disagree), an organization outside the
// connection's allowlist signing in, and one person's accounts in two organizations merged
// into one identity.

const CONTOSO = "72f988bf-86f1-41af-91ab-2d7cd011db47";
const FABRIKAM = "0b3f5a1e-8c2d-4e6f-9a7b-1c2d3e4f5a6b";

const world = useSsoWorld();
const { ctx } = world;
let ms: MicrosoftStandin;
let app: AuthFixture;

beforeAll(async () => {
  ms = await startMicrosoftStandin({ redirectUri: CALLBACK_URL });
  app = await authFixture(ctx.server);
});
afterAll(async () => {
  await ms?.stop();
});
afterEach(() => {
  ms?.forgeIssuer(null);
});

const connect = (body: Record<string, unknown> = {}) =>
  world.createConnection(app, {
    name: "Microsoft",
    provider: "microsoft",
    issuer: ms.commonIssuer,
    client_id: ms.clientId,
    client_secret: ms.clientSecret,
    ...body,
  });

async function connectOk(body: Record<string, unknown> = {}): Promise<string> {
  const created = await connect(body);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.id as string;
}

const signIn = (connectionId: string, login: string) => world.signInAt(app, connectionId, login);

async function userOf(accessToken: string | null) {
  expect(accessToken).toBeTruthy();
  const verified = await app.call("POST", "/v1/auth/token/verify", { token: accessToken });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  const user = await app.call("GET", `/v1/auth/users/${verified.body.claims.sub}`);
  return { claims: verified.body.claims, user: user.body };
}

describe("provider: microsoft (multi-tenant, the `common` authority)", () => {
  it("signs a work account in: the templated issuer is checked against the token's tid, the identity is its tenant's", async () => {
    const created = await connect();
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({
      provider: "microsoft",
      issuer: ms.commonIssuer,
      allowed_tenants: [],
      scopes: ["openid", "email", "profile"],
    });
    ms.setUser("megan", { tid: CONTOSO, email: "megan@contoso.example", name: "Megan Bowen", xms_edov: true });
    const { authorize, answer } = await signIn(created.body.id, "megan");
    expect(authorize.origin + authorize.pathname).toBe(`${ms.url}/common/oauth2/v2.0/authorize`);
    expect(authorize.searchParams.get("nonce")).toBeTruthy();
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(answer.fragment.get("error"), answer.fragment.toString()).toBeNull();
    const { claims, user } = await userOf(answer.fragment.get("access_token"));
    expect(claims.email).toBe("megan@contoso.example");
    expect(claims.amr).toEqual(["sso"]);
    expect(user.identities).toMatchObject([{ provider: ms.issuerOf(CONTOSO), email: "megan@contoso.example" }]);
  });

  it("with allowed_tenants: an account of a listed tenant signs in, another organization's is refused", async () => {
    const created = await connect({ allowed_tenants: [CONTOSO.toUpperCase()] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.allowed_tenants).toEqual([CONTOSO]);
    ms.setUser("lynne", { tid: CONTOSO, email: "lynne@contoso.example", xms_edov: true });
    ms.setUser("outsider", { tid: FABRIKAM, email: "outsider@fabrikam.example", xms_edov: true });
    const inside = await signIn(created.body.id, "lynne");
    expect(inside.answer.fragment.get("access_token"), inside.answer.fragment.toString()).toBeTruthy();
    const outside = await signIn(created.body.id, "outsider");
    expect(outside.answer.fragment.get("error")).toBe("tenant_not_allowed");
    expect(outside.answer.fragment.get("error_description")).toContain(FABRIKAM);
    expect(outside.answer.fragment.get("access_token")).toBeNull();
    // Nobody was made for the refused account.
    const listed = await app.call("GET", "/v1/auth/users?search=outsider%40fabrikam.example");
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data).toEqual([]);
  });

  it("refuses a token whose iss is another tenant's issuer than its tid's, though validly signed", async () => {
    const connection = await connectOk();
    ms.setUser("mallory", { tid: FABRIKAM, email: "mallory@fabrikam.example", xms_edov: true });
    ms.forgeIssuer(ms.issuerOf(CONTOSO));
    const { answer } = await signIn(connection, "mallory");
    expect(answer.fragment.get("error")).toBe("sso_failed");
    expect(answer.fragment.get("error_description")).toBe(
      "the ID token is not valid for this sign-in (its issuer, audience, nonce or times)",
    );
    expect(answer.fragment.get("access_token")).toBeNull();
    // The same account with its own tenant's issuer: the issuer alone made the difference.
    ms.forgeIssuer(null);
    const honest = await signIn(connection, "mallory");
    expect(honest.answer.fragment.get("access_token"), honest.answer.fragment.toString()).toBeTruthy();
  });

  it("the same person in two organizations is two identities (one user, linked by the verified address)", async () => {
    const connection = await connectOk();
    ms.setUser("alex-contoso", { tid: CONTOSO, email: "alex@partners.example", xms_edov: true });
    ms.setUser("alex-fabrikam", { tid: FABRIKAM, email: "alex@partners.example", xms_edov: true });
    const first = await userOf((await signIn(connection, "alex-contoso")).answer.fragment.get("access_token"));
    const second = await userOf((await signIn(connection, "alex-fabrikam")).answer.fragment.get("access_token"));
    expect(second.claims.sub).toBe(first.claims.sub);
    const identities = second.user.identities as Array<{ provider: string; subject: string }>;
    expect(identities.map((i) => i.provider).sort()).toEqual([ms.issuerOf(CONTOSO), ms.issuerOf(FABRIKAM)].sort());
    expect(new Set(identities.map((i) => i.subject)).size).toBe(2);
  });

  it("Entra ID sends no email_verified: an address without xms_edov is refused unless the connection trusts emails", async () => {
    ms.setUser("plain", { tid: CONTOSO, email: "plain@contoso.example" });
    const strict = await connectOk();
    expect((await signIn(strict, "plain")).answer.fragment.get("error")).toBe("unverified_email");
    // On `common`, trusting emails needs a tenant allowlist (nOAuth: see "creating" below).
    const trusting = await connectOk({ trust_emails: true, allowed_tenants: [CONTOSO] });
    const { answer } = await signIn(trusting, "plain");
    expect(answer.fragment.get("access_token"), answer.fragment.toString()).toBeTruthy();
  });

  it("a wrong client secret: Microsoft's invalid_client becomes sso_failed", async () => {
    const connection = await connectOk({ client_secret: "not-the-secret" });
    const { answer } = await signIn(connection, "adele");
    expect(answer.fragment.get("error")).toBe("sso_failed");
    expect(answer.fragment.get("access_token")).toBeNull();
  });
});

describe("provider: microsoft (one tenant's own issuer)", () => {
  it("works as plain OpenID Connect; the tenant's allowlist still applies", async () => {
    const connection = await connectOk({ issuer: ms.issuerOf(CONTOSO) });
    ms.setUser("isaiah", { tid: CONTOSO, email: "isaiah@contoso.example", xms_edov: true });
    const { authorize, answer } = await signIn(connection, "isaiah");
    expect(authorize.pathname).toBe(`/${CONTOSO}/oauth2/v2.0/authorize`);
    const { user } = await userOf(answer.fragment.get("access_token"));
    expect(user.identities).toMatchObject([{ provider: ms.issuerOf(CONTOSO) }]);
    // Microsoft itself turns away another organization's account at this authority.
    ms.setUser("stranger", { tid: FABRIKAM, email: "stranger@fabrikam.example", xms_edov: true });
    expect((await signIn(connection, "stranger")).answer.fragment.get("error")).toBe("access_denied");
  });
});

describe("provider: microsoft (personal accounts, the `consumers` authority)", () => {
  it("its discovery names the personal accounts' tenant as issuer; a personal account signs in", async () => {
    const connection = await connectOk({
      issuer: `${ms.url}/consumers/v2.0`,
      trust_emails: true,
      allowed_tenants: [CONSUMERS_TENANT],
    });
    ms.setUser("personal", { tid: CONSUMERS_TENANT, email: "someone@outlook.example" });
    const { answer } = await signIn(connection, "personal");
    const { user } = await userOf(answer.fragment.get("access_token"));
    expect(user.identities).toMatchObject([{ provider: ms.issuerOf(CONSUMERS_TENANT) }]);
  });
});

describe("creating a microsoft connection", () => {
  it("defaults to Microsoft's common issuer", async () => {
    const created = await connect({ issuer: "" });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.issuer).toBe("https://login.microsoftonline.com/common/v2.0");
  });

  it("refuses trust_emails on a multi-tenant authority without allowed_tenants (nOAuth), on create and update", async () => {
    // Threat: anyone can make an Entra ID tenant and give its user a customer's address in
    // `email` (unverified); trusting that address on `common` hands the customer's account over.
    const nOAuth = {
      field: "trust_emails",
      description: expect.stringMatching(/^needs allowed_tenants on the multi-tenant authority/),
    };
    for (const issuer of ["", ms.commonIssuer, `${ms.url}/organizations/v2.0`, `${ms.url}/consumers/v2.0`]) {
      const refused = await connect({ issuer, trust_emails: true });
      expect(refused.status, `${issuer}: ${JSON.stringify(refused.body)}`).toBe(400);
      expect(refused.body.violations).toEqual([nOAuth]);
    }
    // With an allowlist, or on one tenant's own authority, the tenant vouches for its addresses.
    await connectOk({ trust_emails: true, allowed_tenants: [CONTOSO] });
    await connectOk({ issuer: ms.issuerOf(CONTOSO), trust_emails: true });

    const headers = await app.admin();
    const patch = (id: string, body: Record<string, unknown>) =>
      http(`${ctx.server.url}/v1/sso-connections/${id}`, { method: "PATCH", headers, body });
    const plain = await connectOk();
    expect((await patch(plain, { trust_emails: true })).body.violations).toEqual([nOAuth]);
    const listed = await connectOk({ trust_emails: true, allowed_tenants: [CONTOSO] });
    expect((await patch(listed, { any_tenant: true })).body.violations).toEqual([nOAuth]);
    const single = await connectOk({ issuer: ms.issuerOf(CONTOSO), trust_emails: true });
    const movedToCommon = await patch(single, { issuer: ms.commonIssuer, client_secret: ms.clientSecret });
    expect(movedToCommon.body.violations).toEqual([nOAuth]);
  });

  it("tenant ids must be GUIDs; allowed_tenants is Microsoft's alone", async () => {
    const bad = await connect({ allowed_tenants: [CONTOSO, "contoso.onmicrosoft.com"] });
    expect(bad.status).toBe(400);
    expect(bad.body.violations).toMatchObject([{ field: "allowed_tenants[1]" }]);
    const google = await connect({ provider: "google", issuer: "", allowed_tenants: [CONTOSO] });
    expect(google.body.violations).toMatchObject([{ field: "allowed_tenants" }]);
  });
});
