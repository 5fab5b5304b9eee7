import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { http } from "../helpers/clients.js";
import { createTestDatabase } from "../helpers/database.js";
import { runNode, serviceDatabase } from "../helpers/process.js";
import { startTestServer } from "../helpers/server.js";

describe("bootstrap, CLI and persistence", () => {
  it("the CLI creates an organization; the data survives a restart", async () => {
    const { db, env } = await serviceDatabase();
    const cli = await runNode(
      ["src/cli.ts", "org", "create", "--name", "Acme", "--email", "ops@acme.test", "--password", "cli-password-1"],
      env,
    );
    expect(cli.stderr).toBe("");
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(
      /^created organization org_[0-9a-z]{26} \(Acme\) with admin mem_[0-9a-z]{26} <ops@acme\.test>/,
    );

    const again = await runNode(
      ["src/cli.ts", "org", "create", "--name", "Acme", "--email", "OPS@acme.test", "--password", "cli-password-1"],
      env,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("a member with this email already exists");

    const bad = await runNode(["src/cli.ts", "org", "create", "--name", "Acme", "--email", "nope"], env);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain("--email must be an email address");

    for (let start = 0; start < 2; start++) {
      const server = await startTestServer({}, db);
      const login = await http(`${server.url}/v1/account/login`, {
        body: { email: "ops@acme.test", password: "cli-password-1" },
      });
      await server.close();
      expect(login.status).toBe(200);
    }
  });

  it("bootstrap variables create the first organization once", async () => {
    const { db } = await serviceDatabase();
    const bootstrap = {
      GATEHOUSE_BOOTSTRAP_EMAIL: "first@example.com",
      GATEHOUSE_BOOTSTRAP_PASSWORD: "first-password",
      GATEHOUSE_BOOTSTRAP_ORG: "First",
    };
    for (let start = 0; start < 2; start++) {
      const server = await startTestServer(bootstrap, db);
      const count = await server.deps.db.dataSource.query(
        "SELECT count(*)::int AS n FROM organizations WHERE name = 'First'",
      );
      const login = await http(`${server.url}/v1/account/login`, {
        body: { email: "first@example.com", password: "first-password" },
      });
      await server.close();
      expect(count[0].n).toBe(1);
      expect(login.status).toBe(200);
    }
  });

  // Embedded only: with DATABASE_URL the key must be given (test/process/secrets.test.ts).
  it("embedded, without GATEHOUSE_SECRET a key is generated once and kept in the data folder", async () => {
    const db = await createTestDatabase({ embedded: true });
    onTestFinished(() => db.drop());
    const noSecret = { GATEHOUSE_SECRET: "" };
    const first = await startTestServer(noSecret, db);
    await first.close();
    const path = join(db.dataDir, "secret.key");
    const key = await readFile(path, "utf8");
    expect(key.trim()).toMatch(/^[0-9a-f]{64}$/);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const second = await startTestServer(noSecret, db);
    await second.close();
    expect(await readFile(path, "utf8")).toBe(key);
  });
});
