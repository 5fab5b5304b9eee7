import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGithubStandin, type GithubStandin } from "../helpers/github-standin.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import { CALLBACK_URL, useSsoWorld } from "./sso-helpers.js";

// SSO presets for providers without OpenID Connect (issue 29): GitHub, against a loopback
// stand-in with GitHub's quirks (errors with status 200, JSON only when asked, a User-Agent
// required, addresses from /user/emails), and a generic OAuth 2.0 provider (the same stand-in,
// configured by its endpoints and a claim mapping).

const world = useSsoWorld();
const { ctx } = world;
let github: GithubStandin;
let app: AuthFixture;

beforeAll(async () => {
  github = await startGithubStandin({ redirectUri: CALLBACK_URL });
  app = await authFixture(ctx.server);
});
afterAll(async () => {
  await github?.stop();
});

const connect = (body: Record<string, unknown>) =>
  world.createConnection(app, {
    name: "GitHub",
    client_id: github.clientId,
    client_secret: github.clientSecret,
    ...body,
  });

const signIn = (connectionId: string, login: string) => world.signInAt(app, connectionId, login);

const enterprise = () => ({
  authorization_url: github.authorizeUrl,
  token_url: github.tokenUrl,
  userinfo_url: `${github.apiUrl}/user`,
});

describe("provider: github", () => {
  it("signs a user in with GitHub's primary verified address, asking for read:user and user:email", async () => {
    const created = await connect({ provider: "github", ...enterprise() });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({
      provider: "github",
      issuer: "",
      scopes: ["read:user", "user:email"],
      authorization_url: github.authorizeUrl,
    });
    github.setUser("hubber", {
      id: 4242,
      emails: [
        { email: "public-alias@example.com", primary: false, verified: true },
        { email: "hubber@example.com", primary: true, verified: true },
      ],
    });
    const { authorize, answer } = await signIn(created.body.id, "hubber");
    expect(authorize.searchParams.get("scope")).toBe("read:user user:email");
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("nonce")).toBeNull();
    expect(answer.fragment.get("error"), answer.fragment.toString()).toBeNull();
    const accessToken = answer.fragment.get("access_token")!;
    const verified = await app.call("POST", "/v1/auth/token/verify", { token: accessToken });
    expect(verified.body.claims.email).toBe("hubber@example.com");
    expect(verified.body.claims.amr).toEqual(["sso"]);
    const user = await app.call("GET", `/v1/auth/users/${verified.body.claims.sub}`);
    expect(user.body.identities).toMatchObject([
      { provider: github.url, subject: "4242", email: "hubber@example.com" },
    ]);
    // GitHub's quirks were met: JSON asked for at the token endpoint, a User-Agent on the API.
    const token = github.requests.find((r) => r.path === "/login/oauth/access_token")!;
    expect(token.headers.accept).toContain("application/json");
    const api = github.requests.filter((r) => r.path.startsWith("/api/v3/"));
    expect(api.map((r) => r.path)).toEqual(expect.arrayContaining(["/api/v3/user", "/api/v3/user/emails"]));
    for (const r of api) expect(r.headers["user-agent"]).toBe("Gatehouse");
  });

  it("refuses an unverified primary address, and never takes a secondary one", async () => {
    const created = await connect({ provider: "github", ...enterprise() });
    github.setUser("sneaky", {
      emails: [
        { email: "sneaky-unverified@example.com", primary: true, verified: false },
        { email: "victim@example.com", primary: false, verified: true },
      ],
    });
    const { answer } = await signIn(created.body.id, "sneaky");
    expect(answer.fragment.get("error")).toBe("unverified_email");
    expect(answer.fragment.get("access_token")).toBeNull();
  });

  it("a wrong client secret: GitHub's error with status 200 becomes sso_failed (invalid_client), no sign-in", async () => {
    const created = await connect({ provider: "github", ...enterprise(), client_secret: "not-the-secret" });
    const { answer } = await signIn(created.body.id, "octocat");
    expect(answer.fragment.get("error")).toBe("sso_failed");
    // RFC 6749's name for it, in Gatehouse's words: GitHub's own text stays in the log.
    expect(answer.fragment.get("error_description")).toBe(
      "the identity provider did not accept the connection's client credentials (invalid_client)",
    );
  });

  it("defaults to GitHub.com's endpoints; refuses trust_emails, an issuer, and a partial Enterprise set", async () => {
    const plain = await connect({ provider: "github" });
    expect(plain.body).toMatchObject({
      authorization_url: "https://github.com/login/oauth/authorize",
      token_url: "https://github.com/login/oauth/access_token",
      userinfo_url: "https://api.github.com/user",
    });
    const refused = await connect({
      provider: "github",
      trust_emails: true,
      issuer: "https://github.com",
      token_url: github.tokenUrl,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.violations.map((v: { field: string }) => v.field).sort()).toEqual([
      "authorization_url",
      "issuer",
      "trust_emails",
      "userinfo_url",
    ]);
  });
});

