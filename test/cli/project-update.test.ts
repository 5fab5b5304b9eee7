// Threats: an operator's change that does not reach the API (or reaches it half-made); a flag
// left out changing a setting it did not name; a typo in a flag, or a value the API refuses,
// written anyway; a change to another organization's project.
import { userInfo } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../helpers/clients.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { cliBox, type CliBox } from "./helpers.js";

const ADMIN = { email: "ops@acme.test", password: "operator-password-1" };

describe("cli: project update", () => {
  let box: CliBox;
  let server: TestServer;
  let other: string;
  let project: string;
  let key: string;
  let management: Record<string, string>;

  // GetProject on the Account interface, as the organization's admin reads it.
  async function getProject(id: string): Promise<any> {
    const res = await http(`${server.url}/v1/projects/${id}`, { method: "GET", headers: management });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }
  const signup = (email: string) =>
    http(`${server.url}/v1/auth/signup`, {
      headers: { "x-service-key": key },
      body: { email, password: "a sturdy passphrase 1" },
    });

  beforeAll(async () => {
    box = await cliBox();
    server = await startTestServer({}, box.db);
    const org = (
      await box.json(["org", "create", "--name", "Acme", "--email", ADMIN.email, "--password", ADMIN.password])
    ).organization.id;
    other = (
      await box.json(["org", "create", "--name", "Other", "--email", "ops@other.test", "--password", ADMIN.password])
    ).organization.id;
    project = (
      await box.json([
        "project",
        "create",
        "--org",
        org,
        "--name",
        "Shop",
        "--description",
        "The shop",
        "--allowed-origin",
        "https://app.example.com",
        "--redirect-url",
        "https://app.example.com/cb",
      ])
    ).id;
    key = (await box.json(["apikey", "create", "--project", project, "--label", "backend"])).key;
    const login = await http(`${server.url}/v1/account/login`, { body: ADMIN });
    expect(login.status).toBe(200);
    management = { authorization: `Bearer ${login.body.management_token}` };
  });
  afterAll(async () => {
    await server?.close();
    await box?.db.drop();
  });

  it("--signups closed reaches GetProject and Signup; each flag changes its setting and no other", async () => {
    const closed = await box.run(["project", "update", "--project", project, "--signups", "closed"]);
    expect(closed).toEqual({
      code: 0,
      stdout: expect.stringMatching(
        new RegExp(`^updated project ${project}  Shop  login id lp_\\w+  created \\S+\\nchanged: signups\\n$`),
      ),
      stderr: "",
    });
    expect(await getProject(project)).toMatchObject({ signups: "closed", name: "Shop", description: "The shop" });
    const refused = await signup("new@example.com");
    expect([refused.status, refused.body.reason]).toEqual([403, "SIGNUPS_CLOSED"]);

    const updated = await box.json([
      "project",
      "update",
      "--project",
      project,
      "--name",
      "Shop & Co",
      "--allowed-origin",
      "https://shop.example.com",
      "--allowed-origin",
      "https://www.shop.example.com",
      "--redirect-url",
      "https://shop.example.com/auth/callback",
      "--token-expiry",
      "600",
      "--refresh-token-expiry",
      "7200",
      "--session-idle-timeout",
      "900",
      "--mfa-required",
      "--send-verification",
      "--bot-protection",
      "--reveal-email-exists",
      "--max-sessions-per-user",
      "5",
      "--rate-limits",
      '{"signups_per_ip": 7}',
      "--display-name",
      "The Shop",
      "--logo-url",
      "https://shop.example.com/logo.svg",
      "--accent-color",
      "#0a7e3b",
      "--sms-country-code",
      "44",
      "--sms-country-code",
      "1",
      "--signups",
      "allowlist",
      "--signup-email-domain",
      "example.com",
      "--signup-email-domain",
      "shop.example.com",
      "--signup-method",
      "password",
      "--signup-method",
      "otp",
      "--default-locale",
      "fr-ca",
    ]);
    expect(updated).toMatchObject({
      id: project,
      name: "Shop & Co",
      description: "The shop",
      allowed_origins: ["https://shop.example.com", "https://www.shop.example.com"],
      redirect_url: "https://shop.example.com/auth/callback",
      token_expiry: 600,
      refresh_token_expiry: 7200,
      session_idle_timeout: 900,
      mfa_required: true,
      send_verification: true,
      bot_protection: true,
      reveal_email_exists: true,
      max_sessions_per_user: 5,
      rate_limits: expect.objectContaining({ signups_per_ip: 7 }),
      display_name: "The Shop",
      logo_url: "https://shop.example.com/logo.svg",
      accent_color: "#0a7e3b",
      sms_country_codes: ["44", "1"],
      signups: "allowlist",
      signup_email_domains: ["example.com", "shop.example.com"],
      signup_methods: ["password", "otp"],
      default_locale: "fr-CA",
    });
    // The CLI's answer is UpdateProject's, which is the project as GetProject reads it.
    expect(await getProject(project)).toEqual(updated);

    // Turned off, cleared; what no flag names stays as it was.
    const off = await box.json([
      "project",
      "update",
      "--project",
      project,
      "--no-mfa-required",
      "--no-bot-protection",
      "--clear-sms-country-codes",
      "--description",
      "",
    ]);
    expect(off).toEqual({
      ...updated,
      mfa_required: false,
      bot_protection: false,
      sms_country_codes: [],
      description: "",
      updated_at: expect.any(String),
    });
    expect(await getProject(project)).toEqual(off);
    const text = await box.run([
      "project",
      "update",
      "--project",
      project,
      "--no-send-verification",
      "--token-expiry",
      "900",
    ]);
    expect(text.stdout.split("\n")[1]).toBe("changed: send_verification, token_expiry");

    // Each change is in the audit log, by the operator.
    const events = await box.json(["audit", "list", "--project", project, "--type", "project.updated"]);
    expect(events.data).toHaveLength(4);
    for (const e of events.data) expect(e).toMatchObject({ actor_type: "operator", actor_id: userInfo().username });
  });

  it("refuses bad options before anything is written, naming the option or the API field", async () => {
    const before = await getProject(project);
    const update = ["project", "update", "--project", project];
    expect((await box.fails(["project", "update", "--signups", "closed"], 64)).message).toMatch(
      /^--project is required/,
    );
    expect(await box.fails(update, 64)).toEqual({
      reason: "USAGE",
      message: "nothing to change: give at least one setting to change",
    });
    expect(await box.fails([...update, "--mfa-required", "--no-mfa-required"], 64)).toEqual({
      reason: "USAGE",
      message: "--mfa-required and --no-mfa-required contradict each other: give one",
    });
    expect(await box.fails([...update, "--signup", "closed"], 64)).toMatchObject({
      reason: "USAGE",
      message: expect.stringContaining("'--signup'"),
    });
    expect(await box.fails([...update, "--signups", "sometimes"], 64)).toMatchObject({
      reason: "VALIDATION_FAILED",
      violations: [{ field: "signups" }],
    });
    expect(await box.fails([...update, "--signup-method", "fax"], 64)).toMatchObject({
      reason: "VALIDATION_FAILED",
      violations: [{ field: "signup_methods[0]" }],
    });
    expect(await box.fails([...update, "--default-locale", "@@"], 64)).toMatchObject({
      reason: "VALIDATION_FAILED",
      violations: [{ field: "default_locale" }],
    });
    expect(await box.fails([...update, "--token-expiry", "10"], 64)).toMatchObject({
      reason: "VALIDATION_FAILED",
      violations: [{ field: "token_expiry" }],
    });
    expect(await box.fails([...update, "--token-expiry", "soon"], 64)).toMatchObject({
      violations: [{ field: "token_expiry", description: "must be an integer (--token-expiry)" }],
    });
    expect(await box.fails([...update, "--redirect-url", "not a url"], 64)).toMatchObject({
      violations: [{ field: "redirect_url" }],
    });
    expect(await box.fails([...update, "--sms-country-code", "44", "--clear-sms-country-codes"], 64)).toMatchObject({
      violations: [{ field: "clear_sms_country_codes" }],
    });
    expect(await box.run([...update, "--rate-limits", "{not json"])).toMatchObject({
      code: 64,
      stderr: expect.stringMatching(/^gatehouse: rate_limits: must be a RateLimits JSON object/),
    });
    // Not found, as on the Account interface: unknown, or another organization's.
    expect((await box.fails([...update, "--org", other, "--name", "Mine"], 1)).reason).toBe("PROJECT_NOT_FOUND");
    expect(
      (await box.fails(["project", "update", "--project", "proj_00000000000000000000000000", "--name", "X"], 1)).reason,
    ).toBe("PROJECT_NOT_FOUND");
    expect(await getProject(project)).toEqual(before);
  });
});
