import { execFile } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, realpath, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

/**
 * A copy of the package as `npm start` finds it after its prestart build: package.json, the
 * dependencies, and dist/ compiled from this tree, in a directory of its own. Other test files
 * compile into the tree's dist/ while servers start from it; a separate output keeps this one's
 * build from replacing files under their feet (and theirs under this one's). The pages are the
 * ones the global setup bundled (test/global-setup.ts).
 */
export async function builtPackage(): Promise<string> {
  const repo = process.cwd();
  const root = await mkdtemp(join(tmpdir(), "gatehouse-package-"));
  await cp(join(repo, "package.json"), join(root, "package.json"));
  await symlink(await realpath(join(repo, "node_modules")), join(root, "node_modules"));
  await promisify(execFile)(process.execPath, [
    join(repo, "node_modules/typescript/bin/tsc"),
    "-p",
    join(repo, "tsconfig.build.json"),
    "--outDir",
    join(root, "dist"),
  ]);
  await cp(join(repo, "dist/pages"), join(root, "dist/pages"), { recursive: true });
  return root;
}

/**
 * The live processes of a process group, read from /proc (Linux). A child that outlives its
 * parent keeps the group, so this finds a server left behind by the npm that started it.
 * Zombies are not counted: they hold no port and run nothing.
 */
export async function groupMembers(pgid: number): Promise<{ pid: number; command: string }[]> {
  const members: { pid: number; command: string }[] = [];
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, "utf8").catch(() => "");
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so split after the last ")".
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) !== pgid || state === "Z") continue;
    const command = (await readFile(`/proc/${name}/cmdline`, "utf8").catch(() => "")).replaceAll("\0", " ").trim();
    members.push({ pid: Number(name), command });
  }
  return members;
}
