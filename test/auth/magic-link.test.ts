import { beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../src/crypto/tokens.js";
import { connectReason, grpcCall, grpcClient, http } from "../helpers/clients.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import {
  expectReason,
  newEmail,
  OTHER_ALLOWED_ORIGIN,
  passwordlessProject,
  PROJECT_NAME,
  REDIRECT_URL,
  usagePeriod,
  verifiedClaims,
  type PasswordlessProject,
} from "./passwordless-helpers.js";
import { injectConnect } from "../helpers/inject.js";

// Threats against sign-in links: an answer telling whether an address is registered, a link
// that carries its token to a site the project did not name, a link used twice, after a newer
// one, after fifteen minutes or in another project, two racing uses both signing in, and a
// stored token a stolen table would give away.

const LINK = /https:\/\/[^\s"<>]+[?&]token=gml_[A-Za-z0-9_-]+[^\s"<>]*/;

describe("magic links", () => {
  const ctx = useMessagingServer({ smtp: true });
  const { clock, sql } = ctx;
  let app: PasswordlessProject;
  let other: PasswordlessProject;

  beforeAll(async () => {
    app = await passwordlessProject(ctx.server);
    other = await passwordlessProject(ctx.server, "Other project");
  });

  const send = (email: string, redirectUrl?: string, project = app) =>
    project.call(
      "POST",
      "/v1/auth/magic-link/send",
      redirectUrl === undefined ? { email } : { email, redirect_url: redirectUrl },
    );
  /** The link in the `nth` mail to `email`. */
  async function linkIn(email: string, nth = 1): Promise<URL> {
    const mail = await ctx.smtp.waitFor(email, { nth });
    const found = LINK.exec(mail.text)?.[0];
    expect(found, mail.text).toBeTruthy();
    return new URL(found!);
  }
  /** Sends a link and answers the token of the `nth` mail to `email`. */
  async function linkToken(email: string, nth = 1, project = app): Promise<string> {
    const sent = await send(email, undefined, project);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    return (await linkIn(email, nth)).searchParams.get("token")!;
  }
  const verify = (token: string, project = app) => project.call("POST", "/v1/auth/magic-link/verify", { token });

  it("SendMagicLink answers the same for a registered and an unknown address; the mail names the project and links to its redirect_url", async () => {
    const registered = newEmail("registered");
    expect(
      (await app.call("POST", "/v1/auth/signup", { email: registered, password: "a sturdy passphrase 1" })).status,
    ).toBe(200);
    const unknown = newEmail("unknown");
    const known = await send(registered);
    const stranger = await send(unknown);
    expect(known.status).toBe(200);
    expect(known.body).toEqual(stranger.body);
    expect(known.body).toEqual({ message: expect.any(String), expires_in: 900 });

    for (const email of [registered, unknown]) {
      const mail = await ctx.smtp.waitFor(email);
      expect(mail.subject).toContain(PROJECT_NAME);
      expect(mail.text).toContain(PROJECT_NAME);
      const link = await linkIn(email);
      expect(link.origin + link.pathname).toBe(REDIRECT_URL);
      expect([...link.searchParams.keys()]).toEqual(["token", "type"]);
      expect(link.searchParams.get("token")).toMatch(/^gml_[A-Za-z0-9_-]{40,}$/);
      expect(link.searchParams.get("type")).toBe("magic_link");
      expect(mail.html).toContain(link.searchParams.get("token"));
    }
  });

  it("an override sharing an origin with redirect_url or an allowed origin is used; a foreign one is REDIRECT_NOT_ALLOWED and sends nothing", async () => {
    const email = newEmail("override");
    const foreign = await send(email, "https://evil.example.net/callback");
    expectReason(foreign, 400, "REDIRECT_NOT_ALLOWED");
    // Nothing was stored or queued: an immediate send is not rate limited, and it is the first mail.
    expect((await send(email, `${OTHER_ALLOWED_ORIGIN}/welcome?from=mail`)).status).toBe(200);
    const link = await linkIn(email, 1);
    expect(link.origin + link.pathname).toBe(`${OTHER_ALLOWED_ORIGIN}/welcome`);
    expect(link.searchParams.get("from")).toBe("mail");
    expect(link.searchParams.get("type")).toBe("magic_link");
    expect(link.searchParams.get("token")).toMatch(/^gml_/);

    const sameOrigin = newEmail("same-origin");
    expect((await send(sameOrigin, "https://app.example.com/elsewhere")).status).toBe(200);
    expect((await linkIn(sameOrigin)).pathname).toBe("/elsewhere");

    // Look-alikes of an allowed origin are foreign too.
    for (const url of [
      "http://app.example.com/callback",
      "https://app.example.com.evil.net/",
      "https://beta.example.org:8443/x",
    ]) {
      const lookalike = newEmail("lookalike");
      expectReason(await send(lookalike, url), 400, "REDIRECT_NOT_ALLOWED");
      expect(await sql(`SELECT id FROM outbox WHERE recipient = $1`, [lookalike])).toEqual([]);
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(ctx.smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it("VerifyMagicLink signs a new user up with the email verified and no password, amr magic_link; used twice it is INVALID_LINK", async () => {
    const email = newEmail("newcomer");
    const token = await linkToken(email);
    const res = await verify(token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ token_type: "Bearer", user: { email, email_verified: true } });
    expect(res.body.refresh_token).toMatch(/^grt_/);
    expect(await verifiedClaims(app, res.body.access_token)).toMatchObject({
      sub: res.body.user.id,
      email,
      amr: ["magic_link"],
    });
    expectReason(
      await app.call("POST", "/v1/auth/login", { email, password: "a sturdy passphrase 1" }),
      401,
      "INVALID_CREDENTIALS",
    );

    expectReason(await verify(token), 401, "INVALID_LINK");
    expect(
      await sql(`SELECT id FROM users WHERE project_id = $1 AND email_normalized = $2`, [app.projectId, email]),
    ).toHaveLength(1);
  });

  it("VerifyMagicLink signs an existing user in as the same user and marks the email verified", async () => {
    const email = newEmail("existing");
    const signup = await app.call("POST", "/v1/auth/signup", { email, password: "a sturdy passphrase 1" });
    expect(signup.body.user.email_verified).toBe(false);
    const res = await verify(await linkToken(email));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user).toMatchObject({ id: signup.body.user.id, email_verified: true });
    expect((await verifiedClaims(app, res.body.access_token)).amr).toEqual(["magic_link"]);
    expect((await app.call("GET", `/v1/auth/users/${signup.body.user.id}`)).body.email_verified).toBe(true);
  });

  it("a second send within a minute is RATE_LIMITED with Retry-After; a minute later it replaces the link", async () => {
    const email = newEmail("replaced");
    const first = await linkToken(email, 1);
    const again = await send(email);
    expectReason(again, 429, "RATE_LIMITED");
    const wait = Number(again.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);

    clock.advance(60_000);
    const second = await linkToken(email, 2);
    expect(second).not.toBe(first);
    expectReason(await verify(first), 401, "INVALID_LINK");
    expect((await verify(second)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(ctx.smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(2);
  });

  it("a link works until its fifteen minutes are up, then is INVALID_LINK", async () => {
    const early = newEmail("in-time");
    const late = newEmail("too-late");
    const earlyToken = await linkToken(early);
    const lateToken = await linkToken(late);
    clock.advance(890_000);
    expect((await verify(earlyToken)).status).toBe(200);
    clock.advance(11_000);
    expectReason(await verify(lateToken), 401, "INVALID_LINK");
  });

  it("another project's API key cannot use the link, and trying does not spend it", async () => {
    const email = newEmail("cross-project");
    const token = await linkToken(email);
    expectReason(await verify(token, other), 401, "INVALID_LINK");
    expect(
      await sql(`SELECT id FROM users WHERE project_id = $1 AND email_normalized = $2`, [other.projectId, email]),
    ).toEqual([]);
    expect((await verify(token)).status).toBe(200);
  });

  it("unknown and malformed tokens are INVALID_LINK, the same answer as a used one", async () => {
    const unknown = await verify(`gml_${"A".repeat(43)}`);
    const garbage = await verify("not a link at all");
    expectReason(unknown, 401, "INVALID_LINK");
    expect({ ...garbage.body, request_id: 0 }).toEqual({ ...unknown.body, request_id: 0 });
    expectReason(await verify(""), 400, "VALIDATION_FAILED");
  });

  it("ten concurrent verifies of one link: exactly one signs in, the rest are INVALID_LINK, one user and one session exist", async () => {
    const email = newEmail("race");
    const token = await linkToken(email);
    const answers = await Promise.all(Array.from({ length: 10 }, () => verify(token)));
    const winners = answers.filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    expect(answers.filter((a) => a.status === 401 && a.body.reason === "INVALID_LINK")).toHaveLength(9);
    const users = await sql(`SELECT id FROM users WHERE project_id = $1 AND email_normalized = $2`, [
      app.projectId,
      email,
    ]);
    expect(users).toEqual([{ id: winners[0].body.user.id }]);
    expect(await sql(`SELECT id FROM sessions WHERE user_id = $1`, [users[0].id])).toHaveLength(1);
  });

  it("the stored row holds the token's hash, never the token", async () => {
    const email = newEmail("stored");
    const token = await linkToken(email);
    const rows = await sql(`SELECT * FROM magic_links WHERE project_id = $1 AND email_normalized = $2`, [
      app.projectId,
      email,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(hashToken(token));
    const secret = token.slice("gml_".length);
    for (const value of Object.values(rows[0] as Record<string, unknown>)) expect(String(value)).not.toContain(secret);
  });

  it("over Connect JSON and gRPC: SendMagicLink and VerifyMagicLink", async () => {
    const headers = { "x-service-key": app.key };
    const email = newEmail("wire");
    const sent = await injectConnect(ctx.server.handle, "auth", "SendMagicLink", { email }, headers);
    expect(sent.body).toEqual({ message: expect.any(String), expires_in: 900 });
    const foreign = await injectConnect(
      ctx.server.handle,
      "auth",
      "SendMagicLink",
      { email: newEmail("wire"), redirect_url: "https://evil.example.net/" },
      headers,
    );
    expect(foreign.status).toBe(400);
    expect(connectReason(foreign.body)).toBe("REDIRECT_NOT_ALLOWED");
    const token = (await linkIn(email)).searchParams.get("token")!;
    const client = grpcClient(ctx.server.port, "auth");
    const ok = await grpcCall(client, "VerifyMagicLink", { token }, headers);
    expect(ok.error).toBeUndefined();
    expect(ok.response.user).toMatchObject({ email, email_verified: true });
    expect((await verifiedClaims(app, ok.response.access_token)).amr).toEqual(["magic_link"]);
    const again = await injectConnect(ctx.server.handle, "auth", "VerifyMagicLink", { token }, headers);
    expect(again.status).toBe(401);
    expect(connectReason(again.body)).toBe("INVALID_LINK");
  });

  it("usage counts a magic-link sign-in of an existing user as a passwordless login, a magic-link signup as a signup", async () => {
    const counted = await passwordlessProject(ctx.server, "Usage counted");
    const member = newEmail("usage-member");
    expect(
      (await counted.call("POST", "/v1/auth/signup", { email: member, password: "a sturdy passphrase 1" })).status,
    ).toBe(200);
    expect((await verify(await linkToken(member, 1, counted), counted)).status).toBe(200);
    const newcomer = newEmail("usage-newcomer");
    expect((await verify(await linkToken(newcomer, 1, counted), counted)).status).toBe(200);
    const res = await http(`${ctx.server.url}/v1/usage?project_id=${counted.projectId}&${usagePeriod(clock.now())}`, {
      headers: counted.management,
    });
    expect(res.body).toMatchObject({
      mau: 2,
      total_logins: 1,
      passwordless_logins: 1,
      tokens_issued: 3,
      sso_logins: 0,
    });
  });

  it("a disabled user's right link is USER_DISABLED, no session", async () => {
    const email = newEmail("disabled");
    const signup = await app.call("POST", "/v1/auth/signup", { email, password: "a sturdy passphrase 1" });
    expect((await app.call("PATCH", `/v1/auth/users/${signup.body.user.id}`, { disabled: true })).status).toBe(200);
    expectReason(await verify(await linkToken(email)), 403, "USER_DISABLED");
    expect(await sql(`SELECT id FROM sessions WHERE user_id = $1`, [signup.body.user.id])).toHaveLength(1);
  });
});
