// Reads the .cpuprofile files `node --cpu-prof` wrote and answers where the time went: self
// time by function and by owner (our src/, a package in node_modules, Node's internals, GC).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  /** Time with one of our functions on the stack (ours and what it called), by function. */
  inclusiveOurs: Array<{ fn: string; ms: number; share: number }>;
  byOwner: Array<{ owner: string; ms: number; share: number }>;
  byFunction: Array<{ fn: string; owner: string; ms: number; share: number }>;
}

/** "src", a package name ("@connectrpc/connect-node"), "node:internal", "(garbage collector)", … */
export function ownerOf(url: string, functionName: string): string {
  if (url === "") return functionName.startsWith("(") ? functionName : "(native)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith("node:")) return "node:internal";
  if (/\/src\//.test(url)) return "gatehouse src";
  if (/\/gen\//.test(url)) return "gatehouse gen";
  return url;
}

/**
 * The main thread's profile only (the one with the most busy samples: with `--import tsx` a
 * loader thread writes a second, idle one), and its busy time only: idle samples are left out,
 * so shares are of the time the thread worked.
 */
export function summarizeProfiles(dir: string, top = Number(process.env.PROFILE_TOP ?? 30)): ProfileSummary {
  const selfUs = new Map<string, { owner: string; us: number }>();
  let total = 0;
  const profiles = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as CpuProfile);
  const busyUs = (p: CpuProfile) => {
    const idle = new Set(p.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
    return p.samples.reduce((sum, id, i) => (idle.has(id) ? sum : sum + (p.timeDeltas[i] ?? 0)), 0);
  };
  const main = profiles.sort((a, b) => busyUs(b) - busyUs(a))[0];
  const inclusiveUs = new Map<string, number>();
  for (const profile of main ? [main] : []) {
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
    const oursOnStack = new Map<number, string[]>();
    const stackOf = (id: number): string[] => {
      let names = oursOnStack.get(id);
      if (names) return names;
      const node = byId.get(id)!;
      const up = parent.has(id) ? stackOf(parent.get(id)!) : [];
      const { functionName, url, lineNumber } = node.callFrame;
      const own =
        /\/(src|gen)\//.test(url) && !url.includes("node_modules")
          ? `${functionName || "(anonymous)"} ${url.replace(/^.*\/(src|gen)\//, "$1/")}:${lineNumber + 1}`
          : undefined;
      names = own && !up.includes(own) ? [...up, own] : up;
      oursOnStack.set(id, names);
      return names;
    };
    profile.samples.forEach((id, i) => {
      const node = byId.get(id);
      const delta = profile.timeDeltas[i] ?? 0;
      if (!node || delta <= 0 || node.callFrame.functionName === "(idle)") return;
      const { functionName, url, lineNumber } = node.callFrame;
      const owner = ownerOf(url, functionName);
      const key =
        `${functionName || "(anonymous)"} ${url ? `${url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?\/(src|gen)\//, "$1/")}:${lineNumber + 1}` : ""}`.trim();
      for (const name of stackOf(id)) inclusiveUs.set(name, (inclusiveUs.get(name) ?? 0) + delta);
      const entry = selfUs.get(key) ?? { owner, us: 0 };
      entry.us += delta;
      selfUs.set(key, entry);
      total += delta;
    });
  }
  const owners = new Map<string, number>();
  for (const { owner, us } of selfUs.values()) owners.set(owner, (owners.get(owner) ?? 0) + us);
  const ms = (us: number) => Math.round(us / 100) / 10;
  const share = (us: number) => Math.round((us / total) * 1000) / 1000;
  return {
    totalMs: ms(total),
    inclusiveOurs: [...inclusiveUs]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([fn, us]) => ({ fn, ms: ms(us), share: share(us) })),
    byOwner: [...owners].sort((a, b) => b[1] - a[1]).map(([owner, us]) => ({ owner, ms: ms(us), share: share(us) })),
    byFunction: [...selfUs]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, top)
      .map(([fn, { owner, us }]) => ({ fn, owner, ms: ms(us), share: share(us) })),
  };
}

export function formatProfile(summary: ProfileSummary): string {
  const pct = (s: number) => `${(s * 100).toFixed(1)} %`;
  return [
    `CPU profile of the service: ${summary.totalMs.toLocaleString("en")} ms of busy time on its main thread (idle left out)`,
    "",
    "| owner | self ms | share |",
    "|---|---|---|",
    ...summary.byOwner.filter((o) => o.share >= 0.005).map((o) => `| ${o.owner} | ${o.ms} | ${pct(o.share)} |`),
    "",
    "| function | owner | self ms | share |",
    "|---|---|---|---|",
    ...summary.byFunction.map((f) => `| \`${f.fn}\` | ${f.owner} | ${f.ms} | ${pct(f.share)} |`),
    "",
    "Gatehouse's own functions, inclusive (with everything they called):",
    "",
    "| function | ms | share |",
    "|---|---|---|",
    ...summary.inclusiveOurs.map((f) => `| \`${f.fn}\` | ${f.ms} | ${pct(f.share)} |`),
  ].join("\n");
}
