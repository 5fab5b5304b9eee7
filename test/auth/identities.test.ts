import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/crypto/ids.js";
import { expectError } from "../helpers/account.js";
import { connect, connectReason, http, type HttpAnswer } from "../helpers/clients.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import { authenticator, passkeyProject, register, signIn as passkeySignIn } from "./passkey-helpers.js";
import { expectTokens, newAccount, passwordLogin, verifiedClaims } from "./sso-checks.js";
import { useSsoWorld } from "./sso-helpers.js";

// ListIdentities and UnlinkIdentity (API.md section 7, issue 29). Threats: a user locked out of
// their own account by unlinking the only way they sign in (or by two unlinkings racing); a
// user or another project's key reading or cutting someone else's identities; an unlinking
// that leaves no trace in the audit log; an unlinked provider that can no longer sign the
// user in even with the same verified email.

type Json = Record<string, any>;

const world = useSsoWorld();
const { ctx } = world;

let app: AuthFixture;
let connection: string;
const PASSWORD = "a sturdy passphrase 1";

beforeAll(async () => {
  // A relying party (app.example.com), so passkeys can be registered as a page would.
  app = await passkeyProject(ctx.server);
  connection = await world.connect(app);
});

/** A user made by a first SSO sign-in (no password): its id, tokens and provider account. */
async function ssoUser(tag: string, claims: Json = {}) {
  const account = newAccount(world.idp, tag, claims);
  const tokens = expectTokens(await world.signIn(app, connection, account.id));
  const userId: string = (await verifiedClaims(app, tokens.accessToken)).sub;
  return { userId, token: tokens.accessToken, account };
}

const list = (token?: string, userId = "") =>
  app.call("GET", `/v1/auth/identities${userId ? `?user_id=${userId}` : ""}`, undefined, token);
const unlink = (id: string, token?: string, userId = "") =>
  app.call("DELETE", `/v1/auth/identities/${id}${userId ? `?user_id=${userId}` : ""}`, undefined, token);

