import { beforeAll, describe, expect, it } from "vitest";
import { accountFixture, expectError, type AccountFixture } from "../helpers/account.js";
import { grpcCall, grpcClient } from "../helpers/clients.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { bearer, membersKit, PUBLIC_URL } from "../helpers/members.js";
import { seedOrganization, seedProject } from "../helpers/seed.js";
import { injectConnect, injectHttp } from "../helpers/inject.js";

// One person, several organizations (issue 13). Threats: an inviter learns that an address
// belongs to another organization; an invitation link takes over an existing identity without
// its password; a token chosen for one organization reaches another; Login tells a stranger
// which organizations an email belongs to, or signs in to an organization the identity is not
// a member of.

const ctx = useMessagingServer({ smtp: true, env: { PUBLIC_URL } });
const kit = membersKit(
  () => ctx.server,
  () => ctx.smtp,
);
let f: AccountFixture;
let counter = 0;
const newEmail = () => `multi-${Date.now().toString(36)}-${counter++}@example.com`;

beforeAll(async () => {
  f = await accountFixture(ctx.server);
});

/** Organization names sort A before B, so the expected order of the choice list is known. */
async function twoOrganizations() {
  const a = await seedOrganization(ctx.server.deps);
  const b = await seedOrganization(ctx.server.deps);
  await ctx.sql("UPDATE organizations SET name = $2 WHERE id = $1", [a.organization.id, `A ${a.organization.name}`]);
  await ctx.sql("UPDATE organizations SET name = $2 WHERE id = $1", [b.organization.id, `B ${b.organization.name}`]);
  const adminA = bearer(await kit.token(a.email, a.password));
  const adminB = bearer(await kit.token(b.email, b.password));
  return {
    a: { ...a, name: `A ${a.organization.name}`, headers: adminA },
    b: { ...b, name: `B ${b.organization.name}`, headers: adminB },
  };
}

describe("one identity in two organizations", () => {
  it("invited into B as a member of A: the email asks for the current password, a wrong one is refused without spending the link, the right one joins B", async () => {
    const { a, b } = await twoOrganizations();
    const person = { email: newEmail(), password: "the person's own password" };
    const accepted = await kit.accept(await kit.invite(a.headers, person.email), person.password);
    expect(accepted.body.organization_id).toBe(a.organization.id);

    const token = await kit.invite(b.headers, person.email.toUpperCase(), "admin");
    const mail = kit.mails(person.email).at(-1)!;
    expect(mail.text).toContain("enter your current Gatehouse password");

    expectError(await kit.accept(token, "a password of my choosing"), 401, "INVALID_CREDENTIALS");
    const joined = await kit.accept(token, person.password);
    expect(joined.status).toBe(200);
    expect(joined.body.organization_id).toBe(b.organization.id);
    expect(joined.body.management_token).toMatch(/^gmt_/);
    expectError(await kit.accept(token, person.password), 401, "INVALID_INVITATION");

    // One identity, two memberships, the password unchanged.
    const [{ n }] = await ctx.sql("SELECT count(*)::int AS n FROM member_identities WHERE email_normalized = $1", [
      person.email,
    ]);
    expect(n).toBe(1);
    const inB = await kit.listMembers(joined.body.management_token);
    expect(inB.body.data.find((m: { email: string }) => m.email.toLowerCase() === person.email)?.role).toBe("admin");
    const inA = await kit.listMembers(accepted.body.management_token);
    expect(inA.body.data.find((m: { email: string }) => m.email === person.email)?.role).toBe("developer");
  });

  it("Login without organization_id lists both organizations (by name, with the role) and issues no token; with an id, a token that sees that organization only", async () => {
    const { a, b } = await twoOrganizations();
    const person = { email: newEmail(), password: "two organizations, one me" };
    await kit.accept(await kit.invite(b.headers, person.email, "admin"), person.password);
    expect((await kit.accept(await kit.invite(a.headers, person.email), person.password)).status).toBe(200);
    const projectA = await seedProject(ctx.server.deps, a.organization);
    const projectB = await seedProject(ctx.server.deps, b.organization);

    const choice = await kit.login(person.email, person.password);
    expect(choice.status).toBe(200);
    expect(choice.body).toEqual({
      management_token: "",
      organization_id: "",
      organizations: [
        { id: a.organization.id, name: a.name, role: "developer" },
        { id: b.organization.id, name: b.name, role: "admin" },
      ],
      // No second factor asked (issue 46): the list comes before any challenge.
      mfa_methods: [],
    });

    const tokenA = await kit.login(person.email, person.password, a.organization.id);
    expect(tokenA.body.organization_id).toBe(a.organization.id);
    const tokenB = await kit.login(person.email, person.password, b.organization.id);
    expect(tokenB.body.organization_id).toBe(b.organization.id);
    const seenA = await kit.listProjects(tokenA.body.management_token);
    expect(seenA.body.data.map((p: { id: string }) => p.id)).toEqual([projectA.id]);
    const seenB = await kit.listProjects(tokenB.body.management_token);
    expect(seenB.body.data.map((p: { id: string }) => p.id)).toEqual([projectB.id]);
    // Each token keeps to its organization, role included.
    expectError(
      await injectHttp(ctx.server.handle, `/v1/projects/${projectB.id}`, {
        headers: bearer(tokenA.body.management_token),
      }),
      404,
      "PROJECT_NOT_FOUND",
    );
    expectError(
      await injectHttp(ctx.server.handle, `/v1/projects/${projectA.id}`, {
        headers: bearer(tokenB.body.management_token),
      }),
      404,
      "PROJECT_NOT_FOUND",
    );
    expectError(
      await injectHttp(ctx.server.handle, "/v1/members/invite", {
        headers: bearer(tokenA.body.management_token),
        body: { email: newEmail(), role: "developer" },
      }),
      403,
      "ROLE_REQUIRED",
    );
    expect(
      (
        await injectHttp(ctx.server.handle, "/v1/members/invite", {
          headers: bearer(tokenB.body.management_token),
          body: { email: newEmail(), role: "developer" },
        })
      ).status,
    ).toBe(200);
  });

  it("an organization the identity is not a member of, an unknown id, a wrong password and an unknown email all answer the same INVALID_CREDENTIALS", async () => {
    const { a, b } = await twoOrganizations();
    const person = { email: newEmail(), password: "a member of A and B" };
    await kit.accept(await kit.invite(a.headers, person.email), person.password);
    await kit.accept(await kit.invite(b.headers, person.email), person.password);
    const answers = [
      await kit.login(person.email, person.password, f.outsider.organization.id),
      await kit.login(person.email, person.password, "org_00000000000000000000000000"),
      await kit.login(person.email, "not the password", a.organization.id),
      await kit.login(person.email, "not the password"),
      await kit.login(newEmail(), person.password, a.organization.id),
    ];
    for (const answer of answers) expectError(answer, 401, "INVALID_CREDENTIALS");
    const bodies = answers.map(({ body }) => ({ ...body, request_id: undefined }));
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    expect(JSON.stringify(bodies)).not.toContain("org_");
  });

  it("with one organization, Login answers its token and organization_id, and an organization_id naming it works too", async () => {
    const single = await kit.login(f.developer.email, f.developer.password);
    expect(single.body).toEqual({
      management_token: expect.stringMatching(/^gmt_/),
      expires_at: expect.any(String),
      organization_id: f.organization.id,
      organizations: [],
      mfa_methods: [],
    });
    expect(single.body.organization_id).toBe(f.organization.id);
    const named = await kit.login(f.developer.email, f.developer.password, f.organization.id);
    expect(named.body.organization_id).toBe(f.organization.id);
  });

  it("gRPC: Login lists the organizations, then signs in to the one named; Connect: a foreign organization is UNAUTHENTICATED", async () => {
    const { a, b } = await twoOrganizations();
    const person = { email: newEmail(), password: "over every protocol" };
    await kit.accept(await kit.invite(a.headers, person.email), person.password);
    await kit.accept(await kit.invite(b.headers, person.email), person.password);
    const grpc = grpcClient(ctx.server.port, "account");
    const choice = await grpcCall(grpc, "Login", { email: person.email, password: person.password });
    expect(choice.response.management_token).toBe("");
    expect(choice.response.organizations.map((o: { id: string }) => o.id)).toEqual([
      a.organization.id,
      b.organization.id,
    ]);
    const chosen = await grpcCall(grpc, "Login", {
      email: person.email,
      password: person.password,
      organization_id: b.organization.id,
    });
    expect(chosen.response.organization_id).toBe(b.organization.id);
    const projects = await grpcCall(grpc, "ListProjects", {}, bearer(chosen.response.management_token));
    expect(projects.error).toBeUndefined();

    const foreign = await injectConnect(ctx.server.handle, "account", "Login", {
      email: person.email,
      password: person.password,
      organizationId: f.organization.id,
    });
    expect({ status: foreign.status, code: foreign.body.code }).toEqual({ status: 401, code: "unauthenticated" });
  });
});

