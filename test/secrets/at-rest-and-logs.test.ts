import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { base32Bytes, challenge, enrollTotp, verifyMfa } from "../auth/mfa-helpers.js";
import { newPhone } from "../auth/passwordless-helpers.js";
import { expectTokens, newAccount } from "../auth/sso-checks.js";
import { useSsoWorld } from "../auth/sso-helpers.js";
import type { HttpAnswer } from "../helpers/clients.js";
import { PASSWORD as SEEDED_PASSWORD } from "../helpers/seed.js";
import { captureLog } from "./log-capture.js";
import { injectHttp } from "../helpers/inject.js";

// Secrets at rest and in logs. Every flow that makes or takes a secret runs once over the wire
// (the server's log captured at trace level, its mail and SMS read at the sinks, a real OpenID
// provider), each raw secret is noted as the client saw it, and then the whole database (pg_dump
// on PostgreSQL; every row of every table, and on PGlite the data directory's files, WAL
// included) and the whole log are searched for each one. None may be there in plain text.

const log = captureLog("trace");
const world = useSsoWorld({ sms: true, smtp: true, logger: log.logger });
const { ctx } = world;
const ON_POSTGRES = Boolean(process.env.DATABASE_URL);

type Kind =
  | "password"
  | "API key"
  | "management token"
  | "access token"
  | "refresh token"
  | "one-time code"
  | "link token"
  | "TOTP secret"
  | "recovery code"
  | "SSO client secret";

const secrets: Array<{ kind: Kind; what: string; value: string }> = [];
const recipients: string[] = [];
function keep(kind: Kind, what: string, value: string | undefined): string {
  expect(value, what).toBeTruthy();
  secrets.push({ kind, what, value: value! });
  return value!;
}
function keepTokens(what: string, answer: HttpAnswer): void {
  expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(200);
  keep("access token", `${what}: access token`, answer.body.access_token);
  keep("refresh token", `${what}: refresh token`, answer.body.refresh_token);
}

let seq = 0;
/** An address that will receive mail (its log lines are checked for it). */
const newEmail = (tag: string) => {
  const email = `${tag}-${++seq}-${Date.now()}@example.com`;
  recipients.push(email);
  return email;
};
/** The `token` of the link in the newest mail to `to` (the nth one). */
async function linkIn(to: string, nth = 1): Promise<string> {
  const mail = await ctx.smtp.waitFor(to, { nth });
  const token = /[?&]token=([A-Za-z0-9_%.-]+)/.exec(mail.text)?.[1];
  expect(token, mail.text).toBeTruthy();
  return decodeURIComponent(token!);
}
async function codeIn(to: string, nth = 1): Promise<string> {
  const mail = await ctx.smtp.waitFor(to, { nth });
  return /\b(\d{6})\b/.exec(mail.text)![1];
}

