// Threat: another local account reading (or writing) the embedded database: its WAL holds every
// email and password hash written, its catalog every table (issue 46: 969 of 1,206 PGlite files
// were 0666 and the folders 0755; as `nobody` the admin's email and argon2id hash were read
// from the WAL). The service's own DATA_DIR is checked, as an operator would: its modes, and
// what another account can read there.
import { spawnSync } from "node:child_process";
import { chmod, lstat, mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../helpers/database.js";
import { spawnService, type ServiceProcess } from "../helpers/process.js";
import { scratchRoot } from "../helpers/scratch.js";

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const ADMIN = { email: "admin@modes.example.test", password: "a sturdy admin passphrase" };
const isRoot = process.getuid?.() === 0;

async function start(dataDir: string): Promise<ServiceProcess> {
  // GATEHOUSE_SECRET absent: the key is generated into the directory too.
  const service = await spawnService({
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    GATEHOUSE_SECRET: undefined,
    GATEHOUSE_BOOTSTRAP_EMAIL: ADMIN.email,
    GATEHOUSE_BOOTSTRAP_PASSWORD: ADMIN.password,
  });
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

/** `dir` and every entry under it, with its permission bits. */
async function modes(dir: string): Promise<Array<{ path: string; mode: number; dir: boolean }>> {
  const entries = await readdir(dir, { recursive: true });
  return Promise.all(
    [dir, ...entries.map((entry) => join(dir, entry))].map(async (path) => {
      const info = await lstat(path);
      return { path, mode: info.mode & 0o7777, dir: info.isDirectory() };
    }),
  );
}

/** The entries another account could read, write or enter, as `path mode` lines. */
async function open(dir: string): Promise<string[]> {
  return (await modes(dir)).filter((e) => (e.mode & 0o077) !== 0).map((e) => `${e.path} ${e.mode.toString(8)}`);
}

/** A folder any account can enter, as /var/lib is: the data directory's own mode must do the work. */
async function openParent(): Promise<string> {
  const parent = await mkdtemp(join(scratchRoot(), "gatehouse-modes-"));
  cleanup.push(() => rm(parent, { recursive: true, force: true }));
  await chmod(parent, 0o755);
  return parent;
}

/** What `nobody` gets reading `path` (only as root: another account is needed). */
function readAsNobody(path: string): { code: number | null; stdout: string } {
  // A WAL segment is 16 MB.
  const run = spawnSync("runuser", ["-u", "nobody", "--", "cat", path], { encoding: "latin1", maxBuffer: 64 << 20 });
  if (run.error) throw run.error;
  return { code: run.status, stdout: run.stdout };
}

async function walFiles(dataDir: string): Promise<string[]> {
  const wal = join(dataDir, "pglite", "pg_wal");
  return (await readdir(wal)).filter((name) => /^[0-9A-F]{24}$/.test(name)).map((name) => join(wal, name));
}

describe("the embedded data directory is its account's alone", () => {
  it("a fresh server makes DATA_DIR 0700 and everything in it private; nobody cannot read the WAL", async () => {
    const dataDir = join(await openParent(), "data");
    const service = await start(dataDir);
    // The bootstrap admin is in the WAL: what the audit read back as nobody.
    const wal = await walFiles(dataDir);
    expect(wal.length).toBeGreaterThan(0);
    const written = (await Promise.all(wal.map((file) => readFile(file, "latin1")))).join("");
    expect(written).toContain(ADMIN.email);

    expect((await lstat(dataDir)).mode & 0o777).toBe(0o700);
    expect(await open(dataDir)).toEqual([]);
    const entries = await modes(dataDir);
    expect(entries.filter((e) => !e.dir).length).toBeGreaterThan(900);
    if (isRoot) {
      for (const file of [...wal, join(dataDir, "secret.key")]) {
        const read = readAsNobody(file);
        expect(read.code).not.toBe(0);
        expect(read.stdout).not.toContain(ADMIN.email);
      }
    }

    // What the running server wrote since, and what it leaves at rest, is as private.
    await stop(service);
    expect(await open(dataDir)).toEqual([]);
  });

  it("an existing directory left readable (0666 files, 0755 folders) is repaired at start, with one log line", async () => {
    const db = await createTestDatabase({ embedded: true });
    cleanup.push(() => db.drop());
    const dataDir = join(await openParent(), "data");
    await rm(dataDir, { recursive: true, force: true });
    // The database as an older version left it, where any account can reach it.
    await rename(db.dataDir, dataDir);
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    await writeFile(join(dataDir, "secret.key"), `${"ab".repeat(32)}\n`, { mode: 0o644 });
    for (const entry of await modes(dataDir)) await chmod(entry.path, entry.dir ? 0o755 : 0o666);
    await chmod(join(dataDir, "secret.key"), 0o644);
    const exposed = (await open(dataDir)).length;
    expect(exposed).toBeGreaterThan(900);
    if (isRoot) expect(readAsNobody((await walFiles(dataDir))[0]).code).toBe(0);

    const service = await start(dataDir);
    const repairs = service
      .stdout()
      .split("\n")
      .filter((line) => line.includes('"msg":"data directory permissions repaired'));
    expect(repairs).toHaveLength(1);
    expect(JSON.parse(repairs[0])).toMatchObject({ level: 40, data_dir: dataDir, repaired: exposed });
    expect(await open(dataDir)).toEqual([]);
    if (isRoot) for (const file of await walFiles(dataDir)) expect(readAsNobody(file).code).not.toBe(0);
    await stop(service);

    // Nothing left to repair: the next start says nothing.
    const again = await start(dataDir);
    expect(again.stdout()).not.toContain("permissions repaired");
    await stop(again);
  });
});
