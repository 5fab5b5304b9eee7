import { createHash, randomBytes } from "node:crypto";
import { generate } from "otplib";
import { beforeAll, describe, expect, it } from "vitest";
import { grpcCall, grpcClient, type HttpAnswer } from "../helpers/clients.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import { useSsoWorld, type CallbackAnswer } from "./sso-helpers.js";
import { injectConnect } from "../helpers/inject.js";

// Threat: the SSO code handover turned into a token leak or a replayable credential. With a
// `code_challenge`, the callback must answer only a one-minute, single-use code in the query
// (no token in the URL), which SsoExchange trades for tokens only with the PKCE verifier and
// this project's API key; a wrong verifier burns the code, and the stored handover holds the
// code's hash and the proven identity, never the code or a token.

const world = useSsoWorld();
const { ctx } = world;
let app: AuthFixture;
let other: AuthFixture;
let connectionId: string;
let seq = 0;

/** A PKCE pair as an application makes it: a 43-character verifier and its S256 challenge. */
function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** A provider account with a verified email, new for each test. */
function account(): { id: string; email: string } {
  const n = ++seq;
  const who = { id: `handover-${n}`, email: `handover-${n}@example.com` };
  world.idp.setAccount(who.id, { email: who.email, email_verified: true });
  return who;
}

/** The callback's answer must be the handover redirect: the code in the query, nothing in a fragment. */
function codeOf(answer: CallbackAnswer, redirectUrl = "https://app.example.com/callback"): string {
  expect(answer.status, answer.body).toBe(302);
  const landed = new URL(answer.location!);
  expect(`${landed.origin}${landed.pathname}`).toBe(redirectUrl);
  expect(landed.hash).toBe("");
  expect([...landed.searchParams.keys()].sort()).toEqual(["code", "type"]);
  expect(landed.searchParams.get("type")).toBe("sso");
  const code = landed.searchParams.get("code")!;
  expect(code).toMatch(/^gsc_[A-Za-z0-9_-]{43}$/);
  return code;
}

/** An SSO sign-in of `accountId` started with `challenge`; answers the handover code. */
async function handover(accountId: string, challenge: string): Promise<string> {
  return codeOf(await world.signIn(app, connectionId, accountId, { codeChallenge: challenge }));
}

const exchange = (code: string, verifier: string, via = app) =>
  via.call("POST", "/v1/auth/sso/exchange", { code, code_verifier: verifier });

function expectRefused(answer: HttpAnswer, reason: string) {
  expect({ status: answer.status, reason: answer.body.reason }).toEqual({ status: 401, reason });
  expect(answer.body).not.toHaveProperty("access_token");
}

async function amrOf(accessToken: string): Promise<string[]> {
  const verified = await app.call("POST", "/v1/auth/token/verify", { token: accessToken });
  expect(verified.body.valid).toBe(true);
  return verified.body.claims.amr;
}

beforeAll(async () => {
  app = await authFixture(ctx.server);
  other = await authFixture(ctx.server);
  connectionId = await world.connect(app);
});

