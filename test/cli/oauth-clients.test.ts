// Threats: a client secret printed more than once (a list pasted into a ticket), or printed and
// not the one stored; the CLI saving a client the Account interface would refuse, or acting on
// another organization's client.
import { userInfo } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliBox, orgsWithProject, type CliBox } from "./helpers.js";

describe("cli: OAuth clients", () => {
  let box: CliBox;
  let other: string;
  let project: string;

  beforeAll(async () => {
    box = await cliBox();
    ({ other, project } = await orgsWithProject(box));
  });
  afterAll(async () => {
    await box?.db.drop();
  });

  it("creates, lists, updates, rotates and deletes, printing each secret once", async () => {
    const created = await box.run([
      "oauth-client",
      "create",
      "--project",
      project,
      "--name",
      "Shop web",
      "--redirect-uri",
      "https://app.example.com/oauth/cb",
      "--scope",
      "openid",
      "--scope",
      "email",
    ]);
    expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: "" });
    const [secret, summary, notice] = created.stdout.trimEnd().split("\n");
    expect(secret).toMatch(/^gcs_[A-Za-z0-9_-]{43}$/);
    expect(summary).toMatch(
      new RegExp(
        `^created OAuth client oac_\\w{26}  Shop web  confidential  grants authorization_code,refresh_token  project ${project}  created \\S+Z$`,
      ),
    );
    expect(notice).toBe("the secret above is shown only now: store it in the client's configuration");
    const id = /oac_\w{26}/.exec(summary)![0];

    const listed = await box.json(["oauth-client", "list", "--project", project]);
    expect(listed).toEqual({
      data: [
        {
          client_id: id,
          project_id: project,
          name: "Shop web",
          type: "confidential",
          redirect_uris: ["https://app.example.com/oauth/cb"],
          grant_types: ["authorization_code", "refresh_token"],
          scopes: ["openid", "email"],
          first_party: false,
          logo_uri: "",
          post_logout_redirect_uris: [],
          secret_hint: secret.slice(0, 8),
          allow_missing_pkce: false,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      ],
      next_cursor: "",
      has_more: false,
    });
    const text = await box.run(["oauth-client", "list", "--project", project]);
    expect(text.stdout).toContain(`${id}  Shop web  confidential  grants authorization_code,refresh_token`);
    expect(text.stdout + JSON.stringify(listed)).not.toContain(secret.slice(8));

    const updated = await box.json([
      "oauth-client",
      "update",
      "--id",
      id,
      "--name",
      "Shop",
      "--first-party",
      "--post-logout-redirect-uri",
      "https://app.example.com/bye",
    ]);
    expect(updated.client).toMatchObject({
      client_id: id,
      name: "Shop",
      first_party: true,
      post_logout_redirect_uris: ["https://app.example.com/bye"],
      redirect_uris: ["https://app.example.com/oauth/cb"],
    });
    expect((await box.json(["oauth-client", "update", "--id", id, "--third-party"])).client.first_party).toBe(false);
    const rotated = await box.run(["oauth-client", "rotate-secret", "--id", id]);
    expect(rotated.code).toBe(0);
    const [newSecret, rotatedLine] = rotated.stdout.split("\n");
    expect(newSecret).toMatch(/^gcs_/);
    expect(newSecret).not.toBe(secret);
    expect(rotatedLine).toBe(`new secret for OAuth client ${id}; the previous one no longer works`);
    const stored = await box.json(["oauth-client", "list", "--project", project]);
    expect(stored.data[0].secret_hint).toBe(newSecret.slice(0, 8));

    // Another organization's client is not found, as on the Account interface.
    for (const args of [
      ["update", "--id", id, "--name", "Theirs"],
      ["rotate-secret", "--id", id],
      ["delete", "--id", id],
    ])
      expect(await box.fails(["oauth-client", ...args, "--org", other], 1)).toMatchObject({
        reason: "OAUTH_CLIENT_NOT_FOUND",
      });

    expect(await box.json(["oauth-client", "delete", "--id", id])).toEqual({ deleted: true, id });
    expect((await box.run(["oauth-client", "list", "--project", project])).stdout).toBe("no OAuth clients\n");
    expect(await box.run(["oauth-client", "delete", "--id", id])).toEqual({
      code: 1,
      stdout: "",
      stderr: "gatehouse: no such OAuth client in this organization\n",
    });

    // The audit log names the operator for each change.
    const events = await box.json(["audit", "list", "--project", project]);
    const types = events.data.map((e: any) => e.type).filter((t: string) => t.startsWith("oauth_client."));
    expect(types).toEqual([
      "oauth_client.deleted",
      "oauth_client.secret_rotated",
      "oauth_client.updated",
      "oauth_client.updated",
      "oauth_client.created",
    ]);
    for (const e of events.data.filter((e: any) => e.type.startsWith("oauth_client.")))
      expect(e).toMatchObject({ actor_type: "operator", actor_id: userInfo().username });
  });

  it("gives a confidential client the exception to PKCE, says so on its line, and takes it away", async () => {
    const created = await box.json([
      "oauth-client",
      "create",
      "--project",
      project,
      "--name",
      "Legacy wiki",
      "--redirect-uri",
      "https://wiki.example.com/cb",
      "--allow-missing-pkce",
    ]);
    const id = created.client_id as string;
    expect(created.client.allow_missing_pkce).toBe(true);
    const listed = await box.run(["oauth-client", "list", "--project", project]);
    expect(listed.stdout).toContain(`${id}  Legacy wiki  confidential  PKCE optional  grants`);
    const required = await box.run(["oauth-client", "update", "--id", id, "--require-pkce"]);
    expect(required.stdout).toMatch(new RegExp(`^updated OAuth client ${id}  Legacy wiki  confidential  grants`));
  });

  it("a public client prints no secret and has none to rotate", async () => {
    const created = await box.run([
      "oauth-client",
      "create",
      "--project",
      project,
      "--name",
      "Shop for iOS",
      "--type",
      "public",
      "--redirect-uri",
      "com.example.shop:/cb",
    ]);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^created OAuth client oac_\w{26}  Shop for iOS  public  grants /);
    expect(created.stdout.split("\n")).toHaveLength(2);
    const id = /oac_\w{26}/.exec(created.stdout)![0];
    expect(await box.fails(["oauth-client", "rotate-secret", "--id", id], 64)).toMatchObject({
      reason: "VALIDATION_FAILED",
      violations: [{ field: "client_id" }],
    });
  });

  it("refuses bad options before anything is written, naming the option or the API field", async () => {
    const before = (await box.json(["oauth-client", "list", "--project", project])).data;
    const create = ["oauth-client", "create", "--project", project];
    expect(await box.fails([...create, "--redirect-uri", "https://app.example.com/cb"], 64)).toEqual({
      reason: "USAGE",
      message: "--name is required: the name shown on the consent page",
    });
    expect(
      await box.fails([...create, "--name", "X", "--redirect-uri", "http://app.example.com/cb"], 64),
    ).toMatchObject({
      reason: "VALIDATION_FAILED",
      violations: [{ field: "redirect_uris[0]" }],
    });
    expect(await box.fails([...create, "--name", "X", "--type", "hybrid"], 64)).toMatchObject({
      reason: "VALIDATION_FAILED",
      violations: [{ field: "type" }],
    });
    expect(
      await box.fails([...create, "--name", "X", "--type", "public", "--grant-type", "client_credentials"], 64),
    ).toMatchObject({ reason: "VALIDATION_FAILED", violations: [{ field: "grant_types" }] });
    expect(await box.fails(["oauth-client", "update", "--id", "oac_x", "--first-party", "--third-party"], 64)).toEqual({
      reason: "USAGE",
      message: "--first-party and --third-party contradict each other: give one",
    });
    expect(
      (await box.fails(["oauth-client", "update", "--id", "oac_x", "--allow-missing-pkce", "--require-pkce"], 64))
        .message,
    ).toBe("--allow-missing-pkce and --require-pkce contradict each other: give one");
    expect(
      await box.fails(
        [
          ...create,
          "--name",
          "X",
          "--type",
          "public",
          "--redirect-uri",
          "https://app.example.com/cb",
          "--allow-missing-pkce",
        ],
        64,
      ),
    ).toMatchObject({ reason: "VALIDATION_FAILED", violations: [{ field: "allow_missing_pkce" }] });
    expect((await box.fails(["oauth-client", "update", "--id", "oac_x"], 64)).message).toMatch(/^nothing to change/);
    expect((await box.fails(["oauth-client", "rotate-secret"], 64)).message).toMatch(/^--id is required/);
    expect((await box.json(["oauth-client", "list", "--project", project])).data).toEqual(before);
    expect(await box.fails(["oauth-client", "delete", "--id", "oac_00000000000000000000000000"], 1)).toMatchObject({
      reason: "OAUTH_CLIENT_NOT_FOUND",
    });
  });
});