describe("provider: generic_oauth2", () => {
  it("reads the user with the claim mapping; an address the provider does not verify is refused unless trusted", async () => {
    const body = {
      provider: "generic_oauth2",
      name: "Acme OAuth",
      ...enterprise(),
      scopes: ["user:email"],
      claim_mapping: { id: "login", email: "email" },
    };
    const created = await connect(body);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ provider: "generic_oauth2", claim_mapping: { id: "login", email: "email" } });
    github.setUser("mapped", { public_email: "mapped@example.com" });
    // The stand-in's /user answers `email` (the public address) and no `email_verified`.
    const refused = await signIn(created.body.id, "mapped");
    expect(refused.answer.fragment.get("error")).toBe("unverified_email");
    const trusting = await connect({ ...body, trust_emails: true });
    const { answer } = await signIn(trusting.body.id, "mapped");
    const accessToken = answer.fragment.get("access_token");
    expect(accessToken, answer.fragment.toString()).toBeTruthy();
    const verified = await app.call("POST", "/v1/auth/token/verify", { token: accessToken });
    const user = await app.call("GET", `/v1/auth/users/${verified.body.claims.sub}`);
    expect(user.body.identities).toMatchObject([{ provider: github.url, subject: "mapped" }]);
    // The secret went as HTTP Basic (RFC 6749 section 2.3.1), not in the body.
    const exchange = github.requests.filter((r) => r.path === "/login/oauth/access_token").at(-1)!;
    expect(exchange.headers.authorization).toMatch(/^Basic /);
  });

  it("needs its three endpoints; an oidc connection needs an issuer and no endpoints", async () => {
    const generic = await connect({ provider: "generic_oauth2", authorization_url: github.authorizeUrl });
    expect(generic.status).toBe(400);
    expect(generic.body.violations.map((v: { field: string }) => v.field).sort()).toEqual([
      "token_url",
      "userinfo_url",
    ]);
    const oidc = await connect({ token_url: github.tokenUrl, claim_mapping: { id: "login" } });
    expect(oidc.body.violations.map((v: { field: string }) => v.field).sort()).toEqual([
      "claim_mapping",
      "issuer",
      "token_url",
    ]);
    const insecure = await connect({
      provider: "generic_oauth2",
      ...enterprise(),
      // A public address over plain http (a DNS name might resolve into OUTBOUND_ALLOW_HOSTS).
      token_url: "http://93.184.216.34/token",
    });
    expect(insecure.body.violations).toEqual([{ field: "token_url", description: "must be https" }]);
  });
});

describe("OpenID Connect presets: google and gitlab", () => {
  let clients = 0;
  /** A client at the test provider, and a connection of `provider` to it (its issuer given, as a self-managed one would). */
  async function preset(provider: string, extra: Record<string, unknown> = {}) {
    const clientId = `preset-${++clients}`;
    world.idp.addClient({
      clientId,
      clientSecret: "preset-secret",
      redirectUris: [CALLBACK_URL],
      tokenEndpointAuthMethod: "client_secret_basic",
    });
    return world.createConnection(app, {
      name: provider,
      provider,
      issuer: world.idp.issuer,
      client_id: clientId,
      client_secret: "preset-secret",
      ...extra,
    });
  }

  async function signInAt(connectionId: string, account: string) {
    const start = await app.call("POST", "/v1/auth/sso/authorize", { connection_id: connectionId });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const authorize = new URL(start.body.authorization_url);
    return { authorize, answer: await world.callback(await world.idp.signIn(authorize.href, account)) };
  }

  it("google with a Workspace domain: hd asked for, an account of the domain signs in, any other is refused", async () => {
    const created = await preset("google", { hosted_domain: "example.com" });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({
      provider: "google",
      hosted_domain: "example.com",
      scopes: ["openid", "email", "profile"],
    });
    world.idp.setAccount("g-staff", { email: "staff@example.com", email_verified: true, hd: "example.com" });
    world.idp.setAccount("g-outsider", { email: "someone@example.com", email_verified: true, hd: "other.example" });
    world.idp.setAccount("g-consumer", { email: "consumer@example.com", email_verified: true });
    const staff = await signInAt(created.body.id, "g-staff");
    expect(staff.authorize.searchParams.get("hd")).toBe("example.com");
    expect(staff.answer.fragment.get("access_token"), staff.answer.fragment.toString()).toBeTruthy();
    const outsider = await signInAt(created.body.id, "g-outsider");
    expect(outsider.answer.fragment.get("error")).toBe("hosted_domain_mismatch");
    // An address at the domain is not enough: a consumer account has no hd.
    const consumer = await signInAt(created.body.id, "g-consumer");
    expect(consumer.answer.fragment.get("error")).toBe("hosted_domain_mismatch");
  });

  it("google and gitlab default to their issuers; hosted_domain is google's alone", async () => {
    const defaults = { client_id: "x", client_secret: "y", name: "preset" };
    const post = (body: Record<string, unknown>) => world.createConnection(app, { ...defaults, ...body });
    expect((await post({ provider: "google" })).body).toMatchObject({ issuer: "https://accounts.google.com" });
    expect((await post({ provider: "gitlab" })).body).toMatchObject({ issuer: "https://gitlab.com" });
    const refused = await post({ provider: "gitlab", hosted_domain: "example.com" });
    expect(refused.body.violations).toMatchObject([{ field: "hosted_domain" }]);
    const badDomain = await post({ provider: "google", hosted_domain: "Example.COM/x" });
    expect(badDomain.body.violations).toMatchObject([{ field: "hosted_domain" }]);
  });

  it("a self-managed gitlab by its issuer signs in as any OpenID Connect provider", async () => {
    const created = await preset("gitlab");
    expect(created.body).toMatchObject({ provider: "gitlab", issuer: world.idp.issuer });
    world.idp.setAccount("gl-dev", { email: "dev@example.com", email_verified: true });
    const { answer } = await signInAt(created.body.id, "gl-dev");
    expect(answer.fragment.get("access_token"), answer.fragment.toString()).toBeTruthy();
  });
});
