import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, readdir, readFile, realpath, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { madeOnce } from "./scratch.js";

/**
 * The service as `npm start` finds it after its prestart build (package.json, node_modules,
 * dist/ compiled from this tree, with the bundled pages), made by the global setup
 * (test/global-setup.ts). Every test that runs the service or the CLI as a process of its own
 * starts it from here: started through tsx instead, each of those processes spent about 2.5 s of
 * CPU compiling and loading src/, against 1 s for the build, and the suite starts some fifty.
 */
export function serviceBuild(): string {
  const root = process.env.GATEHOUSE_TEST_BUILD;
  if (!root) throw new Error("GATEHOUSE_TEST_BUILD is not set: the build is made by test/global-setup.ts");
  return root;
}

/** The built file of a source entry point: `src/cli.ts` → `<build>/dist/src/cli.js`. */
export function builtEntry(source: string): string {
  const match = /^src\/([\w/-]+)\.ts$/.exec(source);
  if (!match) throw new Error(`not an entry point under src/: ${source}`);
  return join(serviceBuild(), "dist/src", `${match[1]}.js`);
}

const PREFIX = "gatehouse-build-";
/**
 * Compiles src/ and gen/ (tsconfig.build.json, as `npm run build` does) and copies the pages the
 * global setup bundled into dist/pages. Like the PGlite template, a build is named by what it is
 * made of (the sources, the compiler settings, package.json, the pages and the node_modules it
 * links), so an unchanged tree reuses the last one; it is made aside and renamed into place, so
 * a concurrent run never starts a half-made one. Types are checked by `npm run typecheck`, not
 * here: `--noCheck` emits the same files in a fraction of the time.
 */
export async function buildService(): Promise<string> {
  const repo = process.cwd();
  return madeOnce(tmpdir(), PREFIX, await sourceKey(repo), "dist/src/main.js", async (building) => {
    await cp(join(repo, "package.json"), join(building, "package.json"));
    await symlink(await realpath(join(repo, "node_modules")), join(building, "node_modules"));
    await promisify(execFile)(process.execPath, [
      join(repo, "node_modules/typescript/bin/tsc"),
      "-p",
      join(repo, "tsconfig.build.json"),
      "--noCheck",
      "--outDir",
      join(building, "dist"),
    ]);
    await cp(join(repo, "dist/pages"), join(building, "dist/pages"), { recursive: true });
  });
}

async function sourceKey(repo: string): Promise<string> {
  // The build links this tree's node_modules: another tree with the same sources gets its own,
  // so removing one checkout never leaves another's build without its dependencies.
  const hash = createHash("sha256").update(await realpath(join(repo, "node_modules")));
  const files = ["package.json", "tsconfig.json", "tsconfig.build.json"];
  for (const dir of ["src", "gen", "dist/pages"]) {
    for (const entry of await readdir(join(repo, dir), { recursive: true, withFileTypes: true }))
      if (entry.isFile()) files.push(relative(repo, join(entry.parentPath, entry.name)));
  }
  for (const file of files.sort()) hash.update(file).update(await readFile(join(repo, file)));
  return hash.digest("hex").slice(0, 16);
}