describe("InviteMember and AcceptInvitation across organizations", () => {
  it("MEMBER_EXISTS only for a member of this organization, in words that name no other organization", async () => {
    const { a, b } = await twoOrganizations();
    const person = { email: newEmail(), password: "member of A only" };
    await kit.accept(await kit.invite(a.headers, person.email), person.password);
    const again = await injectHttp(ctx.server.handle, "/v1/members/invite", {
      headers: a.headers,
      body: { email: person.email, role: "admin" },
    });
    expectError(again, 409, "MEMBER_EXISTS");
    expect(again.body.message).toBe("this email is already a member of this organization");
    const elsewhere = await injectHttp(ctx.server.handle, "/v1/members/invite", {
      headers: b.headers,
      body: { email: person.email, role: "admin" },
    });
    expect({ status: elsewhere.status, body: elsewhere.body }).toEqual({
      status: 200,
      body: { message: "Invitation sent" },
    });
  });

  it("a new email invited by two organizations: the first accept chooses the password, the second must give it", async () => {
    const { a, b } = await twoOrganizations();
    const email = newEmail();
    const fromA = await kit.invite(a.headers, email);
    const fromB = await kit.invite(b.headers, email);
    expect(kit.mails(email).map((m) => m.text.includes("choose a password"))).toEqual([true, true]);
    expect((await kit.accept(fromB, "chosen at the first accept")).status).toBe(200);
    expectError(await kit.accept(fromA, "a different password here"), 401, "INVALID_CREDENTIALS");
    expect((await kit.accept(fromA, "chosen at the first accept")).status).toBe(200);
    expect((await kit.login(email, "chosen at the first accept")).body.organizations).toHaveLength(2);
  });

  it("two organizations' invitations of one new email accepted at once with one password: both join, one identity", async () => {
    const { a, b } = await twoOrganizations();
    const email = newEmail();
    const tokens = [await kit.invite(a.headers, email), await kit.invite(b.headers, email)];
    const answers = await Promise.all(tokens.map((t) => kit.accept(t, "accepted twice at once")));
    expect(answers.map((x) => x.status)).toEqual([200, 200]);
    expect(answers.map((x) => x.body.organization_id).sort()).toEqual([a.organization.id, b.organization.id].sort());
    const [{ n }] = await ctx.sql("SELECT count(*)::int AS n FROM member_identities WHERE email_normalized = $1", [
      email,
    ]);
    expect(n).toBe(1);
  });
});
