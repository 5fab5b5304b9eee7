import { describe, expect, it } from "vitest";
import { http } from "../helpers/clients.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { expectReason, newEmail, passwordlessProject, type PasswordlessProject } from "./passwordless-helpers.js";

// Signup controls (API.md section 7, issue 25): who may become a user through the public paths.
// What a user checks: Signup refused with SIGNUPS_CLOSED; codes and links answered as always
// but sent to registered addresses only; a code or link from before the change refused as
// unknown with nothing written (so it works again once the project reopens); users who exist
// sign in as before; and the settings as GetProject shows them.

const CODE = /\b(\d{6})\b/;
const LINK_TOKEN = /[?&]token=(gml_[A-Za-z0-9_-]+)/;
const PASSWORD = "a sturdy passphrase 1";

describe("signup controls", () => {
  const ctx = useMessagingServer({ smtp: true });
  const { sql } = ctx;

  /** A project of its own (settings are per project), with one registered user. */
  async function project(settings: Record<string, unknown>): Promise<PasswordlessProject & { member: string }> {
    const app = await passwordlessProject(ctx.server);
    const member = newEmail("member");
    expect((await app.call("POST", "/v1/auth/signup", { email: member, password: PASSWORD })).status).toBe(200);
    const updated = await update(app, settings);
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    return { ...app, member };
  }
  const update = (app: PasswordlessProject, body: Record<string, unknown>) =>
    http(`${ctx.server.url}/v1/projects/${app.projectId}`, { method: "PATCH", headers: app.management, body });
  const users = (app: PasswordlessProject, email: string) =>
    sql(`SELECT id FROM users WHERE project_id = $1 AND email_normalized = $2`, [app.projectId, email.toLowerCase()]);
  const queued = (email: string) => sql(`SELECT id FROM outbox WHERE recipient = $1`, [email]);

  async function codeFor(email: string, nth = 1): Promise<string> {
    return CODE.exec((await ctx.smtp.waitFor(email, { nth })).text)![1];
  }
  async function linkFor(email: string, nth = 1): Promise<string> {
    return LINK_TOKEN.exec((await ctx.smtp.waitFor(email, { nth })).text)![1];
  }

  it("a new project is open to every method; GetProject and UpdateProject show the settings, domains canonical", async () => {
    const app = await passwordlessProject(ctx.server);
    const get = () =>
      http(`${ctx.server.url}/v1/projects/${app.projectId}`, { method: "GET", headers: app.management });
    expect((await get()).body).toMatchObject({
      signups: "open",
      signup_email_domains: [],
      signup_methods: ["password", "otp", "magic_link", "sso"],
    });
    const res = await update(app, {
      signups: "allowlist",
      signup_email_domains: ["Example.COM", "bücher.example", "example.com"],
      signup_methods: ["password", "sso"],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const expected = {
      signups: "allowlist",
      signup_email_domains: ["example.com", "xn--bcher-kva.example"],
      signup_methods: ["password", "sso"],
    };
    expect(res.body).toMatchObject(expected);
    expect((await get()).body).toMatchObject(expected);
    // Leaving the allowlist keeps the domains for later; an empty list changes nothing.
    expect((await update(app, { signups: "open", signup_email_domains: [] })).body).toMatchObject({
      signups: "open",
      signup_email_domains: ["example.com", "xn--bcher-kva.example"],
    });
  });

  it("bad settings are VALIDATION_FAILED naming the field, and change nothing", async () => {
    const app = await passwordlessProject(ctx.server);
    const violations = async (body: Record<string, unknown>) => {
      const res = await update(app, body);
      expectReason(res, 400, "VALIDATION_FAILED");
      return (res.body.violations as Array<{ field: string }>).map((v) => v.field);
    };
    expect(await violations({ signups: "sometimes" })).toEqual(["signups"]);
    expect(await violations({ signup_methods: ["otp", "passkey"] })).toEqual(["signup_methods[1]"]);
    expect(await violations({ signup_email_domains: ["@example.com", "*.example.com", "example.com"] })).toEqual([
      "signup_email_domains[0]",
      "signup_email_domains[1]",
    ]);
    // An allowlist with no domain would close the project by accident.
    expect(await violations({ signups: "allowlist" })).toEqual(["signup_email_domains"]);
    const get = await http(`${ctx.server.url}/v1/projects/${app.projectId}`, {
      method: "GET",
      headers: app.management,
    });
    expect(get.body).toMatchObject({ signups: "open", signup_email_domains: [] });
  });

  it("closed: Signup is SIGNUPS_CLOSED for every address and writes nothing; users who exist still sign in", async () => {
    const app = await project({ signups: "closed" });
    for (const email of [newEmail("stranger"), app.member]) {
      const res = await app.call("POST", "/v1/auth/signup", { email, password: PASSWORD });
      expectReason(res, 403, "SIGNUPS_CLOSED");
    }
    const stranger = newEmail("stranger");
    await app.call("POST", "/v1/auth/signup", { email: stranger, password: PASSWORD });
    expect(await users(app, stranger)).toEqual([]);
    const login = await app.call("POST", "/v1/auth/login", { email: app.member, password: PASSWORD });
    expect(login.status).toBe(200);
  });

  it("closed: SendOtp and SendMagicLink answer as always, but only a registered address gets a message", async () => {
    const app = await project({ signups: "closed" });
    const stranger = newEmail("stranger");
    for (const path of ["/v1/auth/otp/send", "/v1/auth/magic-link/send"]) {
      const unknown = await app.call("POST", path, { email: stranger });
      const known = await app.call("POST", path, { email: app.member });
      expect(unknown.status).toBe(200);
      expect(unknown.body).toEqual(known.body);
      // A second send within the minute answers the same for both, and sends nothing more.
      const again = await app.call("POST", path, { email: app.member });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(known.body);
    }
    // Sent after the answers, so in either order: one code and one link, nothing for the stranger.
    await ctx.smtp.waitFor(app.member, { nth: 2 });
    const mails = ctx.smtp.messages.filter((m) => m.to.includes(app.member));
    expect(mails).toHaveLength(2);
    const [links, codes] = [
      mails.filter((m) => LINK_TOKEN.test(m.text)),
      mails.filter((m) => !LINK_TOKEN.test(m.text)),
    ];
    expect([links.length, codes.length]).toEqual([1, 1]);
    const code = CODE.exec(codes[0].text)![1];
    expect(await queued(stranger)).toEqual([]);
    // The member's code signs in; the stranger has none, and no guess makes them a user.
    const signedIn = await app.call("POST", "/v1/auth/otp/verify", { email: app.member, otp: code });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expectReason(await app.call("POST", "/v1/auth/otp/verify", { email: stranger, otp: code }), 401, "INVALID_CODE");
    expect(await users(app, stranger)).toEqual([]);
  });

  it("a code and a link sent while open, for an address the project no longer admits: refused as unknown, left unspent", async () => {
    const app = await project({});
    const stranger = newEmail("early");
    expect((await app.call("POST", "/v1/auth/otp/send", { email: stranger })).status).toBe(200);
    const code = await codeFor(stranger);
    expect((await app.call("POST", "/v1/auth/magic-link/send", { email: stranger })).status).toBe(200);
    const token = await linkFor(stranger, 2);

    expect((await update(app, { signups: "closed" })).status).toBe(200);
    expectReason(await app.call("POST", "/v1/auth/otp/verify", { email: stranger, otp: code }), 401, "INVALID_CODE");
    expectReason(await app.call("POST", "/v1/auth/magic-link/verify", { token }), 401, "INVALID_LINK");
    expect(await users(app, stranger)).toEqual([]);

    // Nothing was written: reopened, the same code signs the address up, and the link signs it in.
    expect((await update(app, { signups: "open" })).status).toBe(200);
    const byCode = await app.call("POST", "/v1/auth/otp/verify", { email: stranger, otp: code });
    expect(byCode.status, JSON.stringify(byCode.body)).toBe(200);
    const byLink = await app.call("POST", "/v1/auth/magic-link/verify", { token });
    expect(byLink.status, JSON.stringify(byLink.body)).toBe(200);
    expect(byLink.body.user.id).toBe(byCode.body.user.id);
  });

  it("allowlist: only addresses at a listed domain sign up, matched exactly and without regard to case", async () => {
    const app = await project({ signups: "allowlist", signup_email_domains: ["example.org"] });
    const signup = (email: string) => app.call("POST", "/v1/auth/signup", { email, password: PASSWORD });
    expect((await signup(`ada-${Date.now()}@Example.ORG`)).status).toBe(200);
    expectReason(await signup(`eve-${Date.now()}@mail.example.org`), 403, "SIGNUPS_CLOSED");
    expectReason(await signup(`eve-${Date.now()}@example.org.evil.test`), 403, "SIGNUPS_CLOSED");
    // A code to an address outside the list goes nowhere; one inside signs up.
    const outside = `eve-${Date.now()}@elsewhere.test`;
    const inside = `kim-${Date.now()}@example.org`;
    expect((await app.call("POST", "/v1/auth/otp/send", { email: outside })).status).toBe(200);
    expect((await app.call("POST", "/v1/auth/otp/send", { email: inside })).status).toBe(200);
    const res = await app.call("POST", "/v1/auth/otp/verify", { email: inside, otp: await codeFor(inside) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await queued(outside)).toEqual([]);
  });

  it("signup_methods and create_user: a method left out, or create_user false, sends to registered addresses only", async () => {
    const app = await project({ signup_methods: ["password", "magic_link", "sso"] });
    const stranger = newEmail("no-otp");
    expect((await app.call("POST", "/v1/auth/otp/send", { email: stranger })).status).toBe(200);
    // Signup is still open, and a link still signs up: the refusal is the code's alone.
    expect((await app.call("POST", "/v1/auth/magic-link/send", { email: stranger })).status).toBe(200);
    await linkFor(stranger);
    expect(await queued(stranger)).toHaveLength(1);

    const open = await project({});
    const quiet = newEmail("quiet");
    const asked = await open.call("POST", "/v1/auth/magic-link/send", { email: quiet, create_user: false });
    expect(asked.status).toBe(200);
    expect((await open.call("POST", "/v1/auth/otp/send", { email: quiet, create_user: false })).status).toBe(200);
    expect((await open.call("POST", "/v1/auth/otp/send", { email: open.member, create_user: false })).status).toBe(200);
    await codeFor(open.member);
    expect(await queued(quiet)).toEqual([]);
  });
});
