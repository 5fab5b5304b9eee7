import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { GOCODE } from "./toolchain.js";
import { run, type Run } from "./run.js";
import { WAIT_GUARD_MS } from "../helpers/patience.js";

const root = resolve(import.meta.dirname, "../..");

/**
 * A scratch GOPATH holding sdk/go as gatehouse.dev/sdk/go beside Debian's Go sources: the
 * module proxy is not reachable, so the SDK builds in GOPATH mode (docs/clients.md, "Go").
 * Build output goes to its bin/, never into the checkout.
 */
export interface GoWorkspace {
  dir: string;
  env: Record<string, string | undefined>;
  /** Runs `go <args>` in the workspace. */
  go(args: string[], timeoutMs?: number): Promise<Run>;
  /**
   * Builds the SDK's example programs (`examples/<name>`), and programs a test holds (a `main`
   * package's source by name, written beside the SDK in the scratch GOPATH), in one `go build`;
   * answers each binary's path by name.
   */
  buildExamples(names: string[], programs?: Record<string, string>): Promise<Record<string, string>>;
  remove(): void;
}

// The first build compiles grpc-go and protobuf (about a minute on two busy cores); later ones
// come from Go's build cache.
const BUILD_GUARD_MS = 4 * WAIT_GUARD_MS;

export function goWorkspace(): GoWorkspace {
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-gopath-"));
  mkdirSync(join(dir, "src/gatehouse.dev/sdk"), { recursive: true });
  symlinkSync(join(root, "sdk/go"), join(dir, "src/gatehouse.dev/sdk/go"));
  const env = { ...process.env, GO111MODULE: "off", GOPATH: `${dir}:${GOCODE}`, GOPROXY: "off", GOFLAGS: "" };
  const go = (args: string[], timeoutMs = BUILD_GUARD_MS) => run("go", args, { cwd: dir, env, timeoutMs });
  return {
    dir,
    env,
    go,
    async buildExamples(names, programs = {}) {
      const bin = join(dir, "bin");
      mkdirSync(bin, { recursive: true });
      for (const [name, source] of Object.entries(programs)) {
        mkdirSync(join(dir, "src", name), { recursive: true });
        writeFileSync(join(dir, "src", name, "main.go"), source);
      }
      const built = await go([
        "build",
        "-o",
        `${bin}/`,
        ...names.map((name) => `gatehouse.dev/sdk/go/examples/${name}`),
        ...Object.keys(programs),
      ]);
      if (built.code !== 0) throw new Error(`go build failed (${built.code}):\n${built.stderr}`);
      return Object.fromEntries([...names, ...Object.keys(programs)].map((name) => [name, join(bin, name)]));
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
