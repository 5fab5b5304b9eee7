import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../src/crypto/tokens.js";
import { accountFixture, expectError, type AccountFixture } from "../helpers/account.js";
import { connectReason, grpcCall, grpcClient } from "../helpers/clients.js";
import { seedMember, seedOrganization } from "../helpers/seed.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../helpers/smtp.js";
import { eventually } from "../helpers/eventually.js";
import { injectConnect, injectHttp } from "../helpers/inject.js";

// Members and invitations over the wire, with the invitation email delivered through a real
// SMTP server. Threats: a developer or an anonymous caller invites; an invitation link works
// twice, after a newer invitation, or after it expired; two accepts of one link make two
// members; a member sees another organization's members.

const PUBLIC_URL = "https://console.example.test";
const NEW_PASSWORD = "a fresh member password";
let smtp: SmtpSink;
let server: TestServer;
let f: AccountFixture;
let counter = 0;
const newEmail = () => `invitee-${Date.now().toString(36)}-${counter++}@example.com`;

beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startTestServer({ SMTP_URL: smtp.url, SMTP_FROM: "Gatehouse <gatehouse@example.test>", PUBLIC_URL });
  f = await accountFixture(server);
});
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

const invite = (email: string, role = "developer", headers = f.admin.headers) =>
  f.rest("POST", "/v1/members/invite", headers, { email, role });
const accept = (token: string, password = NEW_PASSWORD) =>
  f.rest("POST", "/v1/account/invitations/accept", {}, { token, password });
const listMembers = (headers: Record<string, string>, query = "") => f.rest("GET", `/v1/members${query}`, headers);
const sql = (text: string, params: unknown[] = []) => server.deps.db.dataSource.query(text, params);

/** The token of the link in an invitation email, after checking the link's shape (API.md section 5). */
function linkToken(mail: ReceivedMail): string {
  const link = new RegExp(`${PUBLIC_URL.replace(/\./g, "\\.")}\\?\\S+`).exec(mail.text)?.[0];
  expect(link, "the text part carries the link").toBeDefined();
  const url = new URL(link!);
  expect(url.searchParams.get("type")).toBe("invitation");
  expect(mail.html).toContain(link!.replace(/&/g, "&#38;"));
  return url.searchParams.get("token")!;
}

/** Invites as the admin and returns the token from the email that arrives. */
async function invited(email = newEmail(), role = "developer", headers = f.admin.headers) {
  const before = smtp.messages.filter((m) => m.to.includes(email)).length;
  expect((await invite(email, role, headers)).status).toBe(200);
  return { email, token: linkToken(await smtp.waitFor(email, { nth: before + 1 })) };
}