async function everyFlow(): Promise<void> {
  const app: AuthFixture = await authFixture(ctx.server);
  keep("API key", "the fixture's API key", app.key);
  const call = app.call;

  // The Account interface: a management token, an API key, an invitation, member passwords.
  keep("password", "the seeded admin's password", SEEDED_PASSWORD);
  const admin = await app.admin();
  keep("management token", "admin sign-in", admin.authorization.slice("Bearer ".length));
  const apiKey = await injectHttp(ctx.server.handle, "/v1/api-keys", {
    headers: admin,
    body: { project_id: app.projectId, label: "secrets" },
  });
  expect(apiKey.status).toBe(200);
  keep("API key", "CreateApiKey", apiKey.body.key);

  const invitee = newEmail("invitee");
  expect(
    (
      await injectHttp(ctx.server.handle, "/v1/members/invite", {
        headers: admin,
        body: { email: invitee, role: "developer" },
      })
    ).status,
  ).toBe(200);
  const invitation = keep("link token", "invitation", await linkIn(invitee));
  const memberPassword = keep("password", "AcceptInvitation password", "an invited member's passphrase");
  const accepted = await injectHttp(ctx.server.handle, "/v1/account/invitations/accept", {
    body: { token: invitation, password: memberPassword },
  });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  const memberToken = keep("management token", "AcceptInvitation", accepted.body.management_token);
  const changedMember = keep("password", "ChangeMemberPassword", "a changed member passphrase");
  const change = await injectHttp(ctx.server.handle, "/v1/account/password/change", {
    headers: { authorization: `Bearer ${memberToken}` },
    body: { current_password: memberPassword, new_password: changedMember },
  });
  expect(change.status, JSON.stringify(change.body)).toBe(200);
  expect(
    (await injectHttp(ctx.server.handle, "/v1/account/password/reset-request", { body: { email: invitee } })).status,
  ).toBe(200);
  const memberReset = keep("link token", "member password reset", await linkIn(invitee, 2));
  const resetMember = keep("password", "ResetMemberPassword", "a reset member passphrase");
  expect(
    (
      await injectHttp(ctx.server.handle, "/v1/account/password/reset", {
        body: { token: memberReset, new_password: resetMember },
      })
    ).status,
  ).toBe(200);
  const memberLogin = await injectHttp(ctx.server.handle, "/v1/account/login", {
    body: { email: invitee, password: resetMember },
  });
  keep("management token", "member sign-in", memberLogin.body.management_token);

  // Passwords and tokens of end users: signup (with a verification link), login, refresh.
  const email = newEmail("user");
  const password = keep("password", "Signup password", "an end user's passphrase 1");
  const signup = await call("POST", "/v1/auth/signup", { email, password, send_verification: true });
  keepTokens("Signup", signup);
  const verification = keep("link token", "email verification", await linkIn(email));
  expect((await call("POST", "/v1/auth/email/verify", { token: verification })).status).toBe(200);
  keepTokens("Login", await call("POST", "/v1/auth/login", { email, password }));
  keepTokens("Refresh", await call("POST", "/v1/auth/token/refresh", { refresh_token: signup.body.refresh_token }));
  const changed = keep("password", "ChangePassword", "an end user's passphrase 2");
  expect(
    (
      await call(
        "POST",
        "/v1/auth/password/change",
        { current_password: password, new_password: changed },
        signup.body.access_token,
      )
    ).status,
  ).toBe(200);

  // The user's own email change: a link to the new address.
  const newAddress = newEmail("moved");
  expect(
    (await call("PATCH", `/v1/auth/users/${signup.body.user.id}`, { email: newAddress }, signup.body.access_token))
      .status,
  ).toBe(200);
  expect(
    (
      await call("POST", "/v1/auth/email/verify", {
        token: keep("link token", "email change", await linkIn(newAddress)),
      })
    ).status,
  ).toBe(200);

  // Password reset by link.
  expect((await call("POST", "/v1/auth/password/reset-request", { email: newAddress })).status).toBe(200);
  const reset = keep("link token", "password reset", await linkIn(newAddress, 2));
  const resetPassword = keep("password", "ResetPassword", "an end user's passphrase 3");
  expect(
    (await call("POST", "/v1/auth/password/reset", { reset_token: reset, new_password: resetPassword })).status,
  ).toBe(200);

  // Passwordless: a code by mail, a code by SMS, a magic link.
  const otpEmail = newEmail("otp");
  expect((await call("POST", "/v1/auth/otp/send", { email: otpEmail })).status).toBe(200);
  keepTokens(
    "VerifyOtp by mail",
    await call("POST", "/v1/auth/otp/verify", {
      email: otpEmail,
      otp: keep("one-time code", "OTP by mail", await codeIn(otpEmail)),
    }),
  );
  const phone = newPhone();
  recipients.push(phone);
  expect((await call("POST", "/v1/auth/otp/send", { phone })).status).toBe(200);
  keepTokens(
    "VerifyOtp by SMS",
    await call("POST", "/v1/auth/otp/verify", {
      phone,
      otp: keep("one-time code", "OTP by SMS", await ctx.sms.codeFor(phone)),
    }),
  );
  const linkEmail = newEmail("link");
  expect((await call("POST", "/v1/auth/magic-link/send", { email: linkEmail })).status).toBe(200);
  keepTokens(
    "VerifyMagicLink",
    await call("POST", "/v1/auth/magic-link/verify", {
      token: keep("link token", "magic link", await linkIn(linkEmail)),
    }),
  );

  // TOTP with recovery codes, then a sign-in that spends a recovery code.
  const mfaEmail = `mfa-${++seq}-${Date.now()}@example.com`;
  const mfaPassword = keep("password", "MFA user's password", "an end user's passphrase 4");
  const mfaUser = await call("POST", "/v1/auth/signup", { email: mfaEmail, password: mfaPassword });
  keepTokens("MFA user's signup", mfaUser);
  const totp = await enrollTotp(app, ctx.clock, mfaUser.body.access_token);
  keep("TOTP secret", "TOTP secret", totp.secret);
  totp.recoveryCodes.forEach((code, i) => keep("recovery code", `recovery code ${i + 1}`, code));
  const mfaToken = await challenge(app, { email: mfaEmail, password: mfaPassword });
  keepTokens(
    "VerifyMfa with a recovery code",
    await verifyMfa(app, { mfa_token: mfaToken, code: totp.recoveryCodes[0] }),
  );

  // SSO: a connection with its client secret, and a sign-in through it.
  const clientSecret = keep(
    "SSO client secret",
    "CreateSsoConnection client_secret",
    `sso-secret-${Date.now()}-${Math.random().toString(36).slice(2)}`,
  );
  const connection = await world.connect(app, { clientSecret, trustEmails: true });
  const account = newAccount(world.idp, "sso");
  const sso = expectTokens(await world.signIn(app, connection, account.id));
  keep("access token", "SSO access token", sso.accessToken);
  keep("refresh token", "SSO refresh token", sso.refreshToken);

  // Every mail and SMS has been delivered (the log lines of their sending are written).
  for (const to of recipients) {
    const sent = to.startsWith("+")
      ? ctx.sms.messages.some((m) => m.to === to)
      : ctx.smtp.messages.some((m) => m.to.includes(to));
    expect(sent, to).toBe(true);
  }
}

