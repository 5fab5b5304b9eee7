// Issue 46: the operator the audit log names for a command run through the embedded server's
// operator channel was whatever name the command line sent. Now the command line proves its
// account with a file the kernel stamps with its owner (src/cli/operator-peer.ts), and any name
// it sends is ignored. The client below speaks the channel's protocol itself, as a forged
// command line would.
import { readFile, symlink, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { userInfo } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createTestDatabase } from "../helpers/database.js";
import { spawnService, type ServiceProcess } from "../helpers/process.js";
import { runCommand } from "./helpers.js";

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const REAL = userInfo().username;
const CLAIMED = "mallory";
const OPERATOR = { email: "ops@acme.test", password: "operator-password-1" };

// What outlives a test: the server the refusals share, stopped after the file.
const afterFile: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const step of afterFile.splice(0).reverse()) await step();
});

async function embeddedServer(steps = cleanup): Promise<{ dataDir: string; service: ServiceProcess }> {
  const db = await createTestDatabase({ embedded: true });
  steps.push(() => db.drop());
  const service = await spawnService({
    DATA_DIR: db.dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    PUBLIC_URL: "https://gatehouse.example.com",
  });
  steps.push(async () => {
    if (service.child.exitCode === null) service.child.kill("SIGKILL");
    await service.exited;
  });
  return { dataDir: db.dataDir, service };
}

type Proof = "honest" | "none" | "symlink";

/**
 * A command sent on the channel by hand, claiming `user`; `proof` says how it answers the
 * server's request for a proof of account (a server that asks none runs the command at once).
 */
async function forged(dataDir: string, argv: string[], user: string, proof: Proof) {
  const lock = JSON.parse(await readFile(join(dataDir, "gatehouse.lock"), "utf8")) as { socket: string };
  const socket = connect(lock.socket);
  const result = { code: undefined as number | undefined, out: [] as string[], err: [] as string[] };
  await new Promise<void>((resolve, reject) => {
    let pending = "";
    socket.setEncoding("utf8");
    socket.on("error", reject);
    socket.on("close", () => resolve());
    socket.on("data", (chunk: string) => {
      pending += chunk;
      let newline: number;
      while ((newline = pending.indexOf("\n")) >= 0) {
        const frame = JSON.parse(pending.slice(0, newline)) as Record<string, any>;
        pending = pending.slice(newline + 1);
        if (frame.type === "prove") void answer(frame.path as string, frame.nonce as string);
        else if (frame.type === "out") result.out.push(frame.text as string);
        else if (frame.type === "err") result.err.push(frame.text as string);
        else if (frame.type === "exit") result.code = frame.code as number;
      }
    });
    const answer = async (path: string, nonce: string) => {
      if (proof === "honest") await writeFile(path, nonce, { flag: "wx", mode: 0o600 });
      // Another account's file in its place (a root-owned one when the tests run as root).
      if (proof === "symlink") await symlink("/etc/passwd", path);
      socket.write(`${JSON.stringify({ type: "proved" })}\n`);
    };
    socket.write(`${JSON.stringify({ type: "run", argv, cwd: "/", user })}\n`);
  });
  return result;
}

/** The service's log lines for commands run on its channel. */
function operatorLines(service: ServiceProcess): Array<Record<string, unknown>> {
  return service
    .stdout()
    .split("\n")
    .filter((line) => line.includes('"msg":"operator command"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("the operator channel names the account that ran the command", () => {
  it("a command line claiming another name is audited, and logged, under its real account", async () => {
    const { dataDir, service } = await embeddedServer();
    const cli = (args: string[]) => runCommand([...args, "--json"], { DATA_DIR: dataDir });
    const org = JSON.parse(
      (await cli(["org", "create", "--name", "Acme", "--email", OPERATOR.email, "--password", OPERATOR.password]))
        .stdout,
    ).organization.id as string;
    const project = JSON.parse(
      (
        await cli([
          "project",
          "create",
          "--org",
          org,
          "--name",
          "Shop",
          "--allowed-origin",
          "https://app.example.com",
          "--redirect-url",
          "https://app.example.com/cb",
        ])
      ).stdout,
    ).id as string;
    const key = JSON.parse((await cli(["apikey", "create", "--project", project, "--label", "doomed"])).stdout)
      .id as string;

    const revoked = await forged(dataDir, ["apikey", "revoke", "--org", org, "--id", key, "--json"], CLAIMED, "honest");
    expect(revoked).toMatchObject({ code: 0, err: [] });
    expect(JSON.parse(revoked.out.join("\n"))).toEqual({ revoked: true, id: key });

    const audit = await cli(["audit", "list", "--project", project, "--type", "api_key.revoked"]);
    expect(JSON.parse(audit.stdout).data).toEqual([
      expect.objectContaining({ actor_type: "operator", actor_id: REAL, user_agent: "gatehouse-cli" }),
    ]);
    const logged = operatorLines(service).find((line) => line.command === "apikey revoke");
    expect(logged).toMatchObject({ operator: REAL, exit_code: 0 });
    expect(service.stdout()).not.toContain(CLAIMED);
  });

  // Both refusals on one server (an embedded server's start is most of each test's time): a
  // refused command leaves no log line and no organization, so each sees what it would alone.
  let refusals: Promise<{ dataDir: string; service: ServiceProcess }> | undefined;
  it.each<[Proof, string]>([
    ["none", "no proof file was created"],
    ["symlink", "the proof file cannot be opened (ELOOP)"],
  ])("a command line whose proof is %s is refused, and its command not run", async (proof, problem) => {
    const { dataDir, service } = await (refusals ??= embeddedServer(afterFile));
    const result = await forged(
      dataDir,
      ["org", "create", "--name", "Forged", "--email", "forged@acme.test", "--password", "forged-password-1"],
      CLAIMED,
      proof,
    );
    expect(result).toMatchObject({
      code: 64,
      out: [],
      err: [`gatehouse: operator channel: the command line did not prove its account: ${problem}`],
    });
    // The only lines are those of the honest `org list` below, in this test or the other.
    expect(operatorLines(service).filter((line) => line.command !== "org list")).toEqual([]);
    const orgs = await runCommand(["org", "list", "--json"], { DATA_DIR: dataDir });
    expect(JSON.parse(orgs.stdout).data).toEqual([]);
  });
});
