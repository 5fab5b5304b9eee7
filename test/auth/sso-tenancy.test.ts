import { createHash, randomBytes } from "node:crypto";
import { generate } from "otplib";
import { beforeAll, describe, expect, it } from "vitest";
import { authFixture, type AuthFixture } from "./helpers.js";
import { useSsoWorld, type CallbackAnswer } from "./sso-helpers.js";
import { injectHttp } from "../helpers/inject.js";

// Threats: one project's SSO reaching into another's (its connection, its users, its
// redirect URL, its handover codes) when both trust the same provider and the same person
// signs into both; and links that outlive what they link: a deleted user's identity signing
// into a stranger's account, a deleted connection still linking, or deleting a connection
// taking the user's other credentials with it.

const world = useSsoWorld();
const { ctx } = world;
/** Two projects, each with its own client at the same provider. */
let a: AuthFixture;
let b: AuthFixture;
let connA: string;
let connB: string;
const B_REDIRECT = "https://b.example.com/welcome";
let seq = 0;

function account(): { id: string; email: string } {
  const n = ++seq;
  const who = { id: `tenant-${n}`, email: `tenant-${n}@example.com` };
  world.idp.setAccount(who.id, { email: who.email, email_verified: true });
  return who;
}

/** The fragment's tokens, and the user id (`sub`) of the access token, verified by `app`. */
async function signedIn(answer: CallbackAnswer, app: AuthFixture) {
  expect(answer.status, answer.body).toBe(302);
  const accessToken = answer.fragment.get("access_token");
  expect(accessToken, answer.location).toEqual(expect.any(String));
  const verified = await app.call("POST", "/v1/auth/token/verify", { token: accessToken });
  expect(verified.body.valid).toBe(true);
  return {
    userId: verified.body.claims.sub as string,
    accessToken: accessToken!,
    refreshToken: answer.fragment.get("refresh_token")!,
  };
}

const getUser = (app: AuthFixture, id: string) => app.call("GET", `/v1/auth/users/${id}`);
const identitiesOf = async (app: AuthFixture, id: string) => (await getUser(app, id)).body.identities;

async function deleteConnection(app: AuthFixture, id: string) {
  const res = await injectHttp(ctx.server.handle, `/v1/sso-connections/${id}`, {
    method: "DELETE",
    headers: await app.admin(),
  });
  expect(res.body).toMatchObject({ deleted: true, id });
}

beforeAll(async () => {
  a = await authFixture(ctx.server);
  b = await authFixture(ctx.server);
  const moved = await injectHttp(ctx.server.handle, `/v1/projects/${b.projectId}`, {
    method: "PATCH",
    headers: await b.admin(),
    body: { redirect_url: B_REDIRECT, allowed_origins: ["https://b.example.com"] },
  });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  connA = await world.connect(a);
  connB = await world.connect(b);
});