async function identitiesOf(userId: string): Promise<Json[]> {
  const res = await list(undefined, userId);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** The user's `user.identity.unlinked` events, as ListAuditEvents shows them to an admin. */
async function auditEvents(userId: string): Promise<Json[]> {
  const res = await http(`${ctx.server.url}/v1/audit-events?project_id=${app.projectId}&user_id=${userId}&limit=100`, {
    headers: await app.admin(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.filter((e: Json) => e.type === "user.identity.unlinked");
}

describe("ListIdentities", () => {
  it("lists the user's own identities with its token, and a named user's as admin, over REST and Connect JSON", async () => {
    const user = await ssoUser("lister");
    const expected = [
      {
        id: expect.stringMatching(/^idn_[0-9a-z]{26}$/),
        connection_id: connection,
        connection_name: "Test IdP",
        connection_provider: "oidc",
        provider: world.idp.issuer,
        subject: user.account.id,
        email: user.account.email,
        linked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ];
    const own = await list(user.token);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body).toEqual({ data: expected });
    expect((await list(user.token, user.userId)).body).toEqual(own.body);
    expect((await list(undefined, user.userId)).body).toEqual(own.body);

    const headers = { "x-service-key": app.key };
    const viaConnect = await connect(ctx.server.url, "auth", "ListIdentities", { user_id: user.userId }, headers);
    expect(viaConnect.status, JSON.stringify(viaConnect.body)).toBe(200);
    expect(viaConnect.body).toEqual(own.body);
    const asUser = { ...headers, authorization: `Bearer ${user.token}` };
    const withToken = await connect(ctx.server.url, "auth", "ListIdentities", {}, asUser);
    expect(withToken.body).toEqual(own.body);

    // GetUser shows the same identities, ids and connections included.
    const got = await app.call("GET", `/v1/auth/users/${user.userId}`);
    expect(got.body.identities).toEqual(own.body.data);
  });

  it("lists oldest first, and nothing for a user with no identity", async () => {
    const user = await ssoUser("two-ways");
    ctx.clock.advance(60_000);
    const second = newAccount(world.idp, "two-ways-again", { email: user.account.email });
    expectTokens(await world.signIn(app, connection, second.id));
    expect((await identitiesOf(user.userId)).map((i) => i.subject)).toEqual([user.account.id, second.id]);

    const plain = await app.signup();
    expect((await list(plain.body.access_token)).body).toEqual({ data: [] });
  });

  it("refuses admin without user_id, an unknown user, another user's with a token, and a key without a token from a page", async () => {
    const user = await ssoUser("guarded");
    const other = await app.signup();
    const missing = await list();
    expectError(missing, 400, "VALIDATION_FAILED");
    expect(missing.body.violations.map((v: Json) => v.field)).toEqual(["user_id"]);
    expectError(await list(undefined, newId("usr")), 404, "USER_NOT_FOUND");
    expectError(await list(undefined, "usr_nonsense"), 404, "USER_NOT_FOUND");
    expectError(await list(other.body.access_token, user.userId), 403, "ADMIN_REQUIRED");

    const created = await http(`${ctx.server.url}/v1/api-keys`, {
      headers: await app.admin(),
      body: { project_id: app.projectId, label: "web", kind: "publishable" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const page = (path: string, bearer?: string) =>
      http(`${ctx.server.url}${path}`, {
        headers: { "x-service-key": created.body.key, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
      });
    expectError(await page(`/v1/auth/identities?user_id=${user.userId}`), 401, "MISSING_ACCESS_TOKEN");
    const fromPage = await page("/v1/auth/identities", user.token);
    expect(fromPage.status, JSON.stringify(fromPage.body)).toBe(200);
    expect(fromPage.body.data).toHaveLength(1);
  });
});

describe("UnlinkIdentity", () => {
  it("unlinks from a user with a password; the password still signs in, the audit log has it, and the provider re-links by verified email", async () => {
    const account = newAccount(world.idp, "with-password");
    const created = await app.call("POST", "/v1/auth/users", {
      email: account.email,
      password: PASSWORD,
      email_verified: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const userId: string = created.body.id;
    const signedIn = expectTokens(await world.signIn(app, connection, account.id));
    expect((await verifiedClaims(app, signedIn.accessToken)).sub).toBe(userId);
    const [identity] = await identitiesOf(userId);

    const res = await unlink(identity.id, signedIn.accessToken);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ deleted: true, id: identity.id });
    expect(await identitiesOf(userId)).toEqual([]);
    expect((await app.call("GET", `/v1/auth/users/${userId}`)).body.identities).toEqual([]);
    expect((await passwordLogin(app, account.email, PASSWORD)).status).toBe(200);
    expectError(await unlink(identity.id, signedIn.accessToken), 404, "IDENTITY_NOT_FOUND");

    expect(await auditEvents(userId)).toEqual([
      expect.objectContaining({
        type: "user.identity.unlinked",
        user_id: userId,
        target_id: identity.id,
        actor_type: "user",
        actor_id: userId,
        details: { connection_id: connection },
      }),
    ]);

    // Signing in through the provider again links it again, to the same user, as a new identity.
    const again = expectTokens(await world.signIn(app, connection, account.id));
    expect((await verifiedClaims(app, again.accessToken)).sub).toBe(userId);
    const relinked = await identitiesOf(userId);
    expect(relinked).toEqual([expect.objectContaining({ subject: account.id, email: account.email })]);
    expect(relinked[0].id).not.toBe(identity.id);
  });

  it("refuses the last way to sign in: no password, no passkey, no other identity", async () => {
    const user = await ssoUser("only-way");
    const [identity] = await identitiesOf(user.userId);
    const res = await unlink(identity.id, user.token);
    expectError(res, 400, "LAST_SIGN_IN_METHOD");
    expect(res.body.code).toBe("failed_precondition");
    const viaConnect = await connect(
      ctx.server.url,
      "auth",
      "UnlinkIdentity",
      { id: identity.id, user_id: user.userId },
      { "x-service-key": app.key },
    );
    expect({ status: viaConnect.status, code: viaConnect.body.code, reason: connectReason(viaConnect.body) }).toEqual({
      status: 400,
      code: "failed_precondition",
      reason: "LAST_SIGN_IN_METHOD",
    });
    expect(await identitiesOf(user.userId)).toEqual([identity]);
    expect(await auditEvents(user.userId)).toEqual([]);
    // The identity still signs the user in.
    const back = expectTokens(await world.signIn(app, connection, user.account.id));
    expect((await verifiedClaims(app, back.accessToken)).sub).toBe(user.userId);
  });

  it("unlinks from a user with a passkey, which then still signs in", async () => {
    const user = await ssoUser("with-passkey");
    const device = authenticator();
    const { finish } = await register(app, device, { bearer: user.token }, {}, "Laptop");
    expect(finish.status, JSON.stringify(finish.body)).toBe(200);
    const [identity] = await identitiesOf(user.userId);

    const res = await unlink(identity.id, user.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await identitiesOf(user.userId)).toEqual([]);
    const signedIn = await passkeySignIn(app, device);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.user.id).toBe(user.userId);
  });

  it("unlinks one of two identities as admin; the other is then the last", async () => {
    const user = await ssoUser("two-identities");
    const second = newAccount(world.idp, "two-identities-b", { email: user.account.email });
    expectTokens(await world.signIn(app, connection, second.id));
    const [first, other] = await identitiesOf(user.userId);

    const missing = await unlink(first.id);
    expectError(missing, 400, "VALIDATION_FAILED");
    expect(missing.body.violations.map((v: Json) => v.field)).toEqual(["user_id"]);

    const res = await unlink(first.id, undefined, user.userId);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ deleted: true, id: first.id });
    expect(await identitiesOf(user.userId)).toEqual([other]);
    expect(await auditEvents(user.userId)).toEqual([
      expect.objectContaining({ target_id: first.id, actor_type: "api_key" }),
    ]);
    expectError(await unlink(other.id, undefined, user.userId), 400, "LAST_SIGN_IN_METHOD");
  });

  it("two unlinkings of a user's last two identities at once: one wins, the other is refused", async () => {
    const user = await ssoUser("racing");
    const second = newAccount(world.idp, "racing-b", { email: user.account.email });
    expectTokens(await world.signIn(app, connection, second.id));
    const both = await identitiesOf(user.userId);
    expect(both).toHaveLength(2);

    const answers: HttpAnswer[] = await Promise.all(both.map((i) => unlink(i.id, user.token)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect(answers.find((a) => a.status === 400)!.body.reason).toBe("LAST_SIGN_IN_METHOD");
    expect(await identitiesOf(user.userId)).toHaveLength(1);
  });

  it("another user's identity, another project's, and unknown ids are IDENTITY_NOT_FOUND; nothing is unlinked", async () => {
    const victim = await ssoUser("victim");
    const withPassword = await app.signup();
    const [identity] = await identitiesOf(victim.userId);

    // Another user of the project, with its own token: the id is not one of its identities.
    expectError(await unlink(identity.id, withPassword.body.access_token), 404, "IDENTITY_NOT_FOUND");
    expectError(await unlink(identity.id, withPassword.body.access_token, victim.userId), 403, "ADMIN_REQUIRED");
    // As admin, naming a user that does not hold it.
    expectError(await unlink(identity.id, undefined, withPassword.body.user.id), 404, "IDENTITY_NOT_FOUND");
    // Another project's key, naming the right user and identity.
    const other = await authFixture(ctx.server);
    expectError(
      await other.call("DELETE", `/v1/auth/identities/${identity.id}?user_id=${victim.userId}`),
      404,
      "IDENTITY_NOT_FOUND",
    );
    expectError(await other.call("GET", `/v1/auth/identities?user_id=${victim.userId}`), 404, "USER_NOT_FOUND");
    for (const id of [newId("idn"), "idn_nonsense", newId("usr")])
      expectError(await unlink(id, victim.token), 404, "IDENTITY_NOT_FOUND");
    expectError(await unlink(identity.id, undefined, newId("usr")), 404, "IDENTITY_NOT_FOUND");

    expect(await identitiesOf(victim.userId)).toEqual([identity]);
    expect(await auditEvents(victim.userId)).toEqual([]);
  });
});
