import { describe, expect, it } from "vitest";
import { accountFixture } from "../helpers/account.js";
import { bearer, linkToken, membersKit, PUBLIC_URL } from "../helpers/members.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { createApiKey, createProject } from "../account/project-helpers.js";
import { BEHIND_PROXY, client } from "./helpers.js";
import { injectHttp } from "../helpers/inject.js";

// Threat: a member (or whoever holds a member's token) changes keys, members, SSO or projects
// and nobody can tell who or from where; or one organization reads another's record.
describe("audit: Account events", () => {
  const env = useMessagingServer({ smtp: true, env: { ...BEHIND_PROXY, PUBLIC_URL } });
  const kit = membersKit(
    () => env.server,
    () => env.smtp,
  );
  const events = async (headers: Record<string, string>, query = "") => {
    const res = await injectHttp(env.server.handle, `/v1/audit-events?limit=100${query}`, { headers });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as any[];
  };

  it("projects, signing keys, API keys and SSO connections, with the member as actor", async () => {
    const f = await accountFixture(env.server);
    const c = client();
    const as = { ...f.admin.headers, ...c.headers };
    const project = await createProject(f, {}, as);
    expect((await f.rest("PATCH", `/v1/projects/${project.id}`, as, { name: "Renamed" })).status).toBe(200);
    expect((await f.rest("POST", `/v1/projects/${project.id}/signing-keys/rotate`, as, {})).status).toBe(200);
    const key = await createApiKey(f, project.id, {}, as);
    expect((await f.rest("DELETE", `/v1/api-keys/${key.id}`, as)).status).toBe(200);
    const sso = await f.rest("POST", `/v1/projects/${project.id}/sso-connections`, as, {
      name: "Okta",
      issuer: "https://idp.example.com",
      client_id: "abc",
      client_secret: "s3cret-value-never-logged",
    });
    expect(sso.status, JSON.stringify(sso.body)).toBe(200);
    expect((await f.rest("DELETE", `/v1/sso-connections/${sso.body.id}`, as)).status).toBe(200);
    expect((await f.rest("DELETE", `/v1/projects/${project.id}`, as)).status).toBe(200);

    const list = await events(f.developer.headers, `&project_id=${project.id}`);
    expect(list.map((e) => [e.type, e.target_id])).toEqual([
      ["project.deleted", project.id],
      ["sso_connection.deleted", sso.body.id],
      ["sso_connection.created", sso.body.id],
      ["api_key.revoked", key.id],
      ["api_key.created", key.id],
      ["project.signing_key.rotated", project.id],
      ["project.updated", project.id],
      ["project.created", project.id],
    ]);
    for (const e of list)
      expect(e).toMatchObject({
        actor_type: "member",
        actor_id: f.admin.member.id,
        ip_address: c.ip,
        user_agent: c.userAgent,
        project_id: project.id,
      });
    expect(list.find((e) => e.type === "project.updated").details).toEqual({ fields: ["name"] });
    expect(JSON.stringify(list)).not.toContain("s3cret-value-never-logged");
    expect(JSON.stringify(list)).not.toContain(key.key);
    // Another organization's admin sees none of it.
    expect(await events(f.outsider.headers, `&project_id=${project.id}`)).toEqual([]);
    expect((await events(f.outsider.headers)).some((e) => e.actor_id === f.admin.member.id)).toBe(false);
  });

  it("member sign-ins, invitations, password changes, logout and removal", async () => {
    const f = await accountFixture(env.server);
    const c = client();
    const email = `joiner-${Date.now()}@example.com`;
    const token = await kit.invite(f.admin.headers, email, "developer");
    const accepted = await injectHttp(env.server.handle, "/v1/account/invitations/accept", {
      headers: c.headers,
      body: { token, password: "a joiner's passphrase 1" },
    });
    expect(accepted.status).toBe(200);
    const joined = bearer(accepted.body.management_token);
    const wrong = await injectHttp(env.server.handle, "/v1/account/login", {
      headers: c.headers,
      body: { email, password: "not it at all" },
    });
    expect(wrong.status).toBe(401);
    const ok = await injectHttp(env.server.handle, "/v1/account/login", {
      headers: c.headers,
      body: { email, password: "a joiner's passphrase 1" },
    });
    expect(ok.status).toBe(200);
    const change = await injectHttp(env.server.handle, "/v1/account/password/change", {
      headers: { ...joined, ...c.headers },
      body: { current_password: "a joiner's passphrase 1", new_password: "the joiner's new passphrase 2" },
    });
    expect(change.status).toBe(200);
    expect(
      (await injectHttp(env.server.handle, "/v1/account/logout", { headers: { ...joined, ...c.headers }, body: {} }))
        .status,
    ).toBe(200);
    const memberId = (await kit.listMembers(f.admin.token)).body.data.find((m: any) => m.email === email).id;
    expect((await f.rest("DELETE", `/v1/members/${memberId}`, f.admin.headers)).status).toBe(200);

    const types =
      "&type=member.invited,member.joined,member.login.failed,member.login.succeeded,member.password.changed,member.logout,member.removed";
    // The failed sign-in is written after its answer: wait until it is there.
    let list: any[] = [];
    for (let i = 0; i < 50 && !list.some((e) => e.type === "member.login.failed"); i++)
      list = await events(f.admin.headers, types);
    // The fixture's own sign-ins (admin, developer) are there too, oldest.
    const fixtureLogins = list.filter((e) => e.type === "member.login.succeeded" && e.actor_id !== memberId);
    expect(fixtureLogins.map((e) => e.actor_id).sort()).toEqual([f.admin.member.id, f.developer.member.id].sort());
    list = list.filter((e) => !fixtureLogins.includes(e));
    expect(list.map((e) => [e.type, e.actor_type, e.actor_id])).toEqual([
      ["member.removed", "member", f.admin.member.id],
      ["member.logout", "member", memberId],
      ["member.password.changed", "member", memberId],
      ["member.login.succeeded", "member", memberId],
      ["member.login.failed", "member", memberId],
      ["member.joined", "member", memberId],
      ["member.invited", "member", f.admin.member.id],
    ]);
    expect(list.find((e) => e.type === "member.login.failed")).toMatchObject({
      reason: "INVALID_CREDENTIALS",
      ip_address: c.ip,
      user_agent: c.userAgent,
      project_id: "",
    });
    expect(JSON.stringify(list)).not.toContain("passphrase");
    // A password reset by email: in the log of every organization of the identity.
    const before = kit.mails(f.developer.email).length;
    expect(
      (
        await injectHttp(env.server.handle, "/v1/account/password/reset-request", {
          body: { email: f.developer.email },
        })
      ).status,
    ).toBe(200);
    const resetToken = linkToken(
      await env.smtp.waitFor(f.developer.email, { nth: before + 1 }),
      "member_password_reset",
    );
    const reset = await injectHttp(env.server.handle, "/v1/account/password/reset", {
      headers: c.headers,
      body: { token: resetToken, new_password: "the developer's new passphrase 4" },
    });
    expect(reset.status).toBe(200);
    const [resetEvent] = await events(f.admin.headers, "&type=member.password.reset");
    expect(resetEvent).toMatchObject({
      actor_type: "member",
      actor_id: f.developer.member.id,
      target_id: f.developer.member.id,
      ip_address: c.ip,
    });
    expect(JSON.stringify(resetEvent)).not.toContain(resetToken);

    // The outsider sees its own sign-in only.
    expect((await events(f.outsider.headers, types)).filter((e) => e.actor_id !== f.outsider.member.id)).toEqual([]);
  });
});