describe("the SSO code handover", () => {
  it('redirects with ?code=gsc_…&type=sso and no fragment; SsoExchange with the verifier answers tokens with amr ["sso"]', async () => {
    const who = account();
    const { verifier, challenge } = pkce();
    const answer = await exchange(await handover(who.id, challenge), verifier);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({
      token_type: "Bearer",
      mfa_methods: [],
      user: { email: who.email, email_verified: true },
    });
    expect(answer.body).not.toHaveProperty("mfa_required");
    expect(answer.body).not.toHaveProperty("mfa_token");
    expect(await amrOf(answer.body.access_token)).toEqual(["sso"]);
    expect(
      (await app.call("POST", "/v1/auth/token/refresh", { refresh_token: answer.body.refresh_token })).status,
    ).toBe(200);
  });

  it("keeps the query of an allowed redirect_url and adds the code to it", async () => {
    const who = account();
    const { challenge } = pkce();
    const answer = await world.signIn(app, connectionId, who.id, {
      codeChallenge: challenge,
      redirectUrl: "https://app.example.com/sso/done?tab=2",
    });
    const landed = new URL(answer.location!);
    expect(landed.searchParams.get("tab")).toBe("2");
    expect(landed.searchParams.get("code")).toMatch(/^gsc_/);
    expect(landed.hash).toBe("");
  });

  it("works once: a second exchange of the same code is 401 INVALID_CODE", async () => {
    const { verifier, challenge } = pkce();
    const code = await handover(account().id, challenge);
    expect((await exchange(code, verifier)).status).toBe(200);
    expectRefused(await exchange(code, verifier), "INVALID_CODE");
  });

  it("is burnt by a wrong verifier: INVALID_CODE, and the right verifier afterwards fails too", async () => {
    const { verifier, challenge } = pkce();
    const code = await handover(account().id, challenge);
    expectRefused(await exchange(code, pkce().verifier), "INVALID_CODE");
    expectRefused(await exchange(code, verifier), "INVALID_CODE");
  });

  it("lasts 60 seconds: at 59 s it still works, after 61 s it is CODE_EXPIRED", async () => {
    const fresh = pkce();
    const kept = await handover(account().id, fresh.challenge);
    ctx.clock.advance(59_000);
    expect((await exchange(kept, fresh.verifier)).status).toBe(200);

    const late = pkce();
    const expired = await handover(account().id, late.challenge);
    ctx.clock.advance(61_000);
    expectRefused(await exchange(expired, late.verifier), "CODE_EXPIRED");
  });

  it("belongs to its project: another project's API key gets INVALID_CODE and cannot spend it", async () => {
    const { verifier, challenge } = pkce();
    const code = await handover(account().id, challenge);
    expectRefused(await exchange(code, verifier, other), "INVALID_CODE");
    expect((await exchange(code, verifier)).status).toBe(200);
  });

  it("refuses an unknown code as INVALID_CODE", async () => {
    expectRefused(await exchange(`gsc_${randomBytes(32).toString("base64url")}`, pkce().verifier), "INVALID_CODE");
  });

  it.each([42, 44])("refuses a code_challenge of %i characters with 400 VALIDATION_FAILED", async (length) => {
    const started = await app.call("POST", "/v1/auth/sso/authorize", {
      connection_id: connectionId,
      code_challenge: "A".repeat(length),
    });
    expect({ status: started.status, reason: started.body.reason }).toEqual({
      status: 400,
      reason: "VALIDATION_FAILED",
    });
    expect(started.body.violations.map((v: { field: string }) => v.field)).toEqual(["code_challenge"]);
  });

  it("over Connect JSON and gRPC: SsoExchange answers the token response", async () => {
    const headers = { "x-service-key": app.key };
    const viaConnect = pkce();
    const connectCode = await handover(account().id, viaConnect.challenge);
    const answer = await injectConnect(
      ctx.server.handle,
      "auth",
      "SsoExchange",
      { code: connectCode, codeVerifier: viaConnect.verifier },
      headers,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(await amrOf(answer.body.access_token)).toEqual(["sso"]);

    const viaGrpc = pkce();
    const who = account();
    const grpcCode = await handover(who.id, viaGrpc.challenge);
    const client = grpcClient(ctx.server.port, "auth");
    const res = await grpcCall(client, "SsoExchange", { code: grpcCode, code_verifier: viaGrpc.verifier }, headers);
    client.close();
    expect(res.error).toBeUndefined();
    expect(res.response.user.email).toBe(who.email);
    expect(await amrOf(res.response.access_token)).toEqual(["sso"]);
  });

  it('answers an MFA user\'s exchange with the challenge and no token; VerifyMfa finishes with amr ["sso", "totp"]', async () => {
    const who = account();
    const first = await world.signIn(app, connectionId, who.id);
    const accessToken = first.fragment.get("access_token")!;
    const started = await app.call("POST", "/v1/auth/mfa/enroll", { method: "totp" }, accessToken);
    const secret = new URL(started.body.totp_uri).searchParams.get("secret")!;
    const totp = async () => {
      ctx.clock.advance(30_000);
      return generate({ secret, epoch: Math.floor(ctx.clock.now().getTime() / 1000) });
    };
    expect(
      (await app.call("POST", "/v1/auth/mfa/verify", { method: "totp", code: await totp() }, accessToken)).body
        .enrolled,
    ).toBe(true);

    const { verifier, challenge } = pkce();
    const answer = await exchange(await handover(who.id, challenge), verifier);
    expect(answer.status).toBe(200);
    const { request_id: _ignored, ...body } = answer.body;
    expect(body).toEqual({
      mfa_required: true,
      mfa_token: expect.stringMatching(/^gmfa_/),
      mfa_methods: ["totp"],
      expires_in: 300,
    });
    const done = await app.call("POST", "/v1/auth/mfa/verify", { mfa_token: body.mfa_token, code: await totp() });
    expect(await amrOf(done.body.access_token)).toEqual(["sso", "totp"]);
  });

  it("answers USER_DISABLED to the exchange of a user disabled since the callback", async () => {
    const who = account();
    const first = await world.signIn(app, connectionId, who.id);
    const { sub } = (await app.call("POST", "/v1/auth/token/verify", { token: first.fragment.get("access_token") }))
      .body.claims;
    const { verifier, challenge } = pkce();
    const code = await handover(who.id, challenge);
    expect((await app.call("PATCH", `/v1/auth/users/${sub}`, { disabled: true })).status).toBe(200);
    const answer = await exchange(code, verifier);
    expect({ status: answer.status, reason: answer.body.reason }).toEqual({ status: 403, reason: "USER_DISABLED" });
  });

  it("is reached from the browser entry too: GET /v1/auth/sso/authorize with &code_challenge=…", async () => {
    const who = account();
    const { verifier, challenge } = pkce();
    const entry = new URL(`${ctx.server.url}/v1/auth/sso/authorize`);
    entry.search = new URLSearchParams({
      login_id: app.loginId,
      connection_id: connectionId,
      code_challenge: challenge,
    }).toString();
    const res = await fetch(entry, { redirect: "manual" });
    expect(res.status).toBe(302);
    const code = codeOf(await world.callback(await world.idp.signIn(res.headers.get("location")!, who.id)));
    const answer = await exchange(code, verifier);
    expect(answer.body.user.email).toBe(who.email);
  });

  it("answers the browser entry's malformed code_challenge with a 400 page, not a redirect", async () => {
    const entry = `${ctx.server.url}/v1/auth/sso/authorize?login_id=${app.loginId}&connection_id=${connectionId}&code_challenge=${"A".repeat(42)}`;
    const res = await fetch(entry, { redirect: "manual" });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toContain("code_challenge");
  });
});

describe("what the handover stores", () => {
  it("is the code's SHA-256 and the proven identity: no code, no access or refresh token", async () => {
    const who = account();
    const { verifier, challenge } = pkce();
    const code = await handover(who.id, challenge);
    const tokens = (await exchange(code, verifier)).body;
    const rows = await ctx.sql("SELECT * FROM sso_handovers WHERE project_id = $1 AND email = $2", [
      app.projectId,
      who.email,
    ]);
    expect(rows).toHaveLength(1);
    const row = rows[0] as Record<string, unknown>;
    expect(Object.keys(row).sort()).toEqual(
      [
        "code_challenge",
        "code_hash",
        "connection_id",
        "consumed_at",
        "created_at",
        "email",
        "expires_at",
        "issuer",
        "new_user_metadata_sealed",
        "project_id",
        "subject",
      ].sort(),
    );
    expect(row).toMatchObject({
      code_hash: createHash("sha256").update(code).digest("hex"),
      code_challenge: challenge,
      subject: who.id,
      issuer: world.idp.issuer,
      // Only Apple tells a name to keep for the new user (sso-apple.test.ts).
      new_user_metadata_sealed: null,
    });
    for (const value of Object.values(row)) {
      const text = value instanceof Date ? value.toISOString() : String(value);
      expect(text).not.toContain("gsc_");
      expect(text).not.toContain(code.slice("gsc_".length));
      expect(text).not.toContain(verifier);
      expect(text).not.toContain(tokens.access_token);
      expect(text).not.toContain(tokens.refresh_token);
    }
  });
});
