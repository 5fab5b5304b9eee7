import { createHash, randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { expectFragmentError, expectPage, newAccount } from "../auth/sso-checks.js";
import { CALLBACK_URL, useSsoWorld } from "../auth/sso-helpers.js";
import { auditApp, type AuditApp } from "./helpers.js";

// Threat: someone probing a project's SSO (replayed or forged callbacks, forged ID tokens, a
// disabled user trying the IdP door after the password door was shut) leaves no trace the
// organization can read, while the same attempts with a password are recorded. Every refused
// SSO callback and exchange whose project is known is a `user.login.failed` with method "sso",
// the reason the application got, and the redirect's `error`. Against the real test provider.

const world = useSsoWorld();
let app: AuditApp;
let connection: string;

beforeAll(async () => {
  app = await auditApp(world.ctx.server);
  connection = await world.connect(app);
});

async function authorize(): Promise<string> {
  const start = await app.call("POST", "/v1/auth/sso/authorize", { connection_id: connection });
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  return start.body.authorization_url;
}

/** The newest failed sign-in of the project, after checking it is the only new one. */
async function lastFailure(before: number): Promise<any> {
  const failed = await app.events({ type: "user.login.failed" });
  expect(failed).toHaveLength(before + 1);
  return failed[0];
}

const failures = async () => (await app.events({ type: "user.login.failed" })).length;

describe("audit: SSO sign-in failures", () => {
  it("the provider refuses (the user aborts): SSO_FAILED with error access_denied, anonymous, from the browser's address", async () => {
    const before = await failures();
    const answer = await world.signIn(app, connection, newAccount(world.idp, "aborting").id, { deny: true });
    expectFragmentError(answer, "access_denied");
    const event = await lastFailure(before);
    expect(event).toMatchObject({
      project_id: app.projectId,
      user_id: "",
      actor_type: "anonymous",
      reason: "SSO_FAILED",
      details: { method: "sso", error: "access_denied" },
    });
    expect(event.ip_address).not.toBe("");
  });

  it("a forged ID token signature: SSO_FAILED with error sso_failed", async () => {
    const before = await failures();
    world.idp.tamper("signature");
    let answer;
    try {
      answer = await world.signIn(app, connection, newAccount(world.idp, "forged").id);
    } finally {
      world.idp.tamper(null);
    }
    expectFragmentError(answer, "sso_failed");
    expect(await lastFailure(before)).toMatchObject({
      reason: "SSO_FAILED",
      details: { method: "sso", error: "sso_failed" },
    });
  });

  it("an unverified email at the provider: SSO_FAILED with error unverified_email", async () => {
    const before = await failures();
    const answer = await world.signIn(
      app,
      connection,
      newAccount(world.idp, "unverified", { email_verified: false }).id,
    );
    expectFragmentError(answer, "unverified_email");
    expect(await lastFailure(before)).toMatchObject({
      reason: "SSO_FAILED",
      details: { method: "sso", error: "unverified_email" },
    });
  });

  it("a flow finished after 10 minutes: SSO_FAILED with error flow_expired", async () => {
    const before = await failures();
    const late = await authorize();
    world.ctx.clock.advance(10 * 60_000 + 1_000);
    const answer = await world.callback(await world.idp.signIn(late, newAccount(world.idp, "late").id));
    expectFragmentError(answer, "flow_expired");
    expect(await lastFailure(before)).toMatchObject({
      reason: "SSO_FAILED",
      details: { method: "sso", error: "flow_expired" },
    });
  });

  it("a disabled user: USER_DISABLED with the user as actor and the provider's email as a hash only", async () => {
    const who = newAccount(world.idp, "disabled");
    const first = await world.signIn(app, connection, who.id);
    expect(first.fragment.get("access_token")).toBeTruthy();
    const [signup] = await app.events({ type: "user.signup" });
    expect(signup.details).toEqual({ method: "sso", amr: ["sso"] });
    const userId = signup.user_id;
    expect((await app.call("PATCH", `/v1/auth/users/${userId}`, { disabled: true })).status).toBe(200);

    const before = await failures();
    expectFragmentError(await world.signIn(app, connection, who.id), "user_disabled");
    const event = await lastFailure(before);
    expect(event).toMatchObject({
      user_id: userId,
      actor_type: "user",
      actor_id: userId,
      reason: "USER_DISABLED",
      details: { method: "sso", error: "user_disabled" },
    });
    expect(event.email_hash).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(event)).not.toContain(who.email);
  });

  it("a callback with no known flow is a page and records nothing: it names no project", async () => {
    const before = await app.events();
    expectPage(
      await world.callback(`${CALLBACK_URL}?code=some-code&state=never-issued-state`),
      /already used or never started/,
    );
    expect(await app.events()).toEqual(before);
  });

  it("SsoExchange with a wrong verifier: INVALID_CODE with method sso and the identity's email hash", async () => {
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const answer = await world.signIn(app, connection, newAccount(world.idp, "handover").id, {
      codeChallenge: challenge,
    });
    const code = new URL(answer.location!).searchParams.get("code")!;
    const before = await failures();
    const refused = await app.call("POST", "/v1/auth/sso/exchange", {
      code,
      code_verifier: randomBytes(32).toString("base64url"),
    });
    expect([refused.status, refused.body.reason]).toEqual([401, "INVALID_CODE"]);
    const event = await lastFailure(before);
    expect(event).toMatchObject({ reason: "INVALID_CODE", actor_type: "anonymous", details: { method: "sso" } });
    expect(event.email_hash).toMatch(/^[0-9a-f]{32}$/);
  });
});
