import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import { decodeJwt, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signAppleClientSecret } from "../../src/flows/auth/sso/apple-client-secret.js";
import { appleUserMetadata } from "../../src/flows/auth/sso/apple-user.js";
import { http } from "../helpers/clients.js";
import { newAppleKey, readFormPost, startAppleStandin, type AppleStandin } from "../helpers/apple-standin.js";
import { startGithubStandin } from "../helpers/github-standin.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import { CALLBACK_URL, SSO_SERVER_ENV } from "./sso-helpers.js";

// Sign in with Apple (issue 29) against a loopback stand-in with Apple's quirks
// (test/helpers/apple-standin.ts): the answer comes as a form the browser posts to the callback
// (response_mode=form_post), the client secret is an ES256 JWT Gatehouse signs from the
// uploaded .p8 key and the stand-in verifies, the name is told on the first authorization only,
// and email_verified is the string "true". The threats: a form posted with a stranger's state
// or a spent one, a post aimed at a flow of another provider, a forged name or address in the
// unsigned `user` field, a secret signed with another key, an address Apple has not verified.

const ctx = useMessagingServer({ env: SSO_SERVER_ENV });
const key = newAppleKey();
let apple: AppleStandin;
let app: AuthFixture;
let connection: string;

beforeAll(async () => {
  apple = await startAppleStandin({ key, redirectUris: [CALLBACK_URL], clock: ctx.clock });
  app = await authFixture(ctx.server);
  connection = await connect();
});
afterAll(async () => {
  await apple?.stop();
});

async function createConnection(body: Record<string, unknown> = {}) {
  return http(`${ctx.server.url}/v1/projects/${app.projectId}/sso-connections`, {
    headers: await app.admin(),
    body: {
      name: "Apple",
      provider: "apple",
      issuer: apple.url,
      client_id: apple.clientId,
      team_id: apple.teamId,
      key_id: key.keyId,
      private_key: key.privateKeyPem,
      ...body,
    },
  });
}

async function connect(body: Record<string, unknown> = {}): Promise<string> {
  const created = await createConnection(body);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.id as string;
}

/** SsoAuthorize for the connection: Apple's authorization URL. */
async function authorizeUrl(connectionId: string, login?: string, codeChallenge?: string): Promise<URL> {
  const start = await app.call("POST", "/v1/auth/sso/authorize", {
    connection_id: connectionId,
    ...(codeChallenge ? { code_challenge: codeChallenge } : {}),
  });
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const url = new URL(start.body.authorization_url);
  if (login !== undefined) url.searchParams.set("login", login);
  return url;
}

/** The form Apple's page would have the browser post, after signing `login` in. */
async function appleAnswers(url: URL): Promise<URLSearchParams> {
  const res = await fetch(url, { redirect: "manual" });
  const page = await res.text();
  expect(res.status, page).toBe(200);
  const form = readFormPost(page);
  expect(form.action).toBe(CALLBACK_URL);
  return form.fields;
}

/** The browser posting the form to Gatehouse's callback: where it is sent next. */
async function post(fields: URLSearchParams | string, contentType = "application/x-www-form-urlencoded") {
  const res = await fetch(`${ctx.server.url}/v1/auth/sso/callback`, {
    method: "POST",
    headers: { "content-type": contentType, origin: "https://appleid.apple.com" },
    body: fields.toString(),
    redirect: "manual",
  });
  const location = res.headers.get("location");
  return {
    status: res.status,
    location,
    fragment: new URLSearchParams(location ? new URL(location).hash.slice(1) : ""),
    body: await res.text(),
  };
}

async function signIn(login: string, connectionId = connection) {
  const fields = await appleAnswers(await authorizeUrl(connectionId, login));
  return { fields, answer: await post(fields) };
}

/** The user an access token belongs to, as the admin API reads it. */
async function userOf(accessToken: string | null) {
  expect(accessToken).toBeTruthy();
  const verified = await app.call("POST", "/v1/auth/token/verify", { token: accessToken });
  const user = await app.call("GET", `/v1/auth/users/${verified.body.claims.sub}`);
  return user.body;
}

const lastTokenRequest = () => new URLSearchParams(apple.requests.filter((r) => r.path === "/auth/token").at(-1)!.body);

