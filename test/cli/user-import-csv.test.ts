// Threats: a CSV export (quoted cells with commas, quotes and line breaks, CRLF) misread so that
// users get the wrong fields or refusals name the wrong lines; a misspelt column silently
// dropping a field from every user.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import bcrypt from "bcryptjs";
import { afterEach, describe, expect, it } from "vitest";
import { http } from "../helpers/clients.js";
import { startTestServer } from "../helpers/server.js";
import { cliBox } from "./helpers.js";

// The files go in the data directory, which the service keeps private (data-dir-modes.ts): one
// others may read there is repaired with a warning on stderr, before the error object checked here.
const PRIVATE = 0o600;

describe("cli: user import from CSV", () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it("reads quoted cells and multi-line records, refuses bad lines by their line number, and stops at an unknown column", async () => {
    const box = await cliBox();
    cleanup.push(() => box.db.drop());
    const org = await box.json([
      "org",
      "create",
      "--name",
      "Csv",
      "--email",
      "ops@csv.test",
      "--password",
      "operator-password-1",
    ]);
    const project = await box.json([
      "project",
      "create",
      "--org",
      org.organization.id,
      "--name",
      "Csv shop",
      "--allowed-origin",
      "https://csv.example.com",
      "--redirect-url",
      "https://csv.example.com/cb",
    ]);
    const { key } = await box.json(["apikey", "create", "--project", project.id, "--label", "csv"]);
    const hash = bcrypt.hashSync("csv password 1", 5);

    const file = join(box.db.dataDir, "users.csv");
    await writeFile(file, `emial,password_hash\r\nx@example.com,${hash}\r\n`, { mode: PRIVATE });
    const misspelt = await box.fails(["user", "import", "--project", project.id, "--file", file], 65);
    expect(misspelt.reason).toBe("INVALID_FILE");
    expect(misspelt.message).toContain('unknown columns: "emial"');

    const rows = [
      "email,password_hash,email_verified,metadata,phone", // 1
      `carla@example.com,${hash},yes,"{""plan"": ""pro, yearly""}",`, // 2
      `dan@example.com,${hash},no,"{""note"": ""two, lines"",`, // 3
      ` ""tier"": 2}",+15550000002`, // 4: the same record as line 3
      "eve@example.com,,maybe,,", // 5
      `frank@example.com,${hash},true,{bad json},`, // 6
      `gail@example.com,"${hash}"x,true,,`, // 7
      "hal@example.com,only,three", // 8
      `"ivan@example.com",${hash},1,,`, // 9
    ];
    await writeFile(file, `\uFEFF${rows.join("\r\n")}\r\n`, { mode: PRIVATE });
    const result = await box.run(["user", "import", "--project", project.id, "--file", file, "--json"]);
    expect(result.code).toBe(65);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ total: 7, imported: 3, refused: 4, password_hashes: { bcrypt: 3 } });
    expect(summary.refusals).toEqual([
      { line: 5, reason: "VALIDATION_FAILED", message: "email_verified and phone_verified must be true or false" },
      { line: 6, reason: "VALIDATION_FAILED", message: "metadata and app_metadata must be JSON objects" },
      { line: 7, reason: "MALFORMED_LINE", message: "the line has text after a closing quote" },
      { line: 8, reason: "MALFORMED_LINE", message: "the line has 3 fields; the header names 5" },
    ]);

    // Text mode: the same report, for people.
    const text = await box.run(["user", "import", "--project", project.id, "--file", file]);
    expect(text.code).toBe(65);
    expect(text.stdout).toMatch(
      new RegExp(`^imported 0 of 7 users into ${project.id}; 7 refused:\\n  line 2: EMAIL_EXISTS: `),
    );
    expect(text.stdout).toContain("  line 8: MALFORMED_LINE: the line has 3 fields; the header names 5\n");

    const server = await startTestServer({}, box.db);
    cleanup.push(() => server.close());
    const login = (email: string) =>
      http(`${server.url}/v1/auth/login`, {
        headers: { "x-service-key": key },
        body: { email, password: "csv password 1" },
      });
    const carla = await login("carla@example.com");
    expect(carla.status).toBe(200);
    expect(carla.body.user).toMatchObject({ email_verified: true, metadata: { plan: "pro, yearly" } });
    const dan = await login("dan@example.com");
    expect(dan.body.user).toMatchObject({
      email_verified: false,
      metadata: { note: "two, lines", tier: 2 },
      phone: "+15550000002",
    });
    expect((await login("ivan@example.com")).status).toBe(200);
  });

  it("names what is wrong with the command: a missing file, a name that is neither .jsonl nor .csv, an unknown project", async () => {
    const box = await cliBox();
    cleanup.push(() => box.db.drop());
    const org = await box.json([
      "org",
      "create",
      "--name",
      "Files",
      "--email",
      "ops@files.test",
      "--password",
      "operator-password-1",
    ]);
    const project = await box.json([
      "project",
      "create",
      "--org",
      org.organization.id,
      "--name",
      "Files",
      "--allowed-origin",
      "https://files.example.com",
      "--redirect-url",
      "https://files.example.com/cb",
    ]);
    const missing = await box.fails(
      ["user", "import", "--project", project.id, "--file", join(box.db.dataDir, "nope.csv")],
      66,
    );
    expect(missing).toEqual({ reason: "FILE_UNREADABLE", message: expect.stringContaining("ENOENT") });
    const txt = join(box.db.dataDir, "users.txt");
    await writeFile(txt, "email\n", { mode: PRIVATE });
    expect((await box.fails(["user", "import", "--project", project.id, "--file", txt], 64)).reason).toBe("USAGE");
    const csv = join(box.db.dataDir, "users.csv");
    await writeFile(csv, "email\na@example.com\n", { mode: PRIVATE });
    expect(
      await box.fails(["user", "import", "--project", "proj_00000000000000000000000000", "--file", csv], 1),
    ).toEqual({
      reason: "PROJECT_NOT_FOUND",
      message: "no such project in this organization",
    });
    // The project's organization, when named, must be the one that has it.
    const other = await box.json([
      "org",
      "create",
      "--name",
      "Other",
      "--email",
      "ops@other.test",
      "--password",
      "operator-password-1",
    ]);
    expect(
      (await box.fails(["user", "import", "--project", project.id, "--org", other.organization.id, "--file", csv], 1))
        .reason,
    ).toBe("PROJECT_NOT_FOUND");
    // `--format` overrides the name: the same text as JSON lines is not JSON.
    const asJson = JSON.parse(
      (await box.run(["user", "import", "--project", project.id, "--file", csv, "--format", "jsonl", "--json"])).stdout,
    );
    expect(asJson).toMatchObject({ total: 2, imported: 0, refused: 2 });
    const done = await box.run([
      "user",
      "import",
      "--project",
      project.id,
      "--org",
      org.organization.id,
      "--file",
      csv,
      "--json",
    ]);
    expect([done.code, done.stderr]).toEqual([0, "imported 1/1, 0 refused\n"]);
    expect(JSON.parse(done.stdout)).toMatchObject({ total: 1, imported: 1, refused: 0, refusals: [] });
  });
});
