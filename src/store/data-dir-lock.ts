import { readFileSync, unlinkSync } from "node:fs";
import { link, mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { createConnection } from "node:net";
import { hostname } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";

/**
 * Embedded PGlite is one session in one process: two processes writing one data directory
 * each keep their own copy in memory, and whichever closes last overwrites the other's writes.
 * So whoever opens the embedded database first takes `${DATA_DIR}/gatehouse.lock`, and a second
 * opener is refused, naming the holder, or (a command while the server runs) goes through the
 * server's operator channel (cli/operator-channel-client.ts), whose socket the lock names.
 */
export const LOCK_FILE = "gatehouse.lock";

export interface LockHolder {
  pid: number;
  role: "server" | "cli";
  started_at: string;
  host: string;
  /** Linux: the process's start time in clock ticks (/proc/<pid>/stat), which tells a reused pid apart. */
  proc_start?: string;
  /** A server's operator channel (cli/operator-channel-server.ts). */
  socket?: string;
}

export interface DataDirLock {
  holder: LockHolder;
  /** Removes the lock if it is still ours; also done when the process exits. */
  release(): Promise<void>;
}

export class DataDirInUse extends Error {
  /** "the data directory … is in use by …, pid …, started …": the message without its advice. */
  readonly inUse: string;
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    const what = holder.role === "server" ? "the Gatehouse server" : "a Gatehouse command (npm run gatehouse)";
    const where = holder.host === hostname() ? "" : ` on host ${holder.host}`;
    const inUse = `the data directory ${dataDir} is in use by ${what}, pid ${holder.pid}${where}, started ${holder.started_at}`;
    const advice =
      holder.role === "server"
        ? "stop it first, or set DATABASE_URL to run several processes on PostgreSQL"
        : "wait for it to finish";
    super(`${inUse}; ${advice}`);
    this.name = "DataDirInUse";
    this.inUse = inUse;
  }
}

const ATTEMPTS = 5;

/** Takes the lock on `dataDir` (creating the directory), or throws DataDirInUse naming its live holder. */
export async function acquireDataDirLock(
  dataDir: string,
  role: LockHolder["role"],
  socket?: string,
): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, LOCK_FILE);
  const started = procStart(process.pid);
  const holder: LockHolder = {
    pid: process.pid,
    role,
    started_at: new Date().toISOString(),
    host: hostname(),
    ...(started !== undefined && { proc_start: started }),
    ...(socket !== undefined && { socket }),
  };
  const content = `${JSON.stringify(holder)}\n`;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (await create(path, content)) return held(path, content, holder);
    const raw = await readFile(path, "utf8").catch(missing);
    if (raw === undefined) continue; // released meanwhile
    const current = parse(raw);
    if (current && (await isAlive(current))) throw new DataDirInUse(dataDir, current);
    await takeOverStale(path, raw);
  }
  throw new Error(`could not take the lock ${path}: other processes kept taking it`);
}

/** The live holder of `dataDir`'s lock, if any (a stale lock answers undefined). */
export async function liveHolder(dataDir: string): Promise<LockHolder | undefined> {
  const raw = await readFile(join(dataDir, LOCK_FILE), "utf8").catch(missing);
  const current = raw === undefined ? undefined : parse(raw);
  return current && (await isAlive(current)) ? current : undefined;
}

/**
 * Written whole beside the lock, then linked to its name: link() fails if the name exists, as
 * O_EXCL does, and the lock never appears half-written to a reader.
 */
async function create(path: string, content: string): Promise<boolean> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
  await writeFile(temp, content, { flag: "wx", mode: 0o600 });
  try {
    await link(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => {});
  }
}

/**
 * Moves the stale lock aside atomically, so that of two processes taking it over only one
 * removes it. If what was moved is not the stale lock that was read (a third process released
 * it and took it afresh in between), it goes back, and the caller tries again.
 */
async function takeOverStale(path: string, staleRaw: string): Promise<void> {
  const aside = `${path}.stale.${process.pid}.${randomBytes(4).toString("hex")}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return; // another process moved it
    throw error;
  }
  const moved = await readFile(aside, "utf8");
  if (moved !== staleRaw) await link(aside, path).catch(() => {}); // EEXIST: taken again already
  await unlink(aside);
}

/** The locks this process holds, released when it exits (one listener for all of them). */
const heldLocks = new Set<() => void>();
let exitHooked = false;

function held(path: string, content: string, holder: LockHolder): DataDirLock {
  const releaseSync = () => {
    if (!heldLocks.delete(releaseSync)) return;
    try {
      // Only our own: a lock taken over as stale (we were thought dead) is someone else's now.
      if (readFileSync(path, "utf8") === content) unlinkSync(path);
    } catch {
      // already gone
    }
  };
  heldLocks.add(releaseSync);
  if (!exitHooked) {
    exitHooked = true;
    process.once("exit", () => [...heldLocks].forEach((release) => release()));
  }
  return { holder, release: async () => releaseSync() };
}

function parse(raw: string): LockHolder | undefined {
  try {
    const value = JSON.parse(raw) as LockHolder;
    return Number.isSafeInteger(value.pid) && value.pid > 0 ? value : undefined;
  } catch {
    return undefined; // not written by us: nothing to honour
  }
}

/**
 * Alive: its process runs on this host (the same pid, started at the same time), or its operator
 * socket answers. Another host's pid means nothing here, and a container replaced on the same
 * volume has a new host name, so for a holder elsewhere the socket decides: a volume shared by
 * containers of one machine shares the socket too. A holder elsewhere without one (a command)
 * counts as gone.
 */
async function isAlive(holder: LockHolder): Promise<boolean> {
  if (holder.host === hostname() && processAlive(holder)) return true;
  return holder.socket !== undefined && (await socketAnswers(holder.socket));
}

function processAlive(holder: LockHolder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it exists, under another user.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const now = procStart(holder.pid);
  // The pid was reused by a process started since.
  return !(holder.proc_start !== undefined && now !== undefined && now !== holder.proc_start);
}

/** A listener accepts a connection at once; a dead one's socket file refuses it (or is gone). */
const SOCKET_PROBE_MS = 1000;

function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    const done = (alive: boolean) => {
      socket.destroy();
      resolve(alive);
    };
    socket.setTimeout(SOCKET_PROBE_MS, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/** Field 22 of /proc/<pid>/stat (after the parenthesised command name, which may hold spaces). */
function procStart(pid: number): string | undefined {
  if (process.platform !== "linux") return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function missing(error: NodeJS.ErrnoException): undefined {
  if (error.code === "ENOENT") return undefined;
  throw error;
}