describe("Sign in with Apple", () => {
  it("asks for form_post, name and email; the first authorization creates the user with Apple's name", async () => {
    apple.setUser("jane", { email: "jane.doe@example.com", firstName: "Jane", lastName: "Doe" });
    const url = await authorizeUrl(connection, "jane");
    expect(url.origin + url.pathname).toBe(`${apple.url}/auth/authorize`);
    expect(url.searchParams.get("response_mode")).toBe("form_post");
    expect(url.searchParams.get("scope")?.split(" ")).toEqual(expect.arrayContaining(["name", "email"]));
    const fields = await appleAnswers(url);
    expect(JSON.parse(fields.get("user")!)).toEqual({
      name: { firstName: "Jane", lastName: "Doe" },
      email: "jane.doe@example.com",
    });
    const answer = await post(fields);
    expect(answer.status).toBe(303);
    expect(answer.fragment.get("error"), answer.fragment.toString()).toBeNull();
    const user = await userOf(answer.fragment.get("access_token"));
    expect(user).toMatchObject({
      email: "jane.doe@example.com",
      email_verified: true,
      metadata: { name: "Jane Doe", given_name: "Jane", family_name: "Doe" },
    });
    // The secret went in the body (client_secret_post), as a JWT of the team, for this client.
    const exchange = lastTokenRequest();
    const secret = exchange.get("client_secret")!;
    expect(decodeProtectedHeader(secret)).toMatchObject({ alg: "ES256", kid: key.keyId });
    const claims = decodeJwt(secret);
    expect(claims).toMatchObject({ iss: apple.teamId, sub: apple.clientId, aud: apple.url });
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(15_777_000);
  });

  it("a second sign-in gets no name from Apple and keeps the one the user has", async () => {
    apple.setUser("twice", { email: "twice@example.com", firstName: "Tess", lastName: "Twice" });
    const first = await signIn("twice");
    const firstUser = await userOf(first.answer.fragment.get("access_token"));
    const second = await signIn("twice");
    expect(second.fields.has("user")).toBe(false);
    const secondUser = await userOf(second.answer.fragment.get("access_token"));
    expect(secondUser.id).toBe(firstUser.id);
    expect(secondUser.metadata).toEqual({ name: "Tess Twice", given_name: "Tess", family_name: "Twice" });
  });

  it("an application taking the code handover (SsoExchange) gets the new user with Apple's name too", async () => {
    apple.setUser("handed", { email: "handed@example.com", firstName: "Hana", lastName: "Handed" });
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const answer = await post(await appleAnswers(await authorizeUrl(connection, "handed", challenge)));
    expect(answer.status, answer.body).toBe(303);
    const code = new URL(answer.location!).searchParams.get("code");
    expect(code).toMatch(/^gsc_/);
    // The name waits with the code, sealed: the stored row does not read it.
    const [stored] = await ctx.sql(
      "SELECT new_user_metadata_sealed AS sealed FROM sso_handovers WHERE project_id = $1 AND email = $2",
      [app.projectId, "handed@example.com"],
    );
    expect(stored.sealed).toEqual(expect.any(String));
    expect(stored.sealed).not.toContain("Hana");
    const exchanged = await app.call("POST", "/v1/auth/sso/exchange", { code, code_verifier: verifier });
    expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
    const user = await userOf(exchanged.body.access_token);
    expect(user).toMatchObject({
      email: "handed@example.com",
      metadata: { name: "Hana Handed", given_name: "Hana", family_name: "Handed" },
    });
  });

  it("the unsigned user field names nobody: its address is ignored and its name kept as plain, bounded text", async () => {
    apple.setUser("forger", { email: "forger@example.com" });
    const fields = await appleAnswers(await authorizeUrl(connection, "forger"));
    fields.set(
      "user",
      JSON.stringify({
        name: { firstName: "<script>x</script>\u0000Eve", lastName: "L".repeat(500) },
        email: "victim@example.com",
      }),
    );
    const user = await userOf((await post(fields)).fragment.get("access_token"));
    expect(user.email).toBe("forger@example.com");
    expect(user.metadata.given_name).toBe("<script>x</script> Eve");
    expect(user.metadata.family_name).toBe("L".repeat(100));
  });

  it("a private-relay address signs up as a verified address (email_verified as a boolean too)", async () => {
    const relay = "q7x2k9m4pz@privaterelay.appleid.com";
    apple.setUser("hidden", { email: relay, emailVerified: true, isPrivateEmail: true });
    const { answer } = await signIn("hidden");
    const user = await userOf(answer.fragment.get("access_token"));
    expect(user).toMatchObject({ email: relay, email_verified: true });
    expect(user.identities).toMatchObject([{ provider: apple.url, email: relay }]);
  });

  it("an address Apple has not verified is refused", async () => {
    apple.setUser("unverified", { email: "unverified@example.com", emailVerified: "false" });
    const { answer } = await signIn("unverified");
    expect(answer.fragment.get("error")).toBe("unverified_email");
    expect(answer.fragment.get("access_token")).toBeNull();
  });

  it("the user cancelling at Apple comes back as access_denied (Apple's own code is not RFC 6749's)", async () => {
    const url = await authorizeUrl(connection, "appleseed");
    url.searchParams.set("deny", "1");
    const answer = await post(await appleAnswers(url));
    expect(answer.fragment.get("error")).toBe("access_denied");
    expect(answer.location).not.toContain("user_cancelled_authorize");
  });
});