/** Text a secret may hide as: itself and, for the TOTP secret, its bytes in hex and base64. */
function forms(secret: { kind: Kind; value: string }): string[] {
  if (secret.kind !== "TOTP secret") return [secret.value];
  const bytes = base32Bytes(secret.value);
  return [
    secret.value,
    secret.value.toLowerCase(),
    bytes.toString("hex"),
    bytes.toString("base64"),
    bytes.toString("base64url"),
  ];
}

/**
 * Where each secret was found in `text`. A six-digit code counts on its own only, not inside a
 * longer number or as the fraction of a time of day, where it would turn up by chance.
 */
function found(text: string): string[] {
  const withoutTimes = text.replace(/\d{2}:\d{2}:\d{2}\.\d+/g, "");
  const isIn = (s: (typeof secrets)[number], form: string) =>
    s.kind === "one-time code" ? new RegExp(`(?<![0-9])${form}(?![0-9])`).test(withoutTimes) : text.includes(form);
  const hits = secrets.filter((s) => forms(s).some((form) => isIn(s, form))).map((s) => `${s.kind} (${s.what})`);
  if (/PRIVATE KEY-----/.test(text)) hits.push("a PEM private key");
  if (/"d"\s*:\s*"[A-Za-z0-9_-]{20,}"/.test(text)) hits.push("a private JWK (d)");
  return hits;
}

describe("secrets at rest and in logs", () => {
  it("every flow runs once, and each raw secret is noted", async () => {
    await everyFlow();
    const kinds = new Set(secrets.map((s) => s.kind));
    expect(kinds.size).toBe(10);
    console.log(
      `secrets noted: ${secrets.length} (${[...kinds].join(", ")}); mail and SMS recipients: ${recipients.length}`,
    );
  });

  it("no row of any table holds one of them in plain text, nor a private key", async () => {
    const tables: Array<{ name: string }> = await ctx.sql(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
    );
    let rows = "";
    for (const { name } of tables) {
      for (const row of await ctx.sql(`SELECT row_to_json(t)::text AS j FROM "${name}" t`)) rows += `${row.j}\n`;
    }
    // A sanity check that this reads the data: the signing key and the sealed outbox bodies are there.
    expect(rows).toMatch(/private_key|sealed/);
    console.log(
      `rows scanned: ${tables.length} tables, ${rows.split("\n").length - 1} rows, ${rows.length} characters`,
    );
    expect(found(rows)).toEqual([]);
  });

  it.runIf(ON_POSTGRES)("pg_dump of the database holds none of them", async () => {
    const { stdout } = await promisify(execFile)(
      "pg_dump",
      ["--no-owner", "--no-privileges", ctx.server.database.databaseUrl!],
      { maxBuffer: 256 * 1024 * 1024 },
    );
    expect(stdout).toContain("COPY public.users");
    console.log(`pg_dump scanned: ${stdout.length} characters`);
    expect(found(stdout)).toEqual([]);
  });

  it.runIf(!ON_POSTGRES)("the PGlite data directory's files (tables, indexes, WAL) hold none of them", async () => {
    const dir = join(ctx.server.database.dataDir, "pglite");
    const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((f) => f.isFile());
    let bytes = 0;
    const hits = new Set<string>();
    for (const file of files) {
      const content = (await readFile(join(file.parentPath, file.name))).toString("latin1");
      bytes += content.length;
      for (const hit of found(content)) hits.add(`${hit} in ${file.name}`);
    }
    console.log(`PGlite files scanned: ${files.length} files, ${bytes} bytes`);
    expect([...hits]).toEqual([]);
  });

  it("the log (trace level: every statement, every request, every mail and SMS) holds none of them, and no full recipient", async () => {
    await new Promise((r) => setTimeout(r, 200));
    const text = log.text();
    const lines = log.lines();
    expect(lines.filter((l) => l.msg === "request").length).toBeGreaterThan(25);
    const sends = lines.filter(
      (l) => l.msg === "mail queued" || l.msg === "sms queued" || l.msg === "email sent" || l.msg === "sms sent",
    );
    expect(sends.length).toBeGreaterThanOrEqual(2 * recipients.length);
    console.log(`log scanned: ${lines.length} lines, ${text.length} characters, ${sends.length} send lines`);
    expect(found(text)).toEqual([]);
    // Mail and SMS lines name the recipient masked, and no line names one in full.
    for (const line of sends) expect(String(line.to)).toMatch(/^(.\*\*\*@example\.com|\+\d{4}\*\*\*\d{2})$/);
    expect(recipients.filter((to) => text.includes(to))).toEqual([]);
  });
});
