// Threats: two processes opening one embedded database, each overwriting the other's writes; a
// crashed process's lock keeping the service out for good (or a reused pid passing for it); two
// processes taking over one stale lock and both believing they hold it.
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirInUse, liveHolder, LOCK_FILE } from "../../src/store/data-dir-lock.js";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "gatehouse-lock-"));
  dirs.push(dir);
  return dir;
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

const lockOf = async (dir: string) => JSON.parse(await readFile(join(dir, LOCK_FILE), "utf8"));

describe("the data directory's lock", () => {
  it("is exclusive, names its holder to the next opener, and is gone once released", async () => {
    const dir = await dataDir();
    const lock = await acquireDataDirLock(dir, "server", join(dir, "gatehouse.sock"));
    expect(await lockOf(dir)).toMatchObject({
      pid: process.pid,
      role: "server",
      host: hostname(),
      socket: join(dir, "gatehouse.sock"),
      started_at: lock.holder.started_at,
    });
    expect(await liveHolder(dir)).toMatchObject({ pid: process.pid, role: "server" });

    const second = acquireDataDirLock(dir, "cli");
    await expect(second).rejects.toBeInstanceOf(DataDirInUse);
    await expect(second).rejects.toThrow(
      `the data directory ${dir} is in use by the Gatehouse server, pid ${process.pid}, started ${lock.holder.started_at}; stop it first, or set DATABASE_URL to run several processes on PostgreSQL`,
    );

    await lock.release();
    expect(await liveHolder(dir)).toBeUndefined();
    const again = await acquireDataDirLock(dir, "cli");
    await expect(acquireDataDirLock(dir, "server")).rejects.toThrow(
      `is in use by a Gatehouse command (npm run gatehouse), pid ${process.pid}`,
    );
    await again.release();
  });

  it("left by a process that is dead is taken over", async () => {
    const dir = await dataDir();
    const pid = deadPid();
    await writeFile(
      join(dir, LOCK_FILE),
      JSON.stringify({ pid, role: "server", started_at: "2026-01-01T00:00:00.000Z", host: hostname() }),
    );
    expect(await liveHolder(dir)).toBeUndefined();
    const lock = await acquireDataDirLock(dir, "server");
    expect(await lockOf(dir)).toMatchObject({ pid: process.pid, role: "server" });
    await lock.release();
  });

  it.runIf(process.platform === "linux")("whose pid now belongs to a process started later is taken over", async () => {
    const dir = await dataDir();
    // This process's pid, with another start time: the holder died and its pid was reused.
    await writeFile(
      join(dir, LOCK_FILE),
      JSON.stringify({
        pid: process.pid,
        role: "server",
        started_at: "2026-01-01T00:00:00.000Z",
        host: hostname(),
        proc_start: "1",
      }),
    );
    const lock = await acquireDataDirLock(dir, "cli");
    expect(await lockOf(dir)).toMatchObject({
      pid: process.pid,
      role: "cli",
      proc_start: expect.not.stringMatching(/^1$/),
    });
    await lock.release();
  });

  it("held from another host counts while its server's socket answers, and is taken over once it does not", async () => {
    // A container replaced on the same volume has a new host name: its predecessor's pid means
    // nothing here, the socket in the shared volume tells a live server from a dead one.
    const dir = await dataDir();
    const socket = join(dir, "gatehouse.sock");
    const listener = createServer((s) => s.destroy());
    await new Promise<void>((resolve) => listener.listen(socket, resolve));
    await writeFile(
      join(dir, LOCK_FILE),
      JSON.stringify({
        pid: deadPid(),
        role: "server",
        started_at: "2026-01-01T00:00:00.000Z",
        host: "elsewhere.example",
        socket,
      }),
    );
    await expect(acquireDataDirLock(dir, "server")).rejects.toThrow(
      /in use by the Gatehouse server, pid \d+ on host elsewhere\.example/,
    );

    await new Promise<void>((resolve) => listener.close(() => resolve()));
    await writeFile(socket, ""); // what a crash leaves: the file, with nobody listening
    const lock = await acquireDataDirLock(dir, "server");
    expect(await lockOf(dir)).toMatchObject({ pid: process.pid, host: hostname() });
    await lock.release();
  });

  it("taken over by two openers at once goes to one of them", async () => {
    const dir = await dataDir();
    await writeFile(
      join(dir, LOCK_FILE),
      JSON.stringify({ pid: deadPid(), role: "server", started_at: "2026-01-01T00:00:00.000Z", host: hostname() }),
    );
    const outcomes = await Promise.allSettled([1, 2, 3, 4].map(() => acquireDataDirLock(dir, "server")));
    const won = outcomes.filter((o) => o.status === "fulfilled");
    expect(won).toHaveLength(1);
    for (const lost of outcomes.filter((o) => o.status === "rejected"))
      expect(lost.reason).toBeInstanceOf(DataDirInUse);
    await won[0].value.release();
  });

  it("released by a holder it was taken from stays with its new holder", async () => {
    const dir = await dataDir();
    const lock = await acquireDataDirLock(dir, "server");
    // Another process judged this one dead and took the lock.
    const theirs = JSON.stringify({ pid: 1, role: "server", started_at: "2026-01-01T00:00:00.000Z", host: hostname() });
    await writeFile(join(dir, LOCK_FILE), theirs);
    await lock.release();
    expect(await readFile(join(dir, LOCK_FILE), "utf8")).toBe(theirs);
  });
});