describe("Apple's client secret", () => {
  it("is signed once, kept while fresh, and signed anew before it expires", async () => {
    apple.setUser("clocked", { email: "clocked@example.com" });
    const secretOf = async () => {
      const { answer } = await signIn("clocked");
      expect(answer.fragment.get("access_token"), answer.fragment.toString()).toBeTruthy();
      return apple.acceptedSecrets.at(-1)!;
    };
    const first = await secretOf();
    expect(await secretOf()).toBe(first);
    // 50 minutes on: still more than five minutes of its hour left.
    ctx.clock.advance(50 * 60_000);
    expect(await secretOf()).toBe(first);
    // 56 minutes on: within five minutes of its expiry, a new one is signed.
    ctx.clock.advance(6 * 60_000);
    const renewed = await secretOf();
    expect(renewed).not.toBe(first);
    expect(decodeJwt(renewed).iat!).toBeGreaterThan(decodeJwt(first).iat!);
    // An hour past the first: the old one would be refused; the new one is used.
    ctx.clock.advance(10 * 60_000);
    expect(await secretOf()).toBe(renewed);
  });

  it("signed with a key Apple does not know: refused as invalid_client, the sign-in fails as sso_failed", async () => {
    const stranger = newAppleKey();
    const wrongKey = await connect({ name: "Apple (wrong key)", private_key: stranger.privateKeyPem });
    const accepted = apple.acceptedSecrets.length;
    apple.setUser("wrongkey", { email: "wrongkey@example.com" });
    const { answer } = await signIn("wrongkey", wrongKey);
    expect(answer.fragment.get("error")).toBe("sso_failed");
    expect(answer.fragment.get("error_description")).toContain("invalid_client");
    expect(answer.fragment.get("access_token")).toBeNull();
    expect(apple.acceptedSecrets.length).toBe(accepted);
  });
});

