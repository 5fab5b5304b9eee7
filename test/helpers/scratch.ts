import { accessSync, constants, existsSync, statfsSync } from "node:fs";
import { mkdtemp, readdir, rename, rm, stat, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Room /dev/shm must have for the test databases to go there: a PGlite folder is 40 MB. */
const SHM_MIN_FREE_BYTES = 4 * 1024 ** 3;

/**
 * Where the tests' databases and data folders go: GATEHOUSE_TEST_TMP when set, else /dev/shm
 * (memory) where it has room, else the system's temporary folder. Each PGlite database is a copy
 * of a template of 1,144 files; on this machine's disk a copy cost 0.9 s of kernel time, into
 * memory 0.07 s, and PGlite's own writes are cheaper there too. Docker gives a container 64 MB
 * of /dev/shm by default, hence the room it must have. The global setup fixes the choice for
 * the whole run (test/global-setup.ts).
 */
export function scratchRoot(): string {
  process.env.GATEHOUSE_TEST_TMP ||= shmHasRoom() ? "/dev/shm" : tmpdir();
  return process.env.GATEHOUSE_TEST_TMP;
}

function shmHasRoom(): boolean {
  try {
    accessSync("/dev/shm", constants.W_OK);
    const { bavail, bsize } = statfsSync("/dev/shm");
    return bavail * bsize >= SHM_MIN_FREE_BYTES;
  } catch {
    return false;
  }
}

/** Folders of `dir` named `prefix…`, other than `keep`, unchanged for this long are removed. */
const UNUSED_MS = 24 * 60 * 60 * 1000;

/** Removes what other trees (or older states of this one) left in `dir` and no run used for a day. */
export async function pruneUnused(dir: string, prefix: string, keep: string): Promise<void> {
  for (const entry of await readdir(dir)) {
    const path = join(dir, entry);
    if (!entry.startsWith(prefix) || path === keep) continue;
    const { mtimeMs } = await stat(path).catch(() => ({ mtimeMs: Date.now() }));
    if (Date.now() - mtimeMs > UNUSED_MS) await rm(path, { recursive: true, force: true });
  }
}

/**
 * The folder `{parent}/{prefix}{key}`, made by `make` once and reused while its key (a hash of
 * what it is made of) is unchanged; `ready` is a path inside it that exists once it is whole.
 * It is made aside and renamed into place, so a concurrent run never uses a half-made one (if
 * another run renames first, its folder is used). Reuse touches it; others of `prefix` that no
 * run used for a day are removed.
 */
export async function madeOnce(
  parent: string,
  prefix: string,
  key: string,
  ready: string,
  make: (building: string) => Promise<void>,
): Promise<string> {
  const dir = join(parent, `${prefix}${key}`);
  await pruneUnused(parent, prefix, dir);
  if (existsSync(join(dir, ready))) {
    await utimes(dir, new Date(), new Date());
    return dir;
  }
  const building = await mkdtemp(join(parent, "gatehouse-building-"));
  try {
    await make(building);
    await rename(building, dir);
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    if (!existsSync(join(dir, ready))) throw error; // else a concurrent run made it first
  }
  return dir;
}
