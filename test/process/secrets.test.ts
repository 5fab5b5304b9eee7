// Threat (issue 46): with DATABASE_URL and no GATEHOUSE_SECRET each instance, and each command
// line, generated a key of its own, reported healthy and answered 500 to every sign-in; a key
// that differs from the one that sealed the database did the same. Both now stop the start
// with one line naming the key, before anything is served.
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCommand } from "../cli/helpers.js";
import { http } from "../helpers/clients.js";
import { createTestDatabase } from "../helpers/database.js";
import { closedPort } from "../helpers/ports.js";
import { runNode, serviceDatabase, spawnService } from "../helpers/process.js";

const onPostgres = Boolean(process.env.DATABASE_URL);
const REQUIRED = "gatehouse: invalid configuration: GATEHOUSE_SECRET is required when DATABASE_URL is set";

/** Starts the service and answers how it ended: refused (exit status, stderr) or listening (then stopped). */
async function startOrRefusal(env: Record<string, string | undefined>) {
  try {
    const service = await spawnService(env);
    const health = await http(`http://127.0.0.1:${service.port}/healthz`);
    service.child.kill("SIGTERM");
    await service.exited;
    return { started: true, health: health.status };
  } catch (error) {
    const message = String((error as Error).message);
    return { started: false, code: Number(/exited with (\d+)/.exec(message)?.[1]), stderr: message };
  }
}

/** The lines the refusal printed (after spawnService's own first line). */
function refusalLines(stderr: string): string[] {
  return stderr.split("\n").slice(1).filter(Boolean);
}

describe("GATEHOUSE_SECRET with a shared database", () => {
  it("with DATABASE_URL and no GATEHOUSE_SECRET the service and the CLI refuse, in one line naming it", async () => {
    // Nothing listens there: the refusal comes before any connection is tried.
    const env = {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${await closedPort()}/gatehouse`,
      GATEHOUSE_SECRET: undefined,
      DATA_DIR: "/nonexistent",
      PORT: "0",
      HOST: "127.0.0.1",
    };
    const server = await runNode(["src/main.ts"], env);
    expect(server.code).toBe(78);
    expect(server.stderr.trim().split("\n")).toEqual([expect.stringContaining(REQUIRED)]);
    const cli = await runNode(["src/cli.ts", "org", "list"], env);
    expect(cli.code).toBe(78);
    expect(cli.stderr).toContain("GATEHOUSE_SECRET is required when DATABASE_URL is set");
    expect(cli.stdout).toBe("");
  });

  it.runIf(onPostgres)("on a real database too, nothing starts and reports healthy without it", async () => {
    const { env } = await serviceDatabase();
    const outcome = await startOrRefusal({ ...env, GATEHOUSE_SECRET: undefined });
    expect(outcome).toMatchObject({ started: false, code: 78 });
    expect(refusalLines(outcome.stderr!)).toEqual([expect.stringContaining(REQUIRED)]);
  });
});

describe("a key that does not open the stored secrets", () => {
  it("GATEHOUSE_SECRET other than the one that sealed the database: the service and the CLI stop, naming the row and the key", async () => {
    const { env } = await serviceDatabase();
    const sealedWith = { ...env, GATEHOUSE_SECRET: randomBytes(32).toString("hex") };
    const other = { ...env, GATEHOUSE_SECRET: randomBytes(32).toString("hex") };
    // A project: its signing key is sealed with the key of the command that made it.
    const org = await runCommand(
      ["org", "create", "--name", "Acme", "--email", "ops@acme.test", "--password", "ops-password-1", "--json"],
      sealedWith,
    );
    expect(org.code).toBe(0);
    const orgId = JSON.parse(org.stdout).organization.id as string;
    const project = await runCommand(
      [
        "project",
        "create",
        "--org",
        orgId,
        "--name",
        "Shop",
        "--allowed-origin",
        "https://app.example.com",
        "--redirect-url",
        "https://app.example.com/cb",
        "--json",
      ],
      sealedWith,
    );
    expect(project.code).toBe(0);

    const refused = await startOrRefusal(other);
    expect(refused).toMatchObject({ started: false, code: 78 });
    const lines = refusalLines(refused.stderr!);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^gatehouse: invalid configuration: GATEHOUSE_SECRET differs from the key that sealed this database's secrets: a project signing key \(project_signing_keys, [\w-]+\) does not open with it; set GATEHOUSE_SECRET to the key the database was sealed with$/,
    );
    const cli = await runCommand(["project", "list", "--org", orgId], other);
    expect(cli.code).toBe(78);
    expect(cli.stderr).toContain("GATEHOUSE_SECRET differs from the key that sealed this database's secrets");

    // With the key that sealed it, the same database starts and serves.
    expect(await startOrRefusal(sealedWith)).toEqual({ started: true, health: 200 });
  });

  it("embedded, without GATEHOUSE_SECRET: a secret.key replaced since is named as the key that differs", async () => {
    const db = await createTestDatabase({ embedded: true });
    try {
      const env = { DATA_DIR: db.dataDir, PORT: "0", HOST: "127.0.0.1", GATEHOUSE_SECRET: undefined };
      const org = await runCommand(
        ["org", "create", "--name", "Acme", "--email", "ops@acme.test", "--password", "ops-password-1", "--json"],
        env,
      );
      expect(org.code).toBe(0);
      const orgId = JSON.parse(org.stdout).organization.id as string;
      const project = await runCommand(
        [
          "project",
          "create",
          "--org",
          orgId,
          "--name",
          "Shop",
          "--allowed-origin",
          "https://app.example.com",
          "--redirect-url",
          "https://app.example.com/cb",
        ],
        env,
      );
      expect(project.code).toBe(0);
      const keyFile = join(db.dataDir, "secret.key");
      await writeFile(keyFile, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });

      const refused = await startOrRefusal(env);
      expect(refused).toMatchObject({ started: false, code: 78 });
      expect(refusalLines(refused.stderr!)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^gatehouse: invalid configuration: ${keyFile.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} differs from the key that sealed this database's secrets: a project signing key \\(project_signing_keys, [\\w-]+\\) does not open with it; put back the key file the database was sealed with, or set GATEHOUSE_SECRET to that key$`,
          ),
        ),
      ]);
    } finally {
      await db.drop();
    }
  });
});
