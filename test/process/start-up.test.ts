import { readdir, readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { startCommand } from "../../bench/start-command.js";
import { runNode, serviceDatabase, spawnService } from "../helpers/process.js";
import { serviceBuild } from "../helpers/service-build.js";
import { longTest } from "../helpers/patience.js";

// The service as an operator starts it: its own process, configured by the environment.

describe("start-up configuration", () => {
  it.each([
    ["PORT", "eighty", 'PORT must be an integer from 0 to 65535 (got "eighty")'],
    [
      "DATABASE_URL",
      "mysql://localhost/db",
      "DATABASE_URL must be a URL starting with postgres: or postgresql:// (got mysql://…)",
    ],
    ["GATEHOUSE_SECRET", "too-short", "GATEHOUSE_SECRET must be 32 bytes as 64 hex characters or base64"],
    ["LOG_LEVEL", "loud", "LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent"],
    [
      "TRUSTED_PROXIES",
      "10.0.0.1,proxy.local",
      'TRUSTED_PROXIES must be a comma-separated list of IP addresses (got "proxy.local")',
    ],
    ["THREADPOOL_NICE", "-5", 'THREADPOOL_NICE must be an integer from 0 to 19 (got "-5")'],
  ])("a bad %s stops the service with one line naming it", async (name, value, message) => {
    const result = await runNode(["src/main.ts"], { [name]: value, DATA_DIR: "/nonexistent" });
    expect(result.code).toBe(78);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`gatehouse: invalid configuration: ${message}`);
  });

  it("production refuses to start without GATEHOUSE_SECRET", async () => {
    const result = await runNode(["src/main.ts"], { NODE_ENV: "production", GATEHOUSE_SECRET: undefined });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain("GATEHOUSE_SECRET is required when NODE_ENV=production");
  });
});

describe("npm start", () => {
  // The libuv pool is sized for the argon2 gate (ARGON2_MAX_IN_FLIGHT + 4) by a preload, since
  // an ES module entry point is loaded through the pool before its first line runs.
  it(
    "runs the build with the pool sized and lowered before anything used it; without the preload it stays at libuv's 4",
    async () => {
      const build = serviceBuild();
      const start = startCommand(build);
      const { env } = await serviceDatabase();
      const settings = { ...env, ...start.env, ARGON2_MAX_IN_FLIGHT: "3" };
      const run = async (args: string[]) => {
        const service = await spawnService(settings, undefined, args, { cwd: build });
        const pid = service.child.pid!;
        // Field 19 of /proc/<pid>/task/<tid>/stat is the thread's nice value.
        const niceOf = async (tid: string) =>
          Number((await readFile(`/proc/${pid}/task/${tid}/stat`, "utf8")).split(") ")[1].split(" ")[16]);
        const nices = await Promise.all((await readdir(`/proc/${pid}/task`)).map(niceOf));
        const eventLoop = await niceOf(String(pid));
        service.child.kill("SIGTERM");
        expect(await service.exited).toBe(0);
        const listening = service
          .stdout()
          .split("\n")
          .find((line) => line.includes('"msg":"gatehouse listening"'))!;
        const { threadpool, threadpool_nice } = JSON.parse(listening) as {
          threadpool: number;
          threadpool_nice: number;
        };
        return { threadpool, threadpool_nice, lowered: nices.filter((n) => n === 4).length, eventLoop };
      };
      expect(await run([...start.nodeArgs, start.script])).toEqual({
        threadpool: 7,
        threadpool_nice: 4,
        lowered: 7,
        eventLoop: 0,
      });
      expect(await run([start.script])).toEqual({ threadpool: 4, threadpool_nice: 0, lowered: 0, eventLoop: 0 });
    },
    longTest(2),
  );
});
