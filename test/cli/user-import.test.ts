// Threats: users brought from another system locked out (their bcrypt, scrypt or argon2 hashes
// not checked), kept on a weak scheme after they sign in, or a line that fails taking the rest of
// the file with it; a plaintext password in the file echoed into the report or stored.
import { randomBytes, scryptSync } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { hash as argon2Hash, type Algorithm } from "@node-rs/argon2";
import bcrypt from "bcryptjs";
import { afterEach, describe, expect, it } from "vitest";
import { http } from "../helpers/clients.js";
import { startTestServer } from "../helpers/server.js";
import { cliBox, type CliBox } from "./helpers.js";

const ARGON2I = 1 as Algorithm;
const ARGON2ID = 2 as Algorithm;

/** passlib's format: `$scrypt$ln=…,r=…,p=…$salt$hash`, unpadded base64 with `.` for `+`. */
function scryptHash(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, 32, { N: 2 ** 10, r: 8, p: 1 });
  const b64 = (b: Buffer) => b.toString("base64").replace(/=+$/, "").replace(/\+/g, ".");
  return `$scrypt$ln=10,r=8,p=1$${b64(salt)}$${b64(hash)}`;
}

async function seed(box: CliBox): Promise<{ orgId: string; projectId: string; key: string }> {
  const org = await box.json([
    "org",
    "create",
    "--name",
    "Imports",
    "--email",
    "ops@imports.test",
    "--password",
    "operator-password-1",
  ]);
  const project = await box.json([
    "project",
    "create",
    "--org",
    org.organization.id,
    "--name",
    "Shop",
    "--allowed-origin",
    "https://shop.example.com",
    "--redirect-url",
    "https://shop.example.com/callback",
  ]);
  const key = await box.json(["apikey", "create", "--project", project.id, "--label", "import-test"]);
  return { orgId: org.organization.id, projectId: project.id, key: key.key };
}