describe("the form_post callback refuses", () => {
  it("a stranger's state and a spent one, with a page and no sign-in", async () => {
    const stranger = await post(new URLSearchParams({ code: "c0ffee", state: "not-a-state-gatehouse-gave" }));
    expect(stranger.status).toBe(400);
    expect(stranger.fragment.get("access_token")).toBeNull();
    apple.setUser("replayed", { email: "replayed@example.com" });
    const { fields, answer } = await signIn("replayed");
    expect(answer.fragment.get("access_token")).toBeTruthy();
    const replay = await post(fields);
    expect(replay.status).toBe(400);
    expect(replay.body).toContain("already used");
  });

  it("a post for a flow of another provider, and a GET for an Apple flow, though their codes are good: spent, and refused", async () => {
    const github = await startGithubStandin({ redirectUri: CALLBACK_URL });
    try {
      const created = await http(`${ctx.server.url}/v1/projects/${app.projectId}/sso-connections`, {
        headers: await app.admin(),
        body: {
          name: "GitHub",
          provider: "github",
          client_id: github.clientId,
          client_secret: github.clientSecret,
          authorization_url: github.authorizeUrl,
          token_url: github.tokenUrl,
          userinfo_url: `${github.apiUrl}/user`,
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      // GitHub's good answer, posted as a form instead of followed as a redirect.
      const redirected = await fetch(await authorizeUrl(created.body.id), { redirect: "manual" });
      const answer = new URL(redirected.headers.get("location")!).searchParams;
      const posted = await post(answer);
      expect(posted.status).toBe(303);
      expect(posted.fragment.get("error")).toBe("sso_failed");
      expect(posted.fragment.get("error_description")).toContain("form post");
      expect(posted.fragment.get("access_token")).toBeNull();
      // The flow is spent: the right method cannot finish it afterwards.
      const after = await fetch(`${ctx.server.url}/v1/auth/sso/callback?${answer.toString()}`, { redirect: "manual" });
      expect(after.status).toBe(400);
    } finally {
      await github.stop();
    }

    // Apple's good answer, sent as a GET: Apple never answers that way.
    apple.setUser("sideways", { email: "sideways@example.com" });
    const fields = await appleAnswers(await authorizeUrl(connection, "sideways"));
    const got = await fetch(`${ctx.server.url}/v1/auth/sso/callback?${fields.toString()}`, { redirect: "manual" });
    expect(got.status).toBe(302);
    const fragment = new URLSearchParams(new URL(got.headers.get("location")!).hash.slice(1));
    expect(fragment.get("error")).toBe("sso_failed");
    expect(fragment.get("access_token")).toBeNull();
    expect((await post(fields)).status).toBe(400);
  });

  it("a body that is not a form, or too large", async () => {
    apple.setUser("patient", { email: "patient@example.com" });
    const url = await authorizeUrl(connection, "patient");
    const state = url.searchParams.get("state")!;
    const json = await post(JSON.stringify({ code: "c", state }), "application/json");
    expect(json.status).toBe(415);
    const huge = await post(new URLSearchParams({ code: "c", state, user: "x".repeat(20_000) }));
    expect(huge.status).toBe(413);
    // Neither spent the flow: Apple's own post of it still signs in.
    const answer = await post(await appleAnswers(url));
    expect(answer.fragment.get("access_token")).toBeTruthy();
  });
});

describe("the pieces alone", () => {
  it("appleUserMetadata: the name parts present, nothing from a field absent, too long or not JSON", () => {
    expect(appleUserMetadata(JSON.stringify({ name: { firstName: "  Ana  María " } }))).toEqual({
      name: "Ana María",
      given_name: "Ana María",
    });
    expect(appleUserMetadata(JSON.stringify({ name: { lastName: "Ng" }, email: "x@example.com" }))).toEqual({
      name: "Ng",
      family_name: "Ng",
    });
    expect(appleUserMetadata(null)).toEqual({});
    expect(appleUserMetadata("{not json")).toEqual({});
    expect(appleUserMetadata(JSON.stringify({ email: "only@example.com" }))).toEqual({});
    expect(appleUserMetadata(JSON.stringify({ name: { firstName: 42, lastName: ["x"] } }))).toEqual({});
    expect(appleUserMetadata(JSON.stringify({ name: { firstName: "A".repeat(3000) } }))).toEqual({});
  });

  it("signAppleClientSecret: ES256 by the key, verifiable with its public half; a key of another curve is SSO_FAILED", async () => {
    const signer = {
      id: "sso_x",
      clientId: "com.example.web",
      issuer: "https://appleid.apple.com",
      teamId: "TEAM123456",
      keyId: key.keyId,
      privateKey: key.privateKeyPem,
    };
    const now = new Date("2026-01-01T00:00:00Z");
    const { secret, expiresAt } = signAppleClientSecret(signer, now);
    const { payload, protectedHeader } = await jwtVerify(secret, key.publicKey, {
      algorithms: ["ES256"],
      currentDate: now,
    });
    expect(protectedHeader).toMatchObject({ alg: "ES256", kid: key.keyId });
    expect(payload).toEqual({
      iss: "TEAM123456",
      sub: "com.example.web",
      aud: "https://appleid.apple.com",
      iat: now.getTime() / 1000,
      exp: now.getTime() / 1000 + 3600,
    });
    expect(expiresAt).toBe(now.getTime() + 3600_000);
    // An EC key of another curve (P-384): ES256 is P-256 only.
    const p384 = generateKeyPairSync("ec", { namedCurve: "P-384" }).privateKey.export({ type: "pkcs8", format: "pem" });
    expect(() => signAppleClientSecret({ ...signer, privateKey: p384.toString() }, now)).toThrow(
      expect.objectContaining({ reason: "SSO_FAILED" }),
    );
    expect(() => signAppleClientSecret({ ...signer, privateKey: "not a key" }, now)).toThrow(
      expect.objectContaining({ reason: "SSO_FAILED" }),
    );
  });
});
