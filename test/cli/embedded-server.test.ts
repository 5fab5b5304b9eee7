// Threats: a command run while the embedded server runs writing its own copy of the database,
// which the server never sees and overwrites when it stops (the command said it succeeded); a
// key revoked from the command line still accepted by the server's cache; a second server on
// the same data directory; a crashed server's lock keeping the next start out.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import bcrypt from "bcryptjs";
import { afterEach, describe, expect, it } from "vitest";
import { http } from "../helpers/clients.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { runNode, spawnService, type ServiceProcess } from "../helpers/process.js";
import { runCommand } from "./helpers.js";
import { acquireDataDirLock } from "../../src/store/data-dir-lock.js";

// PGlite whatever the suite runs on: the lock and the operator channel are the embedded database's.
const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function embedded(): Promise<{ db: TestDatabase; env: Record<string, string | undefined> }> {
  const db = await createTestDatabase({ embedded: true });
  cleanup.push(() => db.drop());
  return {
    db,
    env: { DATA_DIR: db.dataDir, PORT: "0", HOST: "127.0.0.1", PUBLIC_URL: "https://gatehouse.example.com" },
  };
}

async function start(env: Record<string, string | undefined>): Promise<ServiceProcess> {
  const service = await spawnService(env);
  cleanup.push(async () => {
    if (service.child.exitCode === null) service.child.kill("SIGKILL");
    await service.exited;
  });
  return service;
}

async function stop(service: ServiceProcess): Promise<void> {
  service.child.kill("SIGTERM");
  expect(await service.exited).toBe(0);
}

/**
 * The command line as docs/cli.md shows it, in an operator's shell: DATA_DIR, no DATABASE_URL.
 * Expects success, and nothing on stderr but the progress lines `user import` prints. With
 * `process: true` it is a process of its own (the tree's build of src/cli.ts), for what only a process
 * proves: its working directory and piped standard input reaching the server; otherwise it runs in
 * this process through runCli (test/cli/helpers.ts), which the server still sees as another
 * process on its operator channel, at a fraction of the start-up cost.
 */
async function cli(dataDir: string, args: string[], opts: { cwd?: string; input?: string; process?: boolean } = {}) {
  const env = { DATA_DIR: dataDir };
  const result = opts.process
    ? await runNode(["src/cli.ts", ...args, "--json"], env, opts)
    : await runCommand([...args, "--json"], env, opts);
  const progress = args[0] === "user" ? /^(imported \d+(\/\d+)?, \d+ refused\n)*$/ : /^$/;
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: expect.stringMatching(progress) });
  return JSON.parse(result.stdout);
}

const OPERATOR = { email: "ops@acme.test", password: "operator-password-1" };

