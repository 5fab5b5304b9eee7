import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// The README tells a newcomer how long `npm test` takes and how to run less of it (issue 46).
// The subsets it offers must stay runnable: each path names test files that exist.
const root = join(import.meta.dirname, "../..");
const readme = readFileSync(join(root, "README.md"), "utf8");

function testFiles(path: string): string[] {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return path.endsWith(".test.ts") ? [path] : [];
  return readdirSync(full, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".test.ts"));
}

describe("README: the test suite's duration and its faster subsets", () => {
  it("says how long npm test takes, in seconds and minutes, on which machine", () => {
    const said = readme.replace(/\s+/g, " ");
    expect(said).toMatch(/`npm test` takes [^.]*?on a 2-core machine[^.]*?\b[\d,]+ s \(about \d+ minutes/);
  });

  it("offers subsets with npx vitest run, each naming test files that exist", () => {
    const paths = [...readme.matchAll(/^npx vitest run ([^#\n]+)/gm)].flatMap((m) => m[1].trim().split(/\s+/));
    expect(paths.length).toBeGreaterThanOrEqual(2);
    for (const path of paths) expect(testFiles(path), path).not.toEqual([]);
  });
});
