import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// docs/clients.md shows examples that tests run; the page must show them as they are.
const root = join(import.meta.dirname, "../..");
const page = readFileSync(join(root, "docs/clients.md"), "utf8");

describe("docs/clients.md", () => {
  it.each(["sdk/ts/examples/quickstart.ts", "sdk/ts/examples/browser/main.ts"])("shows %s exactly as the test runs it", (file) => {
    expect(page).toContain(readFileSync(join(root, file), "utf8").trimEnd());
  });

  it("names only example files and tests that exist", () => {
    const named = [...page.matchAll(/`((?:sdk|test)\/[\w./-]+)`/g)].map((m) => m[1]!.replace(/\/$/, ""));
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((path) => !path.includes("…") && !existsSync(join(root, path)))).toEqual([]);
  });
});
