import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as oidc from "openid-client";
import { describe, expect, it } from "vitest";
import { discoveryOptions } from "../../docs/examples/openid-provider/relying-party.js";
import { signInThroughRelyingParty, startRelyingParty, useOpenidWorld } from "../helpers/openid-provider-world.js";
import { WAIT_GUARD_MS } from "../helpers/patience.js";
import { closedPort } from "../helpers/ports.js";

// docs/openid-provider.md gives a newcomer an openid-client web application to copy and the
// commands that register and run it against the Gatehouse on their machine, whose PUBLIC_URL
// is http://localhost:8080 by default. Its earlier snippet failed there: openid-client refuses
// an http issuer unless told. Here the page's commands are run as they stand, with only the
// placeholders, the server's port and the application's port replaced, against a server whose
// PUBLIC_URL is http://localhost:<port>, and the application must sign a user in.

const root = join(import.meta.dirname, "../..");
const page = readFileSync(join(root, "docs/openid-provider.md"), "utf8");
const EXAMPLE = "docs/examples/openid-provider/relying-party.ts";

const world = useOpenidWorld({}, { host: "localhost" });

/** Runs a shell block as a reader would, in the repository, with `env` beside PATH and HOME. */
function bash(block: string, env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) =>
    execFile(
      "bash",
      ["-c", block],
      { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, timeout: WAIT_GUARD_MS },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) || 1 : 0, out: stdout + stderr }),
    ),
  );
}

describe("docs/openid-provider.md", () => {
  it("shows the openid-client example exactly as the test runs it", () => {
    expect(page).toContain("```ts\n" + readFileSync(join(root, EXAMPLE), "utf8") + "```");
  });

  it("names only files that exist", () => {
    const named = [...page.matchAll(/`((?:src|test|docs)\/[\w./-]+)`/g)].map((m) => m[1].replace(/\/$/, ""));
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });

  it("lets openid-client speak plain http to an http issuer only", () => {
    expect(discoveryOptions(new URL("https://id.example.com/v1/auth/lp_x"))).toBeUndefined();
    expect(discoveryOptions(new URL("http://localhost:8080/v1/auth/lp_x"))?.execute).toEqual([
      oidc.allowInsecureRequests,
    ]);
  });

  it("registers and runs the example as the page says; it signs a user in at an http://localhost issuer", async () => {
    expect(new URL(world.publicUrl).hostname).toBe("localhost");
    const p = await world.project();
    const userId = await p.signUp("newcomer@example.com");
    const port = await closedPort();
    const block = [...page.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b.includes(EXAMPLE));
    expect(block, "the block that registers and runs the example").toBeDefined();
    const [register, run] = block!.split(/^(?=ISSUER=)/m) as [string, string];
    const placed = (text: string) =>
      text
        .replaceAll("localhost:8080", new URL(world.publicUrl).host)
        .replaceAll("localhost:3000", `localhost:${port}`)
        .replaceAll("proj_…", p.project.id)
        .replaceAll("lp_…", p.project.loginId);

    const registered = await bash(placed(register), { T: `authorization: ${p.admin.authorization}` });
    expect(registered.code, registered.out).toBe(0);
    const { client_id, client_secret } = JSON.parse(registered.out) as Record<string, string>;

    const command = /^ISSUER=(\S+) CLIENT_ID=oac_… CLIENT_SECRET=gcs_… \\\n\s+npx tsx (\S+)\n/.exec(placed(run));
    expect(command, run).not.toBeNull();
    const [, issuer, script] = command!;
    expect(issuer).toBe(p.issuer);
    // `npx tsx FILE` is `node --import tsx FILE` in one process, which a test can stop alone.
    const app = await startRelyingParty(process.execPath, ["--import", "tsx", script], {
      port,
      cwd: root,
      env: { ISSUER: issuer, CLIENT_ID: client_id, CLIENT_SECRET: client_secret },
    });
    try {
      // The page's addresses: localhost, as the client registered them.
      const atLocalhost = { ...app, url: `http://localhost:${port}`, redirectUri: `http://localhost:${port}/callback` };
      const answer = await signInThroughRelyingParty(world, p, atLocalhost, "newcomer@example.com");
      expect(answer.status, `${JSON.stringify(answer.body)}\n${app.output()}`).toBe(200);
      expect(answer.body).toMatchObject({ sub: userId, email: "newcomer@example.com" });
    } finally {
      await app.stop();
    }
  });
});
