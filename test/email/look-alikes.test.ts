import { Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { importUsers } from "../../src/cli/import/import-users.js";
import { operatorOrigin } from "../../src/cli/operator.js";
import type { HttpAnswer } from "../helpers/clients.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { seedOrganization } from "../helpers/seed.js";
import { passwordlessProject, type PasswordlessProject } from "../auth/passwordless-helpers.js";
import { injectHttp } from "../helpers/inject.js";

// Threat: a look-alike of a user's address reaching that user's account. With trim +
// toLowerCase, U+212A KELVIN SIGN became "k": a code asked for "\u212Aate@…" was mailed to the
// look-alike and signed in to kate@…. Every entry point now refuses an address that folds into
// another (400 VALIDATION_FAILED on `email`), one address in another case or its IDN spelling is
// the same account, and a code, link or invitation for an existing account goes to the address
// the account has, never to the spelling typed.

const PASSWORD = "a sturdy passphrase 1";
const CODE = /\b(\d{6})\b/;
let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

/** An address with a "k" on both sides of the @ and its look-alikes: Kelvin sign, fullwidth letters and dot. */
function lookAlikes(id: string): { real: string; fakes: string[] } {
  return {
    real: `kate-${id}@kelvin.test`,
    fakes: [
      `\u212Aate-${id}@kelvin.test`,
      `kate-${id}@\u212Aelvin.test`,
      `\uff4bate-${id}@kelvin.test`,
      `kate-${id}@kelvin\uff0etest`,
      `kate-${id}@\uff4belvin.test`,
    ],
  };
}

function expectEmailRefused(answer: HttpAnswer, what: string): void {
  expect({ what, status: answer.status, reason: answer.body?.reason }).toEqual({
    what,
    status: 400,
    reason: "VALIDATION_FAILED",
  });
  expect(answer.body.violations).toContainEqual({ field: "email", description: expect.any(String) });
}

describe("look-alike email addresses", () => {
  const ctx = useMessagingServer({ smtp: true });
  let app: PasswordlessProject;

  beforeAll(async () => {
    app = await passwordlessProject(ctx.server);
  });

  const recipients = async (): Promise<string[]> =>
    (await ctx.sql("SELECT recipient FROM outbox ORDER BY created_at, id")).map(
      (r: { recipient: string }) => r.recipient,
    );
  const userCount = async () =>
    Number((await ctx.sql("SELECT count(*) AS n FROM users WHERE project_id = $1", [app.projectId]))[0].n);
  const signup = (email: string) => app.call("POST", "/v1/auth/signup", { email, password: PASSWORD });
  /** What the outbox addressed to any spelling of `email` (the SMTP envelope lower-cases the domain). */
  const mailedTo = async (email: string): Promise<string[]> =>
    (await recipients()).filter((r) => r.toLowerCase() === email.toLowerCase());
  /** The local part, whose case SMTP keeps. */
  const local = (email: string) => email.slice(0, email.lastIndexOf("@"));

  it("every end-user entry point refuses a look-alike of an existing address, mails nothing and makes no user", async () => {
    const { real, fakes } = lookAlikes(unique());
    const kate = await signup(real);
    expect(kate.status, JSON.stringify(kate.body)).toBe(200);
    const mailedBefore = await recipients();
    const usersBefore = await userCount();

    for (const fake of fakes) {
      expectEmailRefused(await signup(fake), `signup ${fake}`);
      expectEmailRefused(
        await app.call("POST", "/v1/auth/login", { email: fake, password: PASSWORD }),
        `login ${fake}`,
      );
      expectEmailRefused(await app.call("POST", "/v1/auth/otp/send", { email: fake }), `otp send ${fake}`);
      expectEmailRefused(
        await app.call("POST", "/v1/auth/otp/verify", { email: fake, otp: "123456" }),
        `otp verify ${fake}`,
      );
      expectEmailRefused(await app.call("POST", "/v1/auth/magic-link/send", { email: fake }), `magic link ${fake}`);
      expectEmailRefused(await app.call("POST", "/v1/auth/password/reset-request", { email: fake }), `reset ${fake}`);
      // The user's own email change, and an admin's.
      expectEmailRefused(
        await app.call("PATCH", `/v1/auth/users/${kate.body.user.id}`, { email: fake }, kate.body.access_token),
        `own change ${fake}`,
      );
      expectEmailRefused(
        await app.call("PATCH", `/v1/auth/users/${kate.body.user.id}`, { email: fake }),
        `admin change ${fake}`,
      );
    }
    // The description says what is wrong, by code point (never the look-alike itself).
    const told = await app.call("POST", "/v1/auth/otp/send", { email: fakes[0] });
    expect(told.body.violations).toEqual([{ field: "email", description: expect.stringContaining("U+212A") }]);

    expect(await recipients()).toEqual(mailedBefore);
    expect(await userCount()).toBe(usersBefore);
    const stored = await app.call("GET", `/v1/auth/users/${kate.body.user.id}`);
    expect(stored.body).toMatchObject({ email: real, email_verified: false });
  });

  it("a code, a link and a reset asked for in another case go to the stored address, and the code signs that user in", async () => {
    const stored = `Kate.Lee-${unique()}@Example.com`;
    const kate = await signup(stored);
    expect(kate.status).toBe(200);
    const typed = stored.toLowerCase();

    expect((await app.call("POST", "/v1/auth/otp/send", { email: typed })).status).toBe(200);
    const codeMail = await ctx.smtp.waitFor(stored);
    expect(codeMail.to.map(local)).toEqual([local(stored)]);
    const code = CODE.exec(codeMail.text)![1];
    const signedIn = await app.call("POST", "/v1/auth/otp/verify", { email: stored.toUpperCase(), otp: code });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.user).toMatchObject({ id: kate.body.user.id, email: stored, email_verified: true });

    expect((await app.call("POST", "/v1/auth/magic-link/send", { email: stored.toUpperCase() })).status).toBe(200);
    expect((await ctx.smtp.waitFor(stored, { nth: 2 })).to.map(local)).toEqual([local(stored)]);
    expect((await app.call("POST", "/v1/auth/password/reset-request", { email: typed })).status).toBe(200);
    expect((await ctx.smtp.waitFor(stored, { nth: 3 })).to.map(local)).toEqual([local(stored)]);

    // Nothing went out to the spellings typed.
    expect(await mailedTo(stored)).toEqual([stored, stored, stored]);
    // Mixed-case ASCII signs in as ever.
    const login = await app.call("POST", "/v1/auth/login", {
      email: "KATE.lee" + stored.slice("Kate.Lee".length).toUpperCase(),
      password: PASSWORD,
    });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(login.body.user.id).toBe(kate.body.user.id);
  });

  it("an internationalized domain works, and its punycode spelling is the same address", async () => {
    const id = unique();
    const unicode = `kate-${id}@Bücher.example`;
    const punycode = `KATE-${id}@xn--bcher-kva.example`;
    const kate = await signup(unicode);
    expect(kate.status, JSON.stringify(kate.body)).toBe(200);
    expect(kate.body.user.email).toBe(unicode);

    const again = await signup(punycode);
    expect({ status: again.status, reason: again.body.reason }).toEqual({ status: 409, reason: "EMAIL_EXISTS" });
    const login = await app.call("POST", "/v1/auth/login", { email: punycode, password: PASSWORD });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(login.body.user.id).toBe(kate.body.user.id);

    // A code asked for by the punycode spelling goes to the address as the user gave it.
    expect((await app.call("POST", "/v1/auth/otp/send", { email: punycode })).status).toBe(200);
    const rows = await ctx.sql("SELECT recipient FROM outbox WHERE recipient ILIKE $1", [`kate-${id}@%`]);
    expect(rows.map((r: { recipient: string }) => r.recipient)).toEqual([unicode]);
  });

  it("an invitation for a person who already signs in goes to the address it has; the Account interface refuses look-alikes", async () => {
    const id = unique();
    const stored = `Dev.Kim-${id}@Acme.test`;
    await seedOrganization(ctx.server.deps, stored);
    const inviter = await seedOrganization(ctx.server.deps);
    const login = await injectHttp(ctx.server.handle, "/v1/account/login", {
      body: { email: inviter.email, password: inviter.password },
    });
    const headers = { authorization: `Bearer ${login.body.management_token}` };

    const invited = await injectHttp(ctx.server.handle, "/v1/members/invite", {
      headers,
      body: { email: stored.toLowerCase(), role: "developer" },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
    expect((await ctx.smtp.waitFor(stored)).to.map(local)).toEqual([local(stored)]);
    expect(await mailedTo(stored)).toEqual([stored]);

    const fake = `Dev.\u212Aim-${id}@Acme.test`;
    const mailedBefore = await recipients();
    expectEmailRefused(
      await injectHttp(ctx.server.handle, "/v1/members/invite", { headers, body: { email: fake, role: "developer" } }),
      "invite",
    );
    expectEmailRefused(
      await injectHttp(ctx.server.handle, "/v1/account/login", {
        body: { email: fake, password: "correct horse battery staple" },
      }),
      "account login",
    );
    expectEmailRefused(
      await injectHttp(ctx.server.handle, "/v1/account/password/reset-request", { body: { email: fake } }),
      "member reset",
    );
    expect(await recipients()).toEqual(mailedBefore);
  });

  it("the CLI user import refuses a look-alike line by line number, and imports the rest", async () => {
    const { real, fakes } = lookAlikes(unique());
    const kate = await signup(real);
    expect(kate.status).toBe(200);
    const organizationId = (await ctx.sql("SELECT organization_id FROM projects WHERE id = $1", [app.projectId]))[0]
      .organization_id;
    const project = (await ctx.server.deps.db.repos.projects.get(organizationId, app.projectId))!;
    const fresh = `fresh-${unique()}@kelvin.test`;
    const lines = [...fakes.slice(0, 2), fresh]
      .map((email) => JSON.stringify({ email, email_verified: true }))
      .join("\n");
    const summary = await importUsers(ctx.server.deps, {
      project,
      input: Readable.from([lines]),
      format: "jsonl",
      batchSize: 10,
      origin: operatorOrigin(),
      progress: () => {},
    });
    expect(summary.imported).toBe(1);
    expect(summary.refused).toEqual([
      { line: 1, reason: "VALIDATION_FAILED", message: expect.stringMatching(/^email: .*U\+212A/) },
      { line: 2, reason: "VALIDATION_FAILED", message: expect.stringMatching(/^email: .*U\+212A/) },
    ]);
    // By the exact addresses: the look-alikes made no row, kate's is hers alone, the fresh one is in.
    const found = await ctx.sql("SELECT email FROM users WHERE project_id = $1 AND email = ANY($2) ORDER BY email", [
      app.projectId,
      [real, fresh, ...fakes.slice(0, 2)],
    ]);
    expect(found.map((r: { email: string }) => r.email).sort()).toEqual([real, fresh].sort());
  });
});
