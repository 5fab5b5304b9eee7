import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { WAIT_GUARD_MS } from "../helpers/patience.js";

// docs/clients.md shows examples that tests run; the page must show them as they are.
const root = join(import.meta.dirname, "../..");
const page = readFileSync(join(root, "docs/clients.md"), "utf8");

describe("docs/clients.md", () => {
  it.each(["sdk/ts/examples/quickstart.ts", "sdk/ts/examples/browser/main.ts"])(
    "shows %s exactly as the test runs it",
    (file) => {
      expect(page).toContain(readFileSync(join(root, file), "utf8").trimEnd());
    },
  );

  it("names only example files and tests that exist", () => {
    const named = [...page.matchAll(/`((?:sdk|test)\/[\w./-]+)`/g)].map((m) => m[1].replace(/\/$/, ""));
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((path) => !path.includes("…") && !existsSync(join(root, path)))).toEqual([]);
  });
});

describe("the buf curl examples of docs/clients.md", () => {
  let server: TestServer;
  let app: AuthFixture;
  const blocks = [...page.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((m) => m[1])
    .filter((block) => block.startsWith("npx buf curl"));
  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
  });
  afterAll(() => server?.stop());

  /** Runs a block as the page says, against this server instead of localhost:8080. */
  const run = (block: string, env: Record<string, string>) =>
    new Promise<{ code: number; out: string }>((resolve) =>
      execFile(
        "bash",
        ["-c", block.replaceAll("http://localhost:8080", server.url)],
        { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, timeout: WAIT_GUARD_MS },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code) || 1 : 0, out: stdout + stderr }),
      ),
    );

  it("VerifyToken and a failed Login answer as the page says, with the protos and through reflection", async () => {
    expect(blocks).toHaveLength(2);
    const env = { KEY: app.key, AT: (await app.signup()).body.access_token as string };
    for (const schema of ["with the protos", "through reflection"]) {
      const [verify, login] = blocks.map((block) =>
        schema === "with the protos" ? block : block.replace(" --schema .", ""),
      );
      const verified = await run(verify, env);
      expect(verified.code, verified.out).toBe(0);
      expect(JSON.parse(verified.out)).toMatchObject({ valid: true, claims: { sub: expect.stringMatching(/^usr_/) } });
      const refused = await run(login, env);
      expect(refused.code, refused.out).toBe(128);
      expect(refused.out).toContain('"code": "unauthenticated"');
      expect(refused.out).toContain("google.rpc.ErrorInfo");
    }
  });
});
