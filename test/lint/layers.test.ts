// The layer map of .dependency-cruiser.cjs, which `npm run lint` runs over src/, fails on a
// planted wrong import and on a runtime cycle, and lets through what the map allows: a
// downward import, and a cycle made only of type imports (erased, so it cannot misorder the
// modules' start). The fixture is a small src/ tree in a temporary folder, cruised by the
// same config and command line as the lint.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const DEPCRUISE = join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
const CONFIG = join(ROOT, ".dependency-cruiser.cjs");

/** `error <rule>: <from> → <to>` (a cycle continues over the next lines), as the lint prints it. */
interface Violation {
  rule: string;
  from: string;
  to: string;
}

const FIXTURE: Record<string, string> = {
  "tsconfig.json": JSON.stringify({
    compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", strict: true },
    include: ["src"],
  }),
  // A flow importing the transport: up the map.
  "src/flows/planted.ts": 'import { wire } from "../transport/wire.js";\nexport const planted = wire;\n',
  "src/transport/wire.ts": "export const wire = 1;\n",
  // A flow typed against an interceptor: type-only, still an edge of the map.
  "src/flows/typed.ts":
    'import type { Seen } from "../interceptors/seen.js";\nexport const typed = (s: Seen) => s.id;\n',
  "src/interceptors/seen.ts": "export interface Seen {\n  id: string;\n}\n",
  // Two flows that import each other at run time.
  "src/flows/one.ts": 'import { two } from "./two.js";\nexport const one = () => two() + 1;\n',
  "src/flows/two.ts": 'import { one } from "./one.js";\nexport const two = () => 2;\nexport const again = one;\n',
  // Allowed: a handler calling a flow, and a cycle of type imports only.
  "src/handlers/fine.ts": 'import { planted } from "../flows/planted.js";\nexport const fine = planted;\n',
  "src/domain/left.ts": 'import type { Right } from "./right.js";\nexport interface Left {\n  right?: Right;\n}\n',
  "src/domain/right.ts": 'import type { Left } from "./left.js";\nexport interface Right {\n  left?: Left;\n}\n',
};

let folder = "";
let violations: Violation[] = [];
let exitCode = 0;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "gatehouse-layers-"));
  for (const [path, text] of Object.entries(FIXTURE)) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), text);
  }
  const run = promisify(execFile);
  const args = [DEPCRUISE, "src", "--config", CONFIG, "--output-type", "err"];
  const output = await run(process.execPath, args, { cwd: folder, maxBuffer: 16 << 20 }).then(
    (done) => done.stdout,
    (failed: { code: number; stdout: string }) => {
      exitCode = failed.code;
      return failed.stdout;
    },
  );
  violations = [...output.matchAll(/error ([a-z-]+): (\S+) → \s*(\S+)/g)].map((match) => ({
    rule: match[1] ?? "",
    from: match[2] ?? "",
    to: match[3] ?? "",
  }));
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe("the layer map in npm run lint", () => {
  it("fails the run", () => {
    expect(exitCode).toBe(3);
  });

  it("names the rule a planted upward import breaks", () => {
    expect(violations).toContainEqual(
      expect.objectContaining({
        rule: "flows-below-handlers",
        from: "src/flows/planted.ts",
        to: "src/transport/wire.ts",
      }),
    );
  });

  it("counts a type-only import as an edge of the map", () => {
    expect(violations).toContainEqual(
      expect.objectContaining({
        rule: "flows-below-handlers",
        from: "src/flows/typed.ts",
        to: "src/interceptors/seen.ts",
      }),
    );
  });

  it("names a runtime cycle no-circular", () => {
    const cycle = violations.filter((v) => v.rule === "no-circular").flatMap((v) => [v.from, v.to]);
    expect(cycle).toEqual(expect.arrayContaining(["src/flows/one.ts", "src/flows/two.ts"]));
  });

  it("lets a downward import and a cycle of type imports through", () => {
    const flagged = violations.map((v) => v.from);
    expect(flagged).not.toContain("src/handlers/fine.ts");
    expect(flagged).not.toContain("src/domain/left.ts");
    expect(flagged).not.toContain("src/domain/right.ts");
    expect(violations).toHaveLength(3);
  });
});
