import { describe, expect, it } from "vitest";
import { createProject } from "../../src/flows/projects/create-project.js";
import type { RateLimitOverrides } from "../../src/domain/rate-limits.js";
import { connectReason, grpcCall, grpcClient, type HttpAnswer } from "../helpers/clients.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { seedApiKey, seedOrganization } from "../helpers/seed.js";
import type { ReceivedMail } from "../helpers/smtp.js";
import { expectReason, newEmail } from "./passwordless-helpers.js";
import { injectConnect, injectHttp } from "../helpers/inject.js";

// Threat: anyone holding a project's public credential (its publishable key, which is in every
// page of the application, or the hosted pages' login_id) learns who is registered from
// Signup's 409 EMAIL_EXISTS. With `reveal_email_exists` off (the default) a public signup
// answers `{confirmation_required: true}` for every address; the mailbox tells them apart: a
// new address gets the link that makes the account, a registered one a notice.

const PUBLIC = "http://gatehouse.test";
const REDIRECT = "https://app.example.com/callback";
const OWNER_PASSWORD = "the owner's own passphrase";
const ATTACKER_PASSWORD = "the attacker's passphrase 1";
const CONFIRM_LINK = /https:\/\/app\.example\.com\/callback\?token=(gml_[A-Za-z0-9_-]+)&type=magic_link/;

