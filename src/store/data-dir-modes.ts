import { chmod, lstat, mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";

/**
 * The process umask of the server and the CLI (main.ts, cli.ts): folders 0700, files 0600. The
 * data directory holds the embedded database (its WAL has every email and password hash
 * written), the generated key and the operator socket: no other local account may read them.
 */
export const PRIVATE_UMASK = 0o077;

const GROUP_AND_OTHER = 0o077;

/**
 * Makes `dir` (created 0700 if absent) and everything under it private to its owner: each
 * entry with a group or other permission bit loses them. Answers how many entries it changed.
 *
 * Needed beside the umask: a directory made by an older version, or copied in, keeps its
 * modes; and PGlite's initdb sets the files it unpacks to 0666 explicitly (chmod), whatever the
 * umask. Symbolic links are left alone (chmod would follow them out of the directory).
 */
export async function makePrivate(dir: string): Promise<number> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  let changed = 0;
  const visit = async (path: string): Promise<void> => {
    const info = await lstat(path).catch(gone);
    if (!info || info.isSymbolicLink()) return;
    if ((info.mode & GROUP_AND_OTHER) !== 0) {
      await chmod(path, info.mode & 0o7777 & ~GROUP_AND_OTHER).catch(gone);
      changed++;
    }
    if (!info.isDirectory()) return;
    const entries = await readdir(path).catch(gone);
    await Promise.all((entries ?? []).map((entry) => visit(join(path, entry))));
  };
  await visit(dir);
  return changed;
}

/** An entry removed while the walk ran (a lock taken and released, a temporary file): nothing to do. */
function gone(error: NodeJS.ErrnoException): undefined {
  if (error.code === "ENOENT") return undefined;
  throw error;
}
