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

export function summarizeProfiles(dir: string, top = 25): ProfileSummary {
  const selfUs = new Map<string, { owner: string; us: number }>();
  let total = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))) {
    const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as CpuProfile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const node = byId.get(id);
      const delta = profile.timeDeltas[i] ?? 0;
      if (!node || delta <= 0) return;
      const { functionName, url, lineNumber } = node.callFrame;
      const owner = ownerOf(url, functionName);
      const key = `${functionName || "(anonymous)"} ${url ? `${url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?\/(src|gen)\//, "$1/")}:${lineNumber + 1}` : ""}`.trim();
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
    `CPU profile of the service: ${summary.totalMs.toLocaleString("en")} ms sampled on its main thread`,
    "",
    "| owner | self ms | share |",
    "|---|---|---|",
    ...summary.byOwner.filter((o) => o.share >= 0.005).map((o) => `| ${o.owner} | ${o.ms} | ${pct(o.share)} |`),
    "",
    "| function | owner | self ms | share |",
    "|---|---|---|---|",
    ...summary.byFunction.map((f) => `| \`${f.fn}\` | ${f.owner} | ${f.ms} | ${pct(f.share)} |`),
  ].join("\n");
}
