import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { eventually } from "../helpers/eventually.js";
import { groupMembers } from "../helpers/process-group.js";
import { serviceBuild } from "../helpers/service-build.js";
import { spawnService, type ServiceProcess } from "../helpers/process.js";

// The threat: an orchestrator (systemd, a container runtime, a terminal) stops `npm start` with
// one signal to the npm process, npm and its shell exit, and the server goes on holding the
// port and its database connections with nobody left to stop it (issue 23).

const databases: TestDatabase[] = [];
const groups: number[] = [];
afterEach(async () => {
  // Whatever a failing run left behind goes with the group it was started in.
  for (const pgid of groups.splice(0)) {
    for (const { pid } of await groupMembers(pgid)) process.kill(pid, "SIGKILL");
  }
  await Promise.all(databases.splice(0).map((db) => db.drop()));
});

/** `npm start` in the tree's build (test/helpers/service-build.ts), without the prestart build, in a process group of its own. */
async function npmStart(): Promise<ServiceProcess> {
  const db = await createTestDatabase();
  databases.push(db);
  const env = {
    DATA_DIR: db.dataDir,
    DATABASE_URL: db.databaseUrl,
    PORT: "0",
    HOST: "127.0.0.1",
    npm_config_update_notifier: "false",
  };
  const service = await spawnService(env, undefined, ["start", "--ignore-scripts"], {
    command: "npm",
    cwd: serviceBuild(),
    detached: true,
  });
  groups.push(service.child.pid!);
  await eventually(
    "the server answers /healthz",
    async () => (await fetch(`http://127.0.0.1:${service.port}/healthz`).catch(() => undefined))?.ok,
  );
  return service;
}

function portRefuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(false)));
    socket.once("error", () => resolve(true));
  });
}

/** npm's exit code, or a failure naming what is still running when it has not exited in a minute. */
async function exitOf(service: ServiceProcess): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), 60_000)));
  const code = await Promise.race([service.exited, late]);
  clearTimeout(timer);
  if (code === "late")
    throw new Error(
      `npm did not exit within a minute; still running: ${JSON.stringify(await groupMembers(service.child.pid!))}`,
    );
  return code;
}

const lines = (service: ServiceProcess, msg: string) =>
  service
    .stdout()
    .split("\n")
    .filter((line) => line.includes(`"msg":"${msg}"`));

describe("npm start stops gracefully on one signal", () => {
  it.each(["SIGTERM", "SIGINT"] as const)(
    "%s to the npm process alone: the server shuts down, frees the port, and npm exits 0",
    async (signal) => {
      const service = await npmStart();
      const npm = service.child.pid!;
      expect((await groupMembers(npm)).some(({ command }) => command.includes("dist/src/main.js"))).toBe(true);

      process.kill(npm, signal);
      const code = await exitOf(service);

      // npm exits once its script has: by then nothing of the group may be left running.
      expect(await groupMembers(npm)).toEqual([]);
      expect(await portRefuses(service.port)).toBe(true);
      expect(lines(service, "shutting down").map((line) => JSON.parse(line).signal)).toEqual([signal]);
      expect(lines(service, "stopped")).toHaveLength(1);
      expect(code, service.stderr()).toBe(0);
    },
  );

  // Ctrl-C in a terminal signals the whole foreground group, and systemd's default
  // KillMode=control-group sends SIGTERM to every process of the unit: npm forwards its signal
  // to the server, which has had one of its own. The second must not start a second shutdown.
  it.each([
    ["SIGINT", "Ctrl-C"],
    ["SIGTERM", "systemd"],
  ] as const)("%s to the whole group (%s): one shutdown, the port freed, npm exits 0", async (signal, _sender) => {
    const service = await npmStart();
    const npm = service.child.pid!;

    process.kill(-npm, signal);
    const code = await exitOf(service);

    expect(await groupMembers(npm)).toEqual([]);
    expect(await portRefuses(service.port)).toBe(true);
    expect(lines(service, "shutting down")).toHaveLength(1);
    expect(lines(service, "stopped")).toHaveLength(1);
    expect(service.stderr()).not.toMatch(/shutdown failed|took too long/);
    expect(code, service.stderr()).toBe(0);
  });
});