describe("two projects with connections to one provider", () => {
  it("sign the same provider account in as two different users, each project showing only its own identity", async () => {
    expect(world.idp.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+/); // a loopback http issuer, end to end
    const who = account();
    const inA = await signedIn(await world.signIn(a, connA, who.id), a);
    const inB = await signedIn(await world.signIn(b, connB, who.id), b);
    expect(inA.userId).not.toBe(inB.userId);

    const linked = (connectionId: string) => [
      {
        id: expect.stringMatching(/^idn_[0-9a-z]{26}$/),
        connection_id: connectionId,
        connection_name: "Test IdP",
        connection_provider: "oidc",
        provider: world.idp.issuer,
        subject: who.id,
        email: who.email,
        linked_at: expect.any(String),
      },
    ];
    expect(await identitiesOf(a, inA.userId)).toEqual(linked(connA));
    expect(await identitiesOf(b, inB.userId)).toEqual(linked(connB));
    expect((await getUser(a, inB.userId)).body.reason).toBe("USER_NOT_FOUND");
    expect((await getUser(b, inA.userId)).body.reason).toBe("USER_NOT_FOUND");

    // Signing in again stays within each project.
    expect((await signedIn(await world.signIn(a, connA, who.id), a)).userId).toBe(inA.userId);
    expect((await signedIn(await world.signIn(b, connB, who.id), b)).userId).toBe(inB.userId);
  });

  it("refuse project A's API key with project B's connection id: 404 SSO_CONNECTION_NOT_FOUND", async () => {
    const started = await a.call("POST", "/v1/auth/sso/authorize", { connection_id: connB });
    expect({ status: started.status, reason: started.body.reason }).toEqual({
      status: 404,
      reason: "SSO_CONNECTION_NOT_FOUND",
    });
    expect(started.body).not.toHaveProperty("authorization_url");
  });

  it("refuse the browser entry naming project A and project B's connection with a 400 page, not a redirect to the provider", async () => {
    const res = await fetch(`${ctx.server.url}/v1/auth/sso/authorize?login_id=${a.loginId}&connection_id=${connB}`, {
      redirect: "manual",
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
  });

  it("land a flow started in project A on A's redirect_url only, and refuse B's redirect_url to it", async () => {
    const who = account();
    const answer = await world.signIn(a, connA, who.id);
    expect(answer.location).toMatch(/^https:\/\/app\.example\.com\/callback#access_token=/);
    const inB = await world.signIn(b, connB, who.id);
    expect(inB.location).toMatch(/^https:\/\/b\.example\.com\/welcome#access_token=/);

    const foreign = await a.call("POST", "/v1/auth/sso/authorize", { connection_id: connA, redirect_url: B_REDIRECT });
    expect({ status: foreign.status, reason: foreign.body.reason }).toEqual({
      status: 400,
      reason: "REDIRECT_NOT_ALLOWED",
    });
  });

  it("refuse project A's handover code with project B's key, though B trusts the same provider", async () => {
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const answer = await world.signIn(a, connA, account().id, { codeChallenge: challenge });
    const code = answer.query.get("code")!;
    expect(code).toMatch(/^gsc_/);
    const withB = await b.call("POST", "/v1/auth/sso/exchange", { code, code_verifier: verifier });
    expect({ status: withB.status, reason: withB.body.reason }).toEqual({ status: 401, reason: "INVALID_CODE" });
    expect(withB.body).not.toHaveProperty("access_token");
  });
});

describe("the links between identities and users", () => {
  it("go with a deleted user: the next SSO sign-in of that identity creates a new user", async () => {
    const who = account();
    const first = await signedIn(await world.signIn(a, connA, who.id), a);
    expect((await a.call("DELETE", `/v1/auth/users/${first.userId}`)).status).toBe(200);
    expect(
      await ctx.sql("SELECT subject FROM sso_identities WHERE project_id = $1 AND subject = $2", [a.projectId, who.id]),
    ).toEqual([]);

    const again = await signedIn(await world.signIn(a, connA, who.id), a);
    expect(again.userId).not.toBe(first.userId);
    expect((await getUser(a, first.userId)).status).toBe(404);
    expect(await identitiesOf(a, again.userId)).toEqual([
      expect.objectContaining({ connection_id: connA, subject: who.id }),
    ]);
  });

  it("go with a deleted connection while the user stays with its MFA and sessions; a new connection re-links by verified email to the same user", async () => {
    const app = await authFixture(ctx.server);
    const first = await world.connect(app);
    const who = account();
    const user = await signedIn(await world.signIn(app, first, who.id), app);
    const started = await app.call("POST", "/v1/auth/mfa/enroll", { method: "totp" }, user.accessToken);
    const secret = new URL(started.body.totp_uri).searchParams.get("secret")!;
    const totp = async () => {
      ctx.clock.advance(30_000);
      return generate({ secret, epoch: Math.floor(ctx.clock.now().getTime() / 1000) });
    };
    expect(
      (await app.call("POST", "/v1/auth/mfa/verify", { method: "totp", code: await totp() }, user.accessToken)).body
        .enrolled,
    ).toBe(true);

    await deleteConnection(app, first);
    const kept = (await getUser(app, user.userId)).body;
    expect(kept).toMatchObject({
      id: user.userId,
      email: who.email,
      email_verified: true,
      mfa_enabled: true,
      mfa_methods: ["totp"],
      identities: [],
    });
    expect((await app.call("POST", "/v1/auth/token/verify", { token: user.accessToken })).body.valid).toBe(true);
    expect((await app.call("POST", "/v1/auth/token/refresh", { refresh_token: user.refreshToken })).status).toBe(200);

    const second = await world.connect(app);
    const relinked = await world.signIn(app, second, who.id);
    expect(relinked.fragment.get("mfa_methods")).toBe("totp");
    expect(relinked.fragment.has("access_token")).toBe(false);
    const done = await app.call("POST", "/v1/auth/mfa/verify", {
      mfa_token: relinked.fragment.get("mfa_token"),
      code: await totp(),
    });
    expect(done.body.user.id).toBe(user.userId);
    expect(await identitiesOf(app, user.userId)).toEqual([
      expect.objectContaining({ connection_id: second, subject: who.id, email: who.email }),
    ]);
  });

  it("end a sign-in in flight when its connection is deleted: the callback finds no flow and answers a 400 page", async () => {
    const app = await authFixture(ctx.server);
    const connection = await world.connect(app);
    const started = await app.call("POST", "/v1/auth/sso/authorize", { connection_id: connection });
    const providerRedirect = await world.idp.signIn(started.body.authorization_url, account().id);
    await deleteConnection(app, connection);
    const answer = await world.callback(providerRedirect);
    expect(answer.status).toBe(400);
    expect(answer.location).toBeUndefined();
    expect(answer.fragment.has("access_token")).toBe(false);
  });
});
