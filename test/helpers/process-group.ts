import { readdir, readFile } from "node:fs/promises";

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
