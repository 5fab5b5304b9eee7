import { createHash, randomBytes } from "node:crypto";
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createTestClock } from "./clock.js";
import { startGithubStandin, type GithubStandin, type GithubStandinOptions } from "./github-standin.js";

// The stand-in must be as strict as GitHub where a client could get it wrong (single-use and
// expiring codes, PKCE, the redirect_uri rule, the User-Agent, the `user:email` scope) and as odd
// (errors with status 200, form-urlencoded unless JSON is asked for), or SSO tests against it
// would pass against a kinder GitHub than the real one.

const CALLBACK = "http://127.0.0.1:9/sso/callback";
let standin: GithubStandin;

afterEach(async () => {
  await standin?.stop();
});

async function start(options: GithubStandinOptions = {}): Promise<GithubStandin> {
  standin = await startGithubStandin({ redirectUri: CALLBACK, ...options });
  return standin;
}

/** GET authorize without following the redirect; the Location's query. */
async function authorize(params: Record<string, string>): Promise<URLSearchParams> {
  const url = new URL(standin.authorizeUrl);
  const all = { client_id: standin.clientId, redirect_uri: CALLBACK, state: "st-1", ...params };
  for (const [name, value] of Object.entries(all)) url.searchParams.set(name, value);
  const res = await fetch(url, { redirect: "manual" });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location")!).searchParams;
}

async function code(params: Record<string, string> = {}): Promise<string> {
  const back = await authorize({ scope: "read:user user:email", ...params });
  expect(back.get("error")).toBeNull();
  return back.get("code")!;
}

async function exchange(fields: Record<string, string>, accept: string | null = "application/json") {
  const res = await fetch(standin.tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(accept ? { accept } : {}) },
    body: new URLSearchParams({ client_id: standin.clientId, client_secret: standin.clientSecret, ...fields }),
  });
  expect(res.status).toBe(200); // GitHub's quirk: errors too
  return accept
    ? ((await res.json()) as Record<string, string>)
    : Object.fromEntries(new URLSearchParams(await res.text()));
}

function api(path: string, token: string, scheme = "Bearer") {
  return fetch(`${standin.apiUrl}${path}`, {
    headers: {
      authorization: `${scheme} ${token}`,
      "user-agent": "gatehouse-test",
      accept: "application/vnd.github+json",
    },
  });
}

