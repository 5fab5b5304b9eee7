// Threats: a script acting on the wrong organization, or reading a half-written answer as
// success; the CLI going around the rules, limits or audit log the RPCs enforce; a key printed
// by the CLI that does not work, or a revoke that leaves it working.
import { userInfo } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { http } from "../helpers/clients.js";
import { startTestServer } from "../helpers/server.js";
import { cliBox } from "./helpers.js";
import { longTest } from "../helpers/patience.js";

const PROJECT = ["--allowed-origin", "https://app.example.com", "--redirect-url", "https://app.example.com/cb"];

describe("cli: projects, API keys, members and the audit log", () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  // About 30 runs of the CLI, each opening and closing the database.
  it(
    "answers one JSON document on stdout, or an error object on stderr with an exit status",
    { timeout: longTest(2) },
    async () => {
      const box = await cliBox();
      cleanup.push(() => box.db.drop());
      const created = await box.json([
        "org",
        "create",
        "--name",
        "Acme",
        "--email",
        "ops@acme.test",
        "--password",
        "operator-password-1",
      ]);
      expect(created).toEqual({
        organization: { id: expect.stringMatching(/^org_/), name: "Acme", created_at: expect.any(String) },
        admin: {
          id: expect.stringMatching(/^mem_/),
          email: "ops@acme.test",
          role: "admin",
          created_at: expect.any(String),
        },
      });
      const org = created.organization.id;
      const other = (
        await box.json([
          "org",
          "create",
          "--name",
          "Other",
          "--email",
          "ops@other.test",
          "--password",
          "operator-password-1",
        ])
      ).organization.id;
      expect((await box.json(["org", "list"])).data.map((o: any) => o.id)).toEqual([org, other]);

      // Refused as the RPC refuses: the proto's rules, by field name, before anything is written.
      const invalid = await box.fails(
        ["project", "create", "--org", org, "--name", "Shop", "--allowed-origin", "not an origin"],
        64,
      );
      expect(invalid.reason).toBe("VALIDATION_FAILED");
      expect(invalid.violations!.map((v) => v.field).sort()).toEqual(["allowed_origins[0]", "redirect_url"]);
      expect(await box.fails(["project", "list"], 64)).toMatchObject({
        reason: "USAGE",
        message: expect.stringContaining("--org is required"),
      });
      expect(await box.fails(["project", "list", "--org", "org_00000000000000000000000000"], 1)).toMatchObject({
        reason: "ORGANIZATION_NOT_FOUND",
      });
      expect(await box.fails(["project", "list", "--org", org, "--limit", "500"], 64)).toMatchObject({
        reason: "VALIDATION_FAILED",
        violations: [{ field: "limit", description: "must be at most 100" }],
      });
      expect(await box.fails(["project", "frobnicate"], 64)).toMatchObject({ reason: "USAGE" });

      const first = await box.json([
        "project",
        "create",
        "--org",
        org,
        "--name",
        "Shop",
        ...PROJECT,
        "--token-expiry",
        "600",
        "--rate-limits",
        '{"signups_per_ip": 5}',
        "--display-name",
        "Shop & Co",
        "--accent-color",
        "#0a7e3b",
      ]);
      expect(first).toMatchObject({
        id: expect.stringMatching(/^proj_/),
        login_id: expect.stringMatching(/^lp_/),
        name: "Shop",
        description: "",
        token_expiry: 600,
        refresh_token_expiry: 2592000,
        mfa_required: false,
        allowed_origins: ["https://app.example.com"],
        redirect_url: "https://app.example.com/cb",
        rate_limits: expect.objectContaining({ signups_per_ip: 5 }),
        display_name: "Shop & Co",
        logo_url: "",
        accent_color: "#0a7e3b",
      });
      const second = await box.json(["project", "create", "--org", org, "--name", "Blog", ...PROJECT]);
      const onePage = await box.json(["project", "list", "--org", org, "--limit", "1"]);
      expect(onePage).toMatchObject({
        data: [{ id: second.id }],
        has_more: true,
        next_cursor: expect.stringMatching(/^cur_/),
      });
      expect(
        await box.json(["project", "list", "--org", org, "--limit", "1", "--cursor", onePage.next_cursor]),
      ).toMatchObject({ data: [{ id: first.id }], has_more: false });
      expect(
        (await box.json(["project", "list", "--org", org, "--limit", "1", "--all"])).data.map((p: any) => p.id),
      ).toEqual([second.id, first.id]);
      // Another organization's project is not found, as on the Account interface.
      expect(
        (await box.fails(["apikey", "create", "--org", other, "--project", first.id, "--label", "x"], 1)).reason,
      ).toBe("PROJECT_NOT_FOUND");

      // A key: the raw key in this answer only; text mode prints it alone on the first line.
      const full = await box.json(["apikey", "create", "--project", first.id, "--label", "backend"]);
      expect(full).toMatchObject({
        id: expect.stringMatching(/^key_/),
        key: expect.stringMatching(/^gk_/),
        kind: "secret",
        expires_at: null,
        project_id: first.id,
      });
      expect(full.scopes).toEqual(["auth:read", "auth:write", "users:read", "users:write"]);
      const readOnly = await box.run([
        "apikey",
        "create",
        "--org",
        org,
        "--project",
        first.id,
        "--label",
        "verifier",
        "--scope",
        "auth:read",
      ]);
      expect(readOnly.code).toBe(0);
      const readOnlyKey = readOnly.stdout.split("\n")[0];
      expect(readOnlyKey).toMatch(/^gk_[A-Za-z0-9_-]+$/);
      const doomed = await box.json(["apikey", "create", "--project", first.id, "--label", "doomed"]);
      const listed = await box.json(["apikey", "list", "--project", first.id]);
      expect(listed.data.map((k: any) => k.label)).toEqual(["doomed", "verifier", "backend"]);
      expect(JSON.stringify(listed)).not.toContain(full.key);
      expect(listed.data[2]).toMatchObject({ key_hint: full.key.slice(0, 8) });
      expect(listed.data[2]).not.toHaveProperty("key");
      expect(await box.json(["apikey", "revoke", "--org", org, "--id", doomed.id])).toEqual({
        revoked: true,
        id: doomed.id,
      });
      expect(await box.json(["apikey", "revoke", "--org", org, "--id", doomed.id])).toEqual({
        revoked: false,
        id: doomed.id,
      });
      expect((await box.fails(["apikey", "revoke", "--org", other, "--id", full.id], 1)).reason).toBe(
        "API_KEY_NOT_FOUND",
      );

      // Members: the invitation goes through the outbox like InviteMember's, from no member.
      expect(
        await box.json(["member", "invite", "--org", org, "--email", "dev@acme.test", "--role", "developer"]),
      ).toEqual({ message: "Invitation sent" });
      expect(
        (await box.fails(["member", "invite", "--org", org, "--email", "ops@acme.test", "--role", "admin"], 1)).reason,
      ).toBe("MEMBER_EXISTS");
      const members = await box.json(["member", "list", "--org", org]);
      expect(members).toEqual({
        data: [
          {
            id: created.admin.id,
            email: "ops@acme.test",
            role: "admin",
            created_at: expect.any(String),
            mfa_enabled: false,
          },
        ],
        next_cursor: "",
        has_more: false,
      });
      const outbox = await box.json(["outbox", "list"]);
      expect(outbox.data).toHaveLength(1);
      expect(outbox.data[0]).toMatchObject({
        channel: "email",
        recipient: "dev@acme.test",
        subject: "You are invited to join Acme on Gatehouse",
      });
      expect(outbox.data[0].text).toContain("You have been invited");
      const invitation = /token=(ginv_[A-Za-z0-9_-]+)/.exec(outbox.data[0].text)![1];

      const server = await startTestServer({}, box.db);
      cleanup.push(() => server.close());
      const signup = (key: string) =>
        http(`${server.url}/v1/auth/signup`, {
          headers: { "x-service-key": key },
          body: { email: `u${Math.random()}@example.com`, password: "a sturdy passphrase" },
        });
      expect((await signup(full.key)).status).toBe(200);
      const scoped = await signup(readOnlyKey);
      expect([scoped.status, scoped.body.reason]).toEqual([403, "SCOPE_REQUIRED"]);
      const revoked = await signup(doomed.key);
      expect([revoked.status, revoked.body.reason]).toEqual([401, "INVALID_API_KEY"]);
      const accepted = await http(`${server.url}/v1/account/invitations/accept`, {
        body: { token: invitation, password: "developer password 1" },
      });
      expect(accepted.status).toBe(200);
      await server.close();
      cleanup.pop();

      // Every change the CLI made is in the audit log, by the operator who ran it.
      const events = await box.json(["audit", "list", "--org", org, "--all"]);
      const byOperator = events.data.filter((e: any) => e.actor_type === "operator");
      expect(byOperator.map((e: any) => e.type).sort()).toEqual([
        "api_key.created",
        "api_key.created",
        "api_key.created",
        "api_key.revoked",
        "member.invited",
        "project.created",
        "project.created",
      ]);
      for (const e of byOperator)
        expect(e).toMatchObject({ actor_id: userInfo().username, user_agent: "gatehouse-cli", ip_address: "" });
      expect(events.data.map((e: any) => e.type)).toContain("member.joined");
      const filtered = await box.json([
        "audit",
        "list",
        "--project",
        first.id,
        "--type",
        "api_key.created,api_key.revoked",
      ]);
      expect(filtered.data).toHaveLength(4);

      // Without --json: text for people, errors as a line on stderr.
      const textList = await box.run(["project", "list", "--org", org]);
      expect(textList.stdout).toMatch(
        new RegExp(`^${second.id}  Blog  login id lp_\\w+  created \\S+\\n${first.id}  Shop  `),
      );
      const textError = await box.run(["apikey", "revoke", "--org", org, "--id", "key_nope"]);
      expect(textError).toEqual({
        code: 1,
        stdout: "",
        stderr: "gatehouse: no such active API key in this organization\n",
      });
    },
  );
});