describe("cli: while the embedded server runs", () => {
  it(
    "runs inside the server: its writes are served at once, reach the caches, and survive a restart",
    { timeout: 300_000 },
    async () => {
      const { db, env } = await embedded();
      let service = await start(env);
      const base = () => `http://127.0.0.1:${service.port}`;
      const admin = async () => {
        const login = await http(`${base()}/v1/account/login`, { body: OPERATOR });
        expect(login.status).toBe(200);
        return { authorization: `Bearer ${login.body.management_token}` };
      };

      const org = (
        await cli(
          db.dataDir,
          ["org", "create", "--name", "Acme", "--email", OPERATOR.email, "--password", OPERATOR.password],
          { process: true },
        )
      ).organization.id;
      const project = await cli(db.dataDir, [
        "project",
        "create",
        "--org",
        org,
        "--name",
        "Shop",
        "--allowed-origin",
        "https://app.example.com",
        "--redirect-url",
        "https://app.example.com/cb",
      ]);
      const listed = await http(`${base()}/v1/projects`, { headers: await admin() });
      expect(listed.body.data.map((p: any) => p.id)).toEqual([project.id]);

      // The server caches keys it has verified: a revoke from the command line must reach that cache.
      const doomed = await cli(db.dataDir, ["apikey", "create", "--project", project.id, "--label", "doomed"]);
      const signup = () =>
        http(`${base()}/v1/auth/signup`, {
          headers: { "x-service-key": doomed.key },
          body: { email: `u${Math.random()}@example.com`, password: "a sturdy passphrase" },
        });
      expect((await signup()).status).toBe(200);
      expect(await cli(db.dataDir, ["apikey", "revoke", "--org", org, "--id", doomed.id])).toEqual({
        revoked: true,
        id: doomed.id,
      });
      const refused = await signup();
      expect([refused.status, refused.body.reason]).toEqual([401, "INVALID_API_KEY"]);

      // A file named relative to the operator's directory, and standard input, both read through the server.
      const key = (await cli(db.dataDir, ["apikey", "create", "--project", project.id, "--label", "backend"])).key;
      const here = await mkdtemp(join(tmpdir(), "gatehouse-operator-"));
      cleanup.push(() => rm(here, { recursive: true, force: true }));
      const imported = (email: string) =>
        `${JSON.stringify({ email, password_hash: bcrypt.hashSync("imported password", 4) })}\n`;
      await writeFile(join(here, "users.jsonl"), imported("file@example.com"));
      const fromFile = await cli(db.dataDir, ["user", "import", "--project", project.id, "--file", "users.jsonl"], {
        cwd: here,
        process: true,
      });
      expect(fromFile).toMatchObject({ imported: 1, refused: 0 });
      const fromStdin = await cli(
        db.dataDir,
        ["user", "import", "--project", project.id, "--file", "-", "--format", "jsonl"],
        { input: imported("stdin@example.com"), process: true },
      );
      expect(fromStdin).toMatchObject({ imported: 1, refused: 0 });
      const login = (email: string) =>
        http(`${base()}/v1/auth/login`, {
          headers: { "x-service-key": key },
          body: { email, password: "imported password" },
        });
      for (const email of ["file@example.com", "stdin@example.com"]) expect((await login(email)).status).toBe(200);

      // The operator who ran the command line, not the server's process, is the actor.
      const audit = await cli(db.dataDir, ["audit", "list", "--project", project.id, "--type", "api_key.revoked"]);
      expect(audit.data).toEqual([
        expect.objectContaining({ actor_type: "operator", actor_id: userInfo().username, user_agent: "gatehouse-cli" }),
      ]);
      expect(await cli(db.dataDir, ["migrate"])).toEqual({ applied: [] });

      // A second server on the same directory is refused, naming the first; nothing is harmed.
      const second = await runNode(["src/main.ts"], env);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(
        `gatehouse: failed to start: the data directory ${db.dataDir} is in use by the Gatehouse server, pid ${service.child.pid}, started `,
      );

      await stop(service);
      expect([existsSync(join(db.dataDir, "gatehouse.lock")), existsSync(join(db.dataDir, "gatehouse.sock"))]).toEqual([
        false,
        false,
      ]);

      service = await start(env);
      const after = await http(`${base()}/v1/projects`, { headers: await admin() });
      expect(after.body.data.map((p: any) => p.id)).toEqual([project.id]);
      expect((await login("stdin@example.com")).status).toBe(200);
      await stop(service);
    },
  );

  it("a crashed server's lock does not keep the next start out", { timeout: 300_000 }, async () => {
    const { db, env } = await embedded();
    const crashed = await start(env);
    await cli(db.dataDir, [
      "org",
      "create",
      "--name",
      "Acme",
      "--email",
      OPERATOR.email,
      "--password",
      OPERATOR.password,
    ]);
    crashed.child.kill("SIGKILL");
    await crashed.exited;
    expect(JSON.parse(await readFile(join(db.dataDir, "gatehouse.lock"), "utf8"))).toMatchObject({
      pid: crashed.child.pid,
      role: "server",
    });

    const next = await start(env);
    expect(JSON.parse(await readFile(join(db.dataDir, "gatehouse.lock"), "utf8"))).toMatchObject({
      pid: next.child.pid,
      role: "server",
    });
    expect((await cli(db.dataDir, ["org", "list"])).data.map((o: any) => o.name)).toEqual(["Acme"]);
    await stop(next);
  });

  it("a command while another command holds the directory is refused, naming it", { timeout: 120_000 }, async () => {
    const { db } = await embedded();
    const other = await acquireDataDirLock(db.dataDir, "cli");
    cleanup.push(() => other.release());
    const result = await runNode(["src/cli.ts", "org", "list", "--json"], { DATA_DIR: db.dataDir });
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 69, stdout: "" });
    expect(JSON.parse(result.stderr)).toEqual({
      reason: "SERVICE_UNAVAILABLE",
      message: `the data directory ${db.dataDir} is in use by a Gatehouse command (npm run gatehouse), pid ${process.pid}, started ${other.holder.started_at}; wait for it to finish`,
    });
  });
});