describe("cli: user import", () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it("imports bcrypt, scrypt and argon2 users who then sign in over REST, upgraded to argon2id; bad lines are refused by line number", async () => {
    const box = await cliBox();
    cleanup.push(() => box.db.drop());
    const { projectId, key } = await seed(box);

    const users = {
      bcrypt: { email: "bea@example.com", password: "bcrypt password 1" },
      bcrypt2y: { email: "yann@example.com", password: "php password 2y" },
      bcrypt2a: { email: "ada@example.com", password: "old bcrypt 2a" },
      scrypt: { email: "sam@example.com", password: "scrypt password 9" },
      argon2id: { email: "ari@example.com", password: "argon2id password" },
      argon2i: { email: "ivy@example.com", password: "argon2i password" },
    };
    const bcryptHash = bcrypt.hashSync(users.bcrypt.password, 6);
    expect(bcryptHash).toMatch(/^\$2b\$06\$/);
    const plaintext = "hunter2-plaintext-in-the-wrong-column";
    const lines = [
      {
        email: users.bcrypt.email,
        password_hash: bcryptHash,
        email_verified: true,
        metadata: { plan: "pro" },
        app_metadata: { roles: ["admin"] },
        locale: "pt-br",
      },
      {
        email: users.bcrypt2y.email,
        password_hash: bcrypt.hashSync(users.bcrypt2y.password, 5).replace(/^\$2b\$/, "$2y$"),
      },
      {
        email: users.bcrypt2a.email,
        password_hash: bcrypt.hashSync(users.bcrypt2a.password, 5).replace(/^\$2b\$/, "$2a$"),
      },
      { email: users.scrypt.email, password_hash: scryptHash(users.scrypt.password) },
      {
        email: users.argon2id.email,
        password_hash: await argon2Hash(users.argon2id.password, {
          algorithm: ARGON2ID,
          memoryCost: 4096,
          timeCost: 2,
          parallelism: 1,
        }),
      },
      {
        email: users.argon2i.email,
        password_hash: await argon2Hash(users.argon2i.password, {
          algorithm: ARGON2I,
          memoryCost: 4096,
          timeCost: 2,
          parallelism: 1,
        }),
      },
      { phone: "+15551230001", phone_verified: true },
      { email: "BEA@example.com", password_hash: bcryptHash }, // the email of line 1 again
      {
        email: "pat@example.com",
        password_hash: "$pbkdf2-sha256$29000$N2bsvVcq5TyH0Jqz9l5rLQ$c0QV8Jmv2sXB2iiwSgmvHHZRPMlEEtXwVq0N3Eqm3rs",
      },
      { email: "oops@example.com", password_hash: plaintext },
      { email: "not-an-email", password_hash: bcryptHash },
      { email: "big@example.com", app_metadata: { blob: "x".repeat(5000) } },
      { email: "cost@example.com", password_hash: bcrypt.hashSync("x", 4).replace(/^\$2b\$04\$/, "$2b$15$") },
      { email: "tag@example.com", locale: "not a language" },
    ];
    const text = lines.map((l) => JSON.stringify(l));
    text.splice(8, 0, ""); // a blank line: skipped, yet counted in the line numbers
    text.splice(4, 0, "{not json"); // so the file's lines are: 5 malformed, 9 the repeated email, 10 blank
    const file = join(box.db.dataDir, "users.jsonl");
    // Private, as the service keeps its data directory (data-dir-modes.ts): a file others may read
    // there is repaired with a warning on stderr, which holds only progress lines here.
    await writeFile(file, `${text.join("\n")}\n`, { mode: 0o600 });

    const result = await box.run([
      "user",
      "import",
      "--project",
      projectId,
      "--file",
      file,
      "--batch-size",
      "3",
      "--json",
    ]);
    expect(result.code).toBe(65); // some lines refused, the others imported
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ project_id: projectId, total: 15, imported: 7, refused: 8 });
    expect(summary.password_hashes).toEqual({ bcrypt: 3, scrypt: 1, argon2id: 1, argon2i: 1, none: 1 });
    expect(summary.refusals.map((r: any) => [r.line, r.reason])).toEqual([
      [5, "MALFORMED_LINE"],
      [9, "EMAIL_EXISTS"],
      [11, "UNSUPPORTED_HASH"],
      [12, "UNSUPPORTED_HASH"],
      [13, "VALIDATION_FAILED"],
      [14, "VALIDATION_FAILED"],
      [15, "UNSUPPORTED_HASH"],
      [16, "VALIDATION_FAILED"],
    ]);
    expect(summary.refusals[1].message).toBe("line 1 has the same email");
    expect(summary.refusals[6].message).toContain("bcrypt cost 15");
    expect(summary.refusals[7].message).toBe("locale: must be a BCP 47 language tag");
    // A progress line a second at most, and the last one when done.
    const progress = result.stderr.trimEnd().split("\n");
    for (const line of progress) expect(line).toMatch(/^imported \d+\/15, \d+ refused$/);
    expect(progress.at(-1)).toBe("imported 7/15, 8 refused");
    // The value in the hash column is never repeated back.
    expect(result.stdout + result.stderr).not.toContain(plaintext);

    // Again: everything there is refused as existing, nothing is imported twice.
    const again = await box.run(["user", "import", "--project", projectId, "--file", file, "--json"]);
    expect(again.code).toBe(65);
    const rerun = JSON.parse(again.stdout);
    expect(rerun).toMatchObject({ imported: 0, refused: 15 });
    expect(
      rerun.refusals
        .filter((r: any) => r.reason === "EMAIL_EXISTS" || r.reason === "PHONE_EXISTS")
        .map((r: any) => [r.line, r.reason]),
    ).toEqual([
      [1, "EMAIL_EXISTS"],
      [2, "EMAIL_EXISTS"],
      [3, "EMAIL_EXISTS"],
      [4, "EMAIL_EXISTS"],
      [6, "EMAIL_EXISTS"],
      [7, "EMAIL_EXISTS"],
      [8, "PHONE_EXISTS"],
      [9, "EMAIL_EXISTS"],
    ]);

    const server = await startTestServer({}, box.db);
    cleanup.push(() => server.close());
    const login = (email: string, password: string) =>
      http(`${server.url}/v1/auth/login`, { headers: { "x-service-key": key }, body: { email, password } });
    const storedHash = async (email: string) =>
      (
        await server.deps.db.dataSource.query<Array<{ password_hash: string }>>(
          "SELECT password_hash FROM users WHERE project_id = $1 AND email = $2",
          [projectId, email],
        )
      )[0].password_hash;

    for (const [scheme, user] of Object.entries(users)) {
      const wrong = await login(user.email, `${user.password}!`);
      expect([scheme, wrong.status, wrong.body.reason]).toEqual([scheme, 401, "INVALID_CREDENTIALS"]);
      expect(await storedHash(user.email)).toBe(lines.find((l) => l.email === user.email)!.password_hash);

      const first = await login(user.email, user.password);
      expect([scheme, first.status]).toEqual([scheme, 200]);
      // Rehashed at once with this service's own argon2id parameters (the tests' cheap ones).
      expect(await storedHash(user.email)).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
      const second = await login(user.email, user.password);
      expect([scheme, second.status]).toEqual([scheme, 200]);
      expect((await login(user.email, `${user.password}!`)).status).toBe(401);
    }
    const bea = await login(users.bcrypt.email, users.bcrypt.password);
    expect(bea.body.user).toMatchObject({
      email: users.bcrypt.email,
      email_verified: true,
      metadata: { plan: "pro" },
      app_metadata: { roles: ["admin"] },
      // Stored canonical, as UpdateUser stores it.
      locale: "pt-BR",
    });

    const rows = await server.deps.db.dataSource.query<any[]>(
      "SELECT email, phone, phone_verified, email_verified, password_hash FROM users WHERE project_id = $1 ORDER BY email NULLS FIRST",
      [projectId],
    );
    expect(rows[0]).toEqual({
      email: null,
      phone: "+15551230001",
      phone_verified: true,
      email_verified: false,
      password_hash: null,
    });
    // No plaintext anywhere: not in the users, not in the audit log.
    const dump = JSON.stringify([rows, await server.deps.db.dataSource.query("SELECT * FROM audit_events")]);
    for (const secret of [plaintext, ...Object.values(users).map((u) => u.password)])
      expect(dump).not.toContain(secret);
    await server.close();
    cleanup.pop();

    // Each imported user has its signup in the audit log, made by the operator.
    const events = await box.json(["audit", "list", "--project", projectId, "--type", "user.signup", "--all"]);
    expect(events.data).toHaveLength(7);
    for (const e of events.data)
      expect(e).toMatchObject({
        actor_type: "operator",
        details: { method: "import" },
        ip_address: "",
        user_agent: "gatehouse-cli",
      });
    expect(events.data.map((e: any) => e.details.password_hash).sort()).toEqual([
      "argon2i",
      "argon2id",
      "bcrypt",
      "bcrypt",
      "bcrypt",
      "none",
      "scrypt",
    ]);
  });
});
