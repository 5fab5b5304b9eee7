// Threats: a hook secret printed more than once, or printed and not the one that signs; a hook
// the operator removed still refusing signups; the CLI saving a URL the Account interface would
// refuse, or a hook on another organization's project.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../helpers/clients.js";
import { eventually } from "../helpers/eventually.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.js";
import { cliBox, orgsWithProject, type CliBox } from "./helpers.js";

// The server calls the loopback receiver, which OUTBOUND_ALLOW_HOSTS allows. On PGlite the
// commands run inside the server; on PostgreSQL beside it, with the same setting.
const OUTBOUND = { OUTBOUND_ALLOW_HOSTS: "127.0.0.1/32" };
const PASSWORD = "a sturdy passphrase 1";

describe("cli: hooks", () => {
  let box: CliBox;
  let server: TestServer;
  let receiver: Receiver;
  let other: string;
  let project: string;
  let key: string;

  const signup = (email: string) =>
    http(`${server.url}/v1/auth/signup`, { headers: { "x-service-key": key }, body: { email, password: PASSWORD } });

  beforeAll(async () => {
    box = await cliBox(OUTBOUND);
    server = await startTestServer(OUTBOUND, box.db);
    receiver = await startReceiver("/hook");
    ({ other, project } = await orgsWithProject(box));
    key = (await box.json(["apikey", "create", "--project", project, "--label", "backend"])).key;
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
    await box?.db.drop();
  });

  it("hook set prints the secret once and the hook answers signups; hook list and hook delete", async () => {
    const set = await box.run([
      "hook",
      "set",
      "--project",
      project,
      "--kind",
      "before_user_created",
      "--url",
      receiver.url,
    ]);
    expect(set.code).toBe(0);
    expect(set.stderr).toBe("");
    const [secret, summary, notice] = set.stdout.trimEnd().split("\n");
    expect(secret).toMatch(/^whsec_/);
    expect(summary).toMatch(
      new RegExp(`^set hook before_user_created  ${receiver.url}  failure policy closed  project ${project}  updated `),
    );
    expect(notice).toBe(
      "the secret above is shown only now: give it to the receiver, which verifies signatures with it",
    );

    // The receiver verifies the call with the secret printed, and its deny reaches the user.
    receiver.secrets = [secret];
    receiver.behaviour = {
      kind: "json",
      answer: (body) =>
        body.user.email.endsWith("@blocked.example")
          ? { decision: "deny", message: "Accounts from blocked.example are not accepted." }
          : { decision: "allow" },
    };
    const refused = await signup("eve@blocked.example");
    expect([refused.status, refused.body.reason, refused.body.message]).toEqual([
      403,
      "SIGNUP_REFUSED_BY_HOOK",
      "Accounts from blocked.example are not accepted.",
    ]);
    expect(receiver.received.map((r) => r.body.user.email)).toEqual(["eve@blocked.example"]);

    // Setting it again keeps the secret unless asked: nothing to print.
    const kept = await box.run([
      "hook",
      "set",
      "--project",
      project,
      "--kind",
      "before_user_created",
      "--url",
      receiver.url,
      "--failure-policy",
      "open",
    ]);
    expect(kept.stdout).toMatch(/^set hook before_user_created  \S+  failure policy open  /);
    expect(kept.stdout).toContain("its secret is unchanged (--rotate-secret makes a new one)");
    expect(kept.stdout).not.toMatch(/whsec_/);
    const rotated = await box.json([
      "hook",
      "set",
      "--project",
      project,
      "--kind",
      "before_user_created",
      "--url",
      receiver.url,
      "--rotate-secret",
    ]);
    expect(rotated).toEqual({
      kind: "before_user_created",
      url: receiver.url,
      failure_policy: "closed",
      created_at: expect.any(String),
      updated_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(rotated.secret).not.toBe(secret);
    const claims = await box.json([
      "hook",
      "set",
      "--project",
      project,
      "--kind",
      "custom_access_token",
      "--url",
      receiver.url,
    ]);
    expect(claims).toMatchObject({ kind: "custom_access_token", failure_policy: "open" });

    // Listed without their secrets.
    const listed = await box.run(["hook", "list", "--project", project]);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trimEnd().split("\n");
    expect(lines.map((l) => l.split("  ").slice(0, 3))).toEqual([
      ["before_user_created", receiver.url, "failure policy closed"],
      ["custom_access_token", receiver.url, "failure policy open"],
    ]);
    const listedJson = await box.json(["hook", "list", "--project", project]);
    expect(listedJson.data.map((h: any) => Object.keys(h).sort())).toEqual([
      ["created_at", "failure_policy", "kind", "updated_at", "url"],
      ["created_at", "failure_policy", "kind", "updated_at", "url"],
    ]);
    for (const s of [secret, rotated.secret, claims.secret]) {
      expect(listed.stdout).not.toContain(s);
      expect(JSON.stringify(listedJson)).not.toContain(s);
    }

    // Deleted: the next signup is not asked (other instances within their hook cache's lifetime).
    expect(await box.json(["hook", "delete", "--project", project, "--kind", "before_user_created"])).toEqual({
      deleted: true,
      kind: "before_user_created",
    });
    await eventually(
      "a signup the removed hook would have refused",
      async () => (await signup(`ann${Date.now()}@blocked.example`)).status === 200,
      undefined,
      1000,
    );
    expect((await box.run(["hook", "list", "--project", project])).stdout).toMatch(/^custom_access_token  /);
    expect(await box.run(["hook", "delete", "--project", project, "--kind", "before_user_created"])).toEqual({
      code: 1,
      stdout: "",
      stderr: "gatehouse: this project has no before_user_created hook\n",
    });
    expect(await box.json(["hook", "delete", "--project", project, "--kind", "custom_access_token"])).toMatchObject({
      deleted: true,
    });
    expect((await box.run(["hook", "list", "--project", project])).stdout).toBe(`no hooks in project ${project}\n`);
  });

  it("user import asks before_user_created for every line: a deny refuses that line with the hook's message", async () => {
    const set = await box.json([
      "hook",
      "set",
      "--project",
      project,
      "--kind",
      "before_user_created",
      "--url",
      receiver.url,
    ]);
    receiver.secrets = [set.secret];
    receiver.behaviour = {
      kind: "json",
      answer: (body) =>
        body.user.email.endsWith("@blocked.example")
          ? { decision: "deny", message: "Not from blocked.example." }
          : { decision: "allow" },
    };
    const file = join(box.db.dataDir, "hook-import.jsonl");
    const emails = ["imp-a@example.com", "imp-b@blocked.example", "imp-c@example.com"];
    await writeFile(file, emails.map((email) => JSON.stringify({ email })).join("\n") + "\n");
    const result = await box.run(["user", "import", "--project", project, "--file", file, "--json"]);
    expect(result.code).toBe(65); // a line refused, the others imported
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ total: 3, imported: 2, refused: 1 });
    expect(summary.refusals).toEqual([
      { line: 2, reason: "SIGNUP_REFUSED_BY_HOOK", message: "Not from blocked.example." },
    ]);
    const asked = receiver.received.filter((r) => r.body.method === "import").map((r) => r.body.user.email);
    expect(asked).toEqual(emails);
    await box.json(["hook", "delete", "--project", project, "--kind", "before_user_created"]);
  });

  it("refuses bad options before anything is written, naming the option or the API field", async () => {
    const set = ["hook", "set", "--project", project];
    expect(await box.fails([...set, "--kind", "before_login", "--url", receiver.url], 64)).toMatchObject({
      reason: "VALIDATION_FAILED",
      violations: [{ field: "kind" }],
    });
    expect(await box.fails([...set, "--kind", "before_user_created"], 64)).toEqual({
      reason: "USAGE",
      message: "--url is required: where the hook is POSTed (https)",
    });
    expect(await box.fails([...set, "--url", receiver.url], 64)).toEqual({
      reason: "USAGE",
      message: "--kind is required: before_user_created or custom_access_token",
    });
    expect((await box.fails(["hook", "list"], 64)).message).toMatch(/^--project is required/);
    expect(
      await box.fails([...set, "--kind", "before_user_created", "--url", receiver.url, "--failure-policy", "lax"], 64),
    ).toMatchObject({ reason: "VALIDATION_FAILED", violations: [{ field: "failure_policy" }] });
    expect(
      await box.fails([...set, "--kind", "before_user_created", "--url", receiver.url, "--policy", "open"], 64),
    ).toMatchObject({ reason: "USAGE", message: expect.stringContaining("'--policy'") });
    // Plain http to a public address: the server's reason, as the Account interface gives it.
    const plain = await box.run([...set, "--kind", "custom_access_token", "--url", "http://93.184.215.14/hook"]);
    expect(plain).toEqual({ code: 64, stdout: "", stderr: expect.stringMatching(/^gatehouse: url: must be https\n/) });
    // Another organization's project is not found, as on the Account interface.
    expect(
      await box.fails(
        ["hook", "set", "--org", other, "--project", project, "--kind", "custom_access_token", "--url", receiver.url],
        1,
      ),
    ).toMatchObject({ reason: "PROJECT_NOT_FOUND" });
    expect((await box.json(["hook", "list", "--project", project])).data).toEqual([]);
  });
});