describe("InviteMember", () => {
  const cases: Array<{
    name: string;
    headers: () => Record<string, string>;
    body: () => object;
    status: number;
    reason?: string;
    field?: string;
  }> = [
    {
      name: "no credential",
      headers: () => ({}),
      body: () => ({ email: newEmail(), role: "developer" }),
      status: 401,
      reason: "MISSING_MANAGEMENT_TOKEN",
    },
    {
      name: "expired token",
      headers: () => f.expiredHeaders,
      body: () => ({ email: newEmail(), role: "developer" }),
      status: 401,
      reason: "INVALID_MANAGEMENT_TOKEN",
    },
    {
      name: "developer",
      headers: () => f.developer.headers,
      body: () => ({ email: newEmail(), role: "developer" }),
      status: 403,
      reason: "ROLE_REQUIRED",
    },
    {
      name: "email not an address",
      headers: () => f.admin.headers,
      body: () => ({ email: "not-an-email", role: "developer" }),
      status: 400,
      reason: "VALIDATION_FAILED",
      field: "email",
    },
    {
      name: "role outside admin|developer",
      headers: () => f.admin.headers,
      body: () => ({ email: newEmail(), role: "owner" }),
      status: 400,
      reason: "VALIDATION_FAILED",
      field: "role",
    },
    {
      name: "role missing",
      headers: () => f.admin.headers,
      body: () => ({ email: newEmail() }),
      status: 400,
      reason: "VALIDATION_FAILED",
      field: "role",
    },
    {
      name: "email of a member here",
      headers: () => f.admin.headers,
      body: () => ({ email: f.developer.email, role: "admin" }),
      status: 409,
      reason: "MEMBER_EXISTS",
    },
    {
      name: "email of a member here, other case",
      headers: () => f.admin.headers,
      body: () => ({ email: f.developer.email.toUpperCase(), role: "developer" }),
      status: 409,
      reason: "MEMBER_EXISTS",
    },
  ];
  it.each(cases)("$name → $status $reason, nothing queued", async (c) => {
    const [{ n: before }] = await sql("SELECT count(*)::int AS n FROM outbox");
    const answer = await f.rest("POST", "/v1/members/invite", c.headers(), c.body());
    expectError(answer, c.status, c.reason!);
    if (c.field) expect(answer.body.violations.map((v: { field: string }) => v.field)).toEqual([c.field]);
    const [{ n: after }] = await sql("SELECT count(*)::int AS n FROM outbox");
    expect(after).toBe(before);
  });

  it("success: 200 {message}, the email arrives with a 7-day link, only the token's hash is stored", async () => {
    const email = newEmail();
    const answer = await invite(email, "admin");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ message: "Invitation sent" });
    const mail = await smtp.waitFor(email);
    expect(mail.from).toBe("Gatehouse <gatehouse@example.test>");
    expect(mail.subject).toBe(`You are invited to join ${f.organization.name} on Gatehouse`);
    expect(mail.text).toContain(
      `${f.admin.email} has invited you to join ${f.organization.name} on Gatehouse as admin.`,
    );
    const token = linkToken(mail);
    const [row] = await sql("SELECT * FROM invitations WHERE email_normalized = $1", [email]);
    expect(row).toMatchObject({
      organization_id: f.organization.id,
      role: "admin",
      invited_by: f.admin.member.id,
      token_hash: hashToken(token),
    });
    expect(JSON.stringify(row)).not.toContain(token);
    const days = (new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()) / 86_400_000;
    expect(days).toBeCloseTo(7, 4);
    // Delivered: the sealed body, which held the link, is gone from the outbox.
    const sent = await eventually(
      "outbox row marked sent",
      async () => (await sql("SELECT * FROM outbox WHERE recipient = $1 AND sent_at IS NOT NULL", [email]))[0],
    );
    expect(sent).toMatchObject({ attempts: 1, body_sealed: null, last_error: null });
  });

  it("inviting again replaces the pending invitation: the old link stops working, the new role applies", async () => {
    const first = await invited(newEmail(), "developer");
    const second = await invited(first.email, "admin");
    expectError(await accept(first.token), 401, "INVALID_INVITATION");
    expect((await accept(second.token)).status).toBe(200);
    const [member] = await sql(
      "SELECT m.role FROM members m JOIN member_identities i ON i.id = m.identity_id WHERE i.email_normalized = $1",
      [first.email],
    );
    expect(member.role).toBe("admin");
  });

  it("gRPC: an admin invites; Connect: a developer is refused", async () => {
    const email = newEmail();
    const viaGrpc = await grpcCall(
      grpcClient(server.port, "account"),
      "InviteMember",
      { email, role: "developer" },
      f.admin.headers,
    );
    expect(viaGrpc.response).toEqual({ message: "Invitation sent" });
    await smtp.waitFor(email);
    const viaConnect = await injectConnect(
      server.handle,
      "account",
      "InviteMember",
      { email: newEmail(), role: "developer" },
      f.developer.headers,
    );
    expect({ status: viaConnect.status, code: viaConnect.body.code, reason: connectReason(viaConnect.body) }).toEqual({
      status: 403,
      code: "permission_denied",
      reason: "ROLE_REQUIRED",
    });
  });
});