describe("GitHub stand-in: the OAuth App flow", () => {
  it("signs in, exchanges the code for a token in JSON, and serves the user and their emails", async () => {
    await start();
    const back = await authorize({ scope: "read:user user:email" });
    expect(back.get("state")).toBe("st-1");
    const token = await exchange({ code: back.get("code")!, redirect_uri: CALLBACK });
    expect(token).toEqual({
      access_token: expect.stringMatching(/^gho_[A-Za-z0-9]{36}$/),
      token_type: "bearer",
      scope: "read:user,user:email",
    });

    const user = await api("/user", token.access_token);
    expect(user.status).toBe(200);
    expect(user.headers.get("x-oauth-scopes")).toBe("read:user, user:email");
    expect(await user.json()).toMatchObject({ login: "octocat", id: 583231, name: "The Octocat", email: null });
    const emails = await api("/user/emails", token.access_token);
    expect(await emails.json()).toEqual([
      { email: "octocat@example.com", primary: true, verified: true, visibility: "private" },
    ]);

    const seen = standin.requests.find((r) => r.path === "/api/v3/user");
    expect(seen?.headers["user-agent"]).toBe("gatehouse-test");
    expect(standin.requests.find((r) => r.path === "/login/oauth/access_token")?.headers.accept).toBe(
      "application/json",
    );
  });

  it("answers form-urlencoded, errors included, when the client does not ask for JSON", async () => {
    await start();
    const res = await fetch(standin.tokenUrl, {
      method: "POST",
      body: new URLSearchParams({
        client_id: standin.clientId,
        client_secret: standin.clientSecret,
        code: await code(),
      }),
    });
    expect(res.headers.get("content-type")).toMatch(/^application\/x-www-form-urlencoded/);
    const fields = new URLSearchParams(await res.text());
    expect(fields.get("access_token")).toMatch(/^gho_/);
    expect([fields.get("token_type"), fields.get("scope")]).toEqual(["bearer", "read:user,user:email"]);
    expect(await exchange({ code: "nope" }, null)).toMatchObject({ error: "bad_verification_code" });
  });

  it("takes a JSON body and Basic client authentication", async () => {
    await start();
    const res = await fetch(standin.tokenUrl, {
      method: "POST",
      headers: {
        accept: "application/json",
        "content-type": "application/json",
        authorization: `Basic ${Buffer.from(`${standin.clientId}:${standin.clientSecret}`).toString("base64")}`,
      },
      body: JSON.stringify({ code: await code() }),
    });
    expect(await res.json()).toMatchObject({ access_token: expect.stringMatching(/^gho_/) });
  });

  it("refuses a wrong secret with status 200, and spends a code once", async () => {
    await start();
    const c = await code();
    expect(await exchange({ code: c, client_secret: "wrong" })).toMatchObject({
      error: "incorrect_client_credentials",
    });
    expect(await exchange({ code: c })).toHaveProperty("access_token");
    expect(await exchange({ code: c })).toMatchObject({ error: "bad_verification_code" });
  });

  it("lets a code expire after ten minutes", async () => {
    const clock = createTestClock();
    await start({ clock });
    const fresh = await code();
    const stale = await code();
    clock.advance(10 * 60_000 - 1000);
    expect(await exchange({ code: fresh })).toHaveProperty("access_token");
    clock.advance(1000);
    expect(await exchange({ code: stale })).toMatchObject({ error: "bad_verification_code" });
  });

  it("checks PKCE when a challenge was sent, S256 only", async () => {
    await start();
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const pkce = { code_challenge: challenge, code_challenge_method: "S256" };
    expect(await exchange({ code: await code(pkce) })).toMatchObject({ error: "bad_verification_code" });
    expect(await exchange({ code: await code(pkce), code_verifier: "x".repeat(43) })).toMatchObject({
      error: "bad_verification_code",
    });
    expect(await exchange({ code: await code(pkce), code_verifier: verifier })).toHaveProperty("access_token");
    const plain = await authorize({ code_challenge: verifier, code_challenge_method: "plain" });
    expect([plain.get("error"), plain.get("code")]).toEqual(["invalid_request", null]);
  });

  it("holds the redirect_uri to the callback URL, at authorize and at the exchange", async () => {
    await start();
    const wrong = await authorize({ redirect_uri: "http://127.0.0.1:9/elsewhere" });
    expect(wrong.get("error")).toBe("redirect_uri_mismatch");
    expect([wrong.get("state"), wrong.get("code")]).toEqual(["st-1", null]);
    expect((await authorize({ redirect_uri: "http://127.0.0.1:10/sso/callback" })).get("error")).toBe(
      "redirect_uri_mismatch",
    );
    expect((await authorize({ redirect_uri: `${CALLBACK}/github` })).get("code")).toBeTruthy();
    expect(await exchange({ code: await code(), redirect_uri: `${CALLBACK}/other` })).toMatchObject({
      error: "redirect_uri_mismatch",
    });
    const unknown = await fetch(`${standin.authorizeUrl}?client_id=someone-else&redirect_uri=${CALLBACK}`, {
      redirect: "manual",
    });
    expect(unknown.status).toBe(404);
  });
});

describe("GitHub stand-in: the REST API", () => {
  it("signs in the user named by ?login= or defaultLogin, with their public and listed emails", async () => {
    await start();
    standin.setUser("ada", {
      id: 42,
      name: "Ada",
      public_email: "ada@example.com",
      emails: [
        { email: "ada@example.com", primary: true, verified: true },
        { email: "ada@unverified.example", primary: false, verified: false },
      ],
    });
    const token = await exchange({ code: await code({ login: "ada", scope: "user" }) });
    expect(await (await api("/user", token.access_token, "token")).json()).toMatchObject({
      login: "ada",
      id: 42,
      email: "ada@example.com",
    });
    expect(await (await api("/user/emails", token.access_token)).json()).toEqual([
      { email: "ada@example.com", primary: true, verified: true, visibility: "public" },
      { email: "ada@unverified.example", primary: false, verified: false, visibility: null },
    ]);
    standin.defaultLogin = "ada";
    const again = await exchange({ code: await code() });
    expect(await (await api("/user", again.access_token)).json()).toMatchObject({ login: "ada" });
  });

  it("answers 404 for the emails without the user:email scope, 401 for a bad token, 403 without a User-Agent", async () => {
    await start();
    const token = await exchange({ code: await code({ scope: "read:user" }) });
    expect((await api("/user", token.access_token)).status).toBe(200);
    const emails = await api("/user/emails", token.access_token);
    expect([emails.status, await emails.json()]).toEqual([404, expect.objectContaining({ message: "Not Found" })]);
    const bad = await api("/user", "gho_forged");
    expect([bad.status, await bad.json()]).toEqual([401, expect.objectContaining({ message: "Bad credentials" })]);

    // fetch always sends a User-Agent; node:http sends none unless told.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${standin.apiUrl}/user`,
        { headers: { authorization: `Bearer ${token.access_token}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it("stops, closing kept-alive connections", async () => {
    await start();
    expect((await fetch(`${standin.url}/`)).status).toBe(404);
    await standin.stop();
    await expect(fetch(`${standin.url}/`)).rejects.toThrow();
    standin = await startGithubStandin(); // for afterEach
  });
});