describe("signup from public credentials: confirmation by email", () => {
  const env = useMessagingServer({ smtp: true, env: { PUBLIC_URL: PUBLIC } });

  async function project(
    settings: { mfaRequired?: boolean; revealEmailExists?: boolean; rateLimits?: RateLimitOverrides } = {},
  ) {
    const { organization, email, password } = await seedOrganization(env.server.deps);
    const created = await createProject(env.server.deps, organization.id, {
      name: "Quill",
      description: "",
      mfaRequired: settings.mfaRequired ?? false,
      sendVerification: false,
      allowedOrigins: ["https://app.example.com"],
      redirectUrl: REDIRECT,
      revealEmailExists: settings.revealEmailExists,
      rateLimits: settings.rateLimits,
    });
    const secret = (await seedApiKey(env.server.deps, created)).key;
    const publishable = (
      await seedApiKey(env.server.deps, created, { kind: "publishable", scopes: ["auth:read", "auth:write"] })
    ).key;
    const rest = (key: string) => (method: string, path: string, body?: unknown) =>
      injectHttp(env.server.handle, path, {
        method,
        headers: { "x-service-key": key },
        body: method === "GET" ? undefined : (body ?? {}),
      });
    const page = { "x-gatehouse-page": created.loginId, origin: PUBLIC };
    return {
      id: created.id,
      secret,
      publishable,
      page,
      /** REST with the secret key. */
      admin: rest(secret),
      /** REST with the publishable key. */
      public: rest(publishable),
      async management() {
        const login = await injectHttp(env.server.handle, "/v1/account/login", { body: { email, password } });
        return { authorization: `Bearer ${login.body.management_token}` };
      },
      /** A user made with the secret key, with its own password and metadata. */
      async registered(address = newEmail("owner")) {
        const res = await rest(secret)("POST", "/v1/auth/signup", {
          email: address,
          password: OWNER_PASSWORD,
          metadata: { plan: "owner" },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return { email: address, id: res.body.user.id as string };
      },
    };
  }
  type App = Awaited<ReturnType<typeof project>>;

  /** The raw REST answer: status and the exact body text. */
  async function rawSignup(headers: Record<string, string>, body: unknown, path = "/v1/auth/signup") {
    const res = await fetch(`${env.server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  }

  const attempt = (email: string) => ({ email, password: ATTACKER_PASSWORD, metadata: { plan: "attacker" } });

  /** The mails to `email` once every detached send has been queued and delivered. */
  async function mailsTo(email: string, count: number): Promise<ReceivedMail[]> {
    await env.server.deps.detached.settle();
    const last = await env.smtp.waitFor(email, { nth: count });
    const all = env.smtp.messages.filter((m) => m.to.some((to) => to.toLowerCase() === email.toLowerCase()));
    expect(all.at(-1)).toBe(last);
    return all;
  }

  /** No mail to `email` is queued or sent beyond `count` (the outbox holds every mail, sent or not). */
  async function expectMailCount(email: string, count: number) {
    await env.server.deps.detached.settle();
    const rows = await env.sql(`SELECT count(*)::int AS n FROM outbox WHERE lower(recipient) = lower($1)`, [email]);
    expect(rows[0].n, `mails to ${email}`).toBe(count);
  }

  async function expectConfirmationMail(email: string): Promise<string> {
    const [mail] = await mailsTo(email, 1);
    expect(mail.subject).toBe("Confirm your email to finish signing up to Quill");
    const token = CONFIRM_LINK.exec(mail.text)?.[1];
    expect(token, mail.text).toBeTruthy();
    return token!;
  }

  async function expectNotice(email: string) {
    const [mail] = await mailsTo(email, 1);
    expect(mail.subject).toBe("Someone tried to sign up to Quill with your email address");
    expect(mail.text).toContain("already has one");
    // A notice changes nothing, so it carries nothing to click.
    expect(`${mail.text}${mail.html}`).not.toMatch(/token=|https?:\/\//);
  }

  async function expectLogin(app: App, email: string, password: string, status: number) {
    const res = await app.public("POST", "/v1/auth/login", { email, password });
    if (status === 200) expect(res.status, JSON.stringify(res.body)).toBe(200);
    else expectReason(res, 401, "INVALID_CREDENTIALS");
    return res;
  }

  async function expectNoUser(app: App, email: string) {
    const found = await app.admin("GET", `/v1/auth/users?search=${encodeURIComponent(email)}`);
    expect(found.body.data.filter((u: { email: string }) => u.email === email)).toEqual([]);
  }

  async function expectOwnerUnchanged(app: App, owner: { email: string; id: string }) {
    const user = await app.admin("GET", `/v1/auth/users/${owner.id}`);
    expect(user.body).toMatchObject({ email: owner.email, metadata: { plan: "owner" } });
    await expectLogin(app, owner.email, OWNER_PASSWORD, 200);
    await expectLogin(app, owner.email, ATTACKER_PASSWORD, 401);
  }

  it("a publishable key gets byte-identical answers for a new and a registered address, over REST, Connect and gRPC", async () => {
    const app = await project();
    const owners = [await app.registered(), await app.registered(), await app.registered()];
    const fresh = [newEmail("new"), newEmail("new"), newEmail("new")];
    const key = { "x-service-key": app.publishable };

    const restNew = await rawSignup(key, attempt(fresh[0]));
    const restTaken = await rawSignup(key, attempt(owners[0].email));
    expect(restNew).toEqual({ status: 200, text: restTaken.text });
    expect(JSON.parse(restNew.text)).toEqual({ mfa_methods: [], confirmation_required: true });

    const connectNew = await rawSignup(key, attempt(fresh[1]), "/gatehouse.auth.v1.AuthService/Signup");
    const connectTaken = await rawSignup(key, attempt(owners[1].email), "/gatehouse.auth.v1.AuthService/Signup");
    expect(connectNew).toEqual({ status: 200, text: connectTaken.text });
    expect(JSON.parse(connectNew.text)).toEqual({ mfa_methods: [], confirmation_required: true });

    const client = grpcClient(env.server.port, "auth");
    const grpcNew = await grpcCall(client, "Signup", attempt(fresh[2]), key);
    const grpcTaken = await grpcCall(client, "Signup", attempt(owners[2].email), key);
    expect(grpcNew.error).toBeUndefined();
    expect(grpcNew.response).toEqual(grpcTaken.response);
    expect(grpcNew.response).toMatchObject({ confirmation_required: true, user: null, mfa_methods: [] });
    expect(grpcNew.response.access_token).toBeFalsy();

    for (const email of fresh) {
      await expectConfirmationMail(email);
      // Nothing exists before the link is opened: the chosen password does not sign in.
      await expectNoUser(app, email);
      await expectLogin(app, email, ATTACKER_PASSWORD, 401);
    }
    for (const owner of owners) {
      await expectNotice(owner.email);
      await expectOwnerUnchanged(app, owner);
    }
  });

  it("the confirmation link signs the new user in; the chosen password then works and the metadata is kept", async () => {
    const app = await project();
    const email = newEmail("confirm");
    expect((await app.public("POST", "/v1/auth/signup", attempt(email))).body).toEqual({
      mfa_methods: [],
      confirmation_required: true,
    });
    const token = await expectConfirmationMail(email);
    await expectLogin(app, email, ATTACKER_PASSWORD, 401);

    const verified = await app.public("POST", "/v1/auth/magic-link/verify", { token });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body).toMatchObject({
      token_type: "Bearer",
      user: { email, email_verified: true, metadata: { plan: "attacker" } },
    });
    expect(verified.body.access_token).toBeTruthy();
    // Once: the link is spent.
    expectReason(await app.public("POST", "/v1/auth/magic-link/verify", { token }), 401, "INVALID_LINK");

    const login = await expectLogin(app, email, ATTACKER_PASSWORD, 200);
    expect(login.body.user.id).toBe(verified.body.user.id);
    // The spent link keeps no password hash.
    const link = await env.sql(`SELECT signup_password_hash, signup_metadata FROM magic_links WHERE project_id = $1`, [
      app.id,
    ]);
    expect(link).toEqual([{ signup_password_hash: null, signup_metadata: null }]);
    const stored = await app.admin("GET", `/v1/auth/users/${verified.body.user.id}`);
    expect(stored.body).toMatchObject({ email, email_verified: true, metadata: { plan: "attacker" } });
  });

  it("the hosted pages' credential behaves the same: one answer, a link for the new address, a notice for the registered one", async () => {
    const app = await project();
    const owner = await app.registered();
    const email = newEmail("page");
    const taken = await injectConnect(env.server.handle, "auth", "Signup", attempt(owner.email), app.page);
    const fresh = await injectConnect(env.server.handle, "auth", "Signup", attempt(email), app.page);
    expect(fresh.status).toBe(200);
    expect(fresh.body).toEqual({ mfa_methods: [], confirmation_required: true });
    expect(taken.body).toEqual(fresh.body);

    await expectNotice(owner.email);
    await expectOwnerUnchanged(app, owner);
    const token = await expectConfirmationMail(email);
    await expectLogin(app, email, ATTACKER_PASSWORD, 401);
    const verified = await injectConnect(env.server.handle, "auth", "VerifyMagicLink", { token }, app.page);
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body.user).toMatchObject({ email, email_verified: true, metadata: { plan: "attacker" } });
    await expectLogin(app, email, ATTACKER_PASSWORD, 200);
  });

  it("a secret key still signs up at once and gets 409 EMAIL_EXISTS, in the same project", async () => {
    const app = await project();
    const owner = await app.registered();
    const email = newEmail("secret");
    expect((await app.public("POST", "/v1/auth/signup", attempt(owner.email))).body).toEqual({
      mfa_methods: [],
      confirmation_required: true,
    });

    const again = await app.admin("POST", "/v1/auth/signup", attempt(owner.email));
    expectReason(again, 409, "EMAIL_EXISTS");
    const made = await app.admin("POST", "/v1/auth/signup", attempt(email));
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ token_type: "Bearer", user: { email, email_verified: false } });
    expect(made.body).not.toHaveProperty("confirmation_required");
    await expectLogin(app, email, ATTACKER_PASSWORD, 200);
  });

  it("with reveal_email_exists a publishable key gets 409 and an immediate session again; the setting defaults to false", async () => {
    const app = await project();
    const management = await app.management();
    const read = await injectHttp(env.server.handle, `/v1/projects/${app.id}`, { headers: management });
    expect(read.body.reveal_email_exists).toBe(false);
    const owner = await app.registered();
    expect((await app.public("POST", "/v1/auth/signup", attempt(owner.email))).body).toEqual({
      mfa_methods: [],
      confirmation_required: true,
    });

    const updated = await injectHttp(env.server.handle, `/v1/projects/${app.id}`, {
      method: "PATCH",
      headers: management,
      body: { reveal_email_exists: true },
    });
    expect(updated.body.reveal_email_exists).toBe(true);
    expectReason(await app.public("POST", "/v1/auth/signup", attempt(owner.email)), 409, "EMAIL_EXISTS");
    const page = await injectConnect(env.server.handle, "auth", "Signup", attempt(owner.email), app.page);
    expect({ status: page.status, reason: connectReason(page.body) }).toEqual({ status: 409, reason: "EMAIL_EXISTS" });
    const email = newEmail("revealed");
    const made = await app.public("POST", "/v1/auth/signup", attempt(email));
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ token_type: "Bearer", user: { email } });
    expect(made.body).not.toHaveProperty("confirmation_required");
  });

  it("a confirmation link opened after the address got registered signs that user in and changes nothing of theirs", async () => {
    const app = await project();
    const email = newEmail("late");
    await app.public("POST", "/v1/auth/signup", attempt(email));
    const token = await expectConfirmationMail(email);
    const owner = await app.registered(email);

    const verified = await app.public("POST", "/v1/auth/magic-link/verify", { token });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body.user).toMatchObject({ id: owner.id, email, metadata: { plan: "owner" } });
    await expectOwnerUnchanged(app, owner);
  });

  it("in a project with mfa_required the confirmation ends in the enrollment challenge", async () => {
    const app = await project({ mfaRequired: true });
    const email = newEmail("mfa");
    expect((await app.public("POST", "/v1/auth/signup", attempt(email))).body).toEqual({
      mfa_methods: [],
      confirmation_required: true,
    });
    const token = await expectConfirmationMail(email);
    const verified = await app.public("POST", "/v1/auth/magic-link/verify", { token });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body).toMatchObject({ mfa_required: true, mfa_methods: [] });
    expect(verified.body.mfa_token).toBeTruthy();
    expect(verified.body.access_token).toBeUndefined();
    // The user exists with the chosen password, held at enrollment.
    const login = await expectLogin(app, email, ATTACKER_PASSWORD, 200);
    expect(login.body).toMatchObject({ mfa_required: true, mfa_methods: [] });
  });

  it("over the address's send limit nothing is mailed and the answer stays the same, for both kinds of address", async () => {
    const app = await project({ rateLimits: { sendsPerDestination: 1 } });
    const owner = await app.registered();
    const email = newEmail("limit");
    const answers: HttpAnswer[] = [];
    for (const address of [email, owner.email, email, owner.email])
      answers.push(await app.public("POST", "/v1/auth/signup", attempt(address)));
    for (const answer of answers)
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 200,
        body: { mfa_methods: [], confirmation_required: true },
      });
    await expectConfirmationMail(email);
    await expectNotice(owner.email);
    await expectMailCount(email, 1);
    await expectMailCount(owner.email, 1);
  });

  it("a sign-in link asked for right after a public signup is sent for either kind of address (the pending signup holds no interval)", async () => {
    const app = await project();
    const owner = await app.registered();
    const email = newEmail("then-link");
    for (const address of [email, owner.email]) {
      expect((await app.public("POST", "/v1/auth/signup", attempt(address))).body).toEqual({
        mfa_methods: [],
        confirmation_required: true,
      });
      await env.server.deps.detached.settle();
      const link = await app.public("POST", "/v1/auth/magic-link/send", { email: address });
      expect({ address, status: link.status }).toEqual({ address, status: 200 });
    }
    // The ordinary link replaced the pending signup: it signs up without the signup's password.
    const [, linkMail] = await mailsTo(email, 2);
    const token = /token=(gml_[A-Za-z0-9_-]+)/.exec(linkMail.text)![1];
    const verified = await app.public("POST", "/v1/auth/magic-link/verify", { token });
    expect(verified.body.user).toMatchObject({ email, metadata: {} });
    await expectLogin(app, email, ATTACKER_PASSWORD, 401);
  });
});