describe("AcceptInvitation", () => {
  const cases: Array<{ name: string; body: () => Promise<object>; status: number; reason: string; field?: string }> = [
    {
      name: "token missing",
      body: async () => ({ password: NEW_PASSWORD }),
      status: 400,
      reason: "VALIDATION_FAILED",
      field: "token",
    },
    {
      name: "password too short",
      body: async () => ({ token: (await invited()).token, password: "short" }),
      status: 400,
      reason: "VALIDATION_FAILED",
      field: "password",
    },
    {
      name: "very common password",
      body: async () => ({ token: (await invited()).token, password: "Password123" }),
      status: 400,
      reason: "WEAK_PASSWORD",
    },
    {
      name: "unknown token",
      body: async () => ({ token: "ginv_not-a-real-token", password: NEW_PASSWORD }),
      status: 401,
      reason: "INVALID_INVITATION",
    },
    {
      name: "expired invitation",
      body: async () => {
        const { email, token } = await invited();
        await sql("UPDATE invitations SET expires_at = now() - interval '1 second' WHERE email_normalized = $1", [
          email,
        ]);
        return { token, password: NEW_PASSWORD };
      },
      status: 401,
      reason: "INVALID_INVITATION",
    },
    {
      name: "the email became a member of this organization meanwhile",
      body: async () => {
        const ours = await invited();
        // Another organization's invitations cannot make it a member here; the CLI, or an
        // operator's fix, can.
        const { deps } = server;
        const identity = await deps.db.repos.memberIdentities.create({
          email: ours.email,
          passwordHash: await deps.passwords.hash(NEW_PASSWORD),
        });
        await deps.db.repos.members.create(f.organization.id, { identity, role: "developer" });
        return { token: ours.token, password: NEW_PASSWORD };
      },
      status: 409,
      reason: "MEMBER_EXISTS",
    },
  ];
  it.each(cases)("$name → $status $reason", async (c) => {
    const answer = await f.rest("POST", "/v1/account/invitations/accept", {}, await c.body());
    expectError(answer, c.status, c.reason);
    if (c.field) expect(answer.body.violations.map((v: { field: string }) => v.field)).toEqual([c.field]);
  });

  it("a refused password does not spend the invitation", async () => {
    const { token } = await invited();
    expectError(await accept(token, "iloveyou1"), 400, "WEAK_PASSWORD");
    expect((await accept(token)).status).toBe(200);
  });

  it("end to end: the emailed link makes a member of the inviting organization, signed in, who can log in; the link works once", async () => {
    const { email, token } = await invited(newEmail(), "developer");
    // A stale Authorization header does not matter: the RPC needs no credential.
    const answer = await injectHttp(server.handle, "/v1/account/invitations/accept", {
      headers: { authorization: "Bearer gmt_stale" },
      body: { token, password: NEW_PASSWORD },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.management_token).toMatch(/^gmt_/);
    expect(answer.body.email).toBe(email);
    const hours = (Date.parse(answer.body.expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);

    const mine = await listMembers({ authorization: `Bearer ${answer.body.management_token}` });
    expect(mine.status).toBe(200);
    const emails = mine.body.data.map((m: { email: string }) => m.email);
    expect(emails).toEqual(expect.arrayContaining([email, f.admin.email, f.developer.email]));
    expect(mine.body.data.find((m: { email: string }) => m.email === email).role).toBe("developer");
    const theirs = await listMembers(f.outsider.headers);
    expect(theirs.body.data.map((m: { email: string }) => m.email)).not.toContain(email);

    const login = await injectHttp(server.handle, "/v1/account/login", { body: { email, password: NEW_PASSWORD } });
    expect(login.status).toBe(200);
    expectError(await accept(token), 401, "INVALID_INVITATION");
  });

  it("racing accepts of one link: exactly one wins, one member exists", async () => {
    const { email, token } = await invited();
    const answers = await Promise.all([1, 2, 3, 4].map((i) => accept(token, `racer number ${i} password`)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401, 401]);
    for (const lost of answers.filter((a) => a.status === 401)) expect(lost.body.reason).toBe("INVALID_INVITATION");
    const [{ n }] = await sql(
      "SELECT count(*)::int AS n FROM members m JOIN member_identities i ON i.id = m.identity_id WHERE i.email_normalized = $1",
      [email],
    );
    expect(n).toBe(1);
  });

  it("gRPC: accepts; Connect: an unknown token is UNAUTHENTICATED INVALID_INVITATION", async () => {
    const { token } = await invited();
    const viaGrpc = await grpcCall(grpcClient(server.port, "account"), "AcceptInvitation", {
      token,
      password: NEW_PASSWORD,
    });
    expect(viaGrpc.response.management_token).toMatch(/^gmt_/);
    expect(Number(viaGrpc.response.expires_at.seconds)).toBeGreaterThan(Date.now() / 1000 + 11 * 3600);
    const viaConnect = await injectConnect(server.handle, "account", "AcceptInvitation", {
      token,
      password: NEW_PASSWORD,
    });
    expect({ status: viaConnect.status, code: viaConnect.body.code, reason: connectReason(viaConnect.body) }).toEqual({
      status: 401,
      code: "unauthenticated",
      reason: "INVALID_INVITATION",
    });
  });
});

describe("ListMembers", () => {
  const cases: Array<{
    name: string;
    headers: () => Record<string, string>;
    query: () => Promise<string>;
    status: number;
    reason: string;
    field?: string;
  }> = [
    {
      name: "no credential",
      headers: () => ({}),
      query: async () => "",
      status: 401,
      reason: "MISSING_MANAGEMENT_TOKEN",
    },
    {
      name: "expired token",
      headers: () => f.expiredHeaders,
      query: async () => "",
      status: 401,
      reason: "INVALID_MANAGEMENT_TOKEN",
    },
    {
      name: "limit over 100",
      headers: () => f.admin.headers,
      query: async () => "?limit=101",
      status: 400,
      reason: "VALIDATION_FAILED",
      field: "limit",
    },
    {
      name: "negative limit",
      headers: () => f.admin.headers,
      query: async () => "?limit=-1",
      status: 400,
      reason: "VALIDATION_FAILED",
      field: "limit",
    },
    {
      name: "forged cursor",
      headers: () => f.admin.headers,
      query: async () => "?cursor=cur_bm9wZQ.AAAAAAAAAAAAAAAAAAAAAA",
      status: 400,
      reason: "INVALID_CURSOR",
    },
    {
      name: "cursor of another organization's list",
      headers: () => f.admin.headers,
      query: async () => {
        await seedMember(server.deps, f.outsider.organization, "developer");
        const page = await listMembers(f.outsider.headers, "?limit=1");
        expect(page.body.next_cursor).toMatch(/^cur_/);
        return `?limit=1&cursor=${page.body.next_cursor}`;
      },
      status: 400,
      reason: "INVALID_CURSOR",
    },
  ];
  it.each(cases)("$name → $status $reason", async (c) => {
    const answer = await listMembers(c.headers(), await c.query());
    expectError(answer, c.status, c.reason);
    if (c.field) expect(answer.body.violations.map((v: { field: string }) => v.field)).toEqual([c.field]);
  });

  it("a developer lists its organization only, never another's", async () => {
    const answer = await listMembers(f.developer.headers);
    expect(answer.status).toBe(200);
    const emails = answer.body.data.map((m: { email: string }) => m.email);
    expect(emails).toEqual(expect.arrayContaining([f.admin.email, f.developer.email]));
    expect(emails).not.toContain(f.outsider.email);
    const other = await listMembers(f.outsider.headers);
    expect(other.body.data.map((m: { email: string }) => m.email)).not.toContain(f.admin.email);
  });

  it("pages newest first with cursors until has_more is false; pending invitations are not members", async () => {
    const org = await seedOrganization(server.deps);
    const seeded = [org.email];
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 3)); // distinct created_at, so the order is known
      seeded.push((await seedMember(server.deps, org.organization, i % 2 ? "admin" : "developer")).email);
    }
    const login = await injectHttp(server.handle, "/v1/account/login", {
      body: { email: org.email, password: org.password },
    });
    const headers = { authorization: `Bearer ${login.body.management_token}` };
    await invited(newEmail(), "developer", headers);
    const seen: Array<{ email: string }> = [];
    let query = "?limit=2";
    for (let pages = 1; ; pages++) {
      const page = await listMembers(headers, query);
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data);
      if (!page.body.has_more) {
        expect(page.body.next_cursor).toBe("");
        expect(pages).toBe(3);
        break;
      }
      query = `?limit=2&cursor=${page.body.next_cursor}`;
    }
    expect(seen.map((m) => m.email)).toEqual([...seeded].reverse());
    expect(Object.keys(seen[0]).sort()).toEqual(["created_at", "email", "id", "mfa_enabled", "role"]);
    expect((seen[0] as unknown as { id: string }).id).toMatch(/^mem_/);
  });

  it("gRPC and Connect answer the same page", async () => {
    const viaGrpc = await grpcCall(grpcClient(server.port, "account"), "ListMembers", { limit: 1 }, f.admin.headers);
    const viaConnect = await injectConnect(server.handle, "account", "ListMembers", { limit: 1 }, f.admin.headers);
    expect(viaConnect.status).toBe(200);
    expect(viaGrpc.response.data.map((m: { id: string }) => m.id)).toEqual(
      viaConnect.body.data.map((m: { id: string }) => m.id),
    );
    expect(viaConnect.body.has_more).toBe(true);
    expect(viaGrpc.response.has_more).toBe(true);
    expect(typeof viaConnect.body.data[0].created_at).toBe("string");
  });
});
