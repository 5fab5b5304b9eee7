// Issue 46: a REDIS_URL that points nowhere was said nowhere at start; it showed only as 503s
// on sign-ins and a failing /healthz. Now the start says it in a warning naming the host (never
// the password), readiness fails, and it recovers by itself once Redis answers.
import { connect, createServer, type Server } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import { grpcCall, grpcClient, http } from "../helpers/clients.js";
import { eventually } from "../helpers/eventually.js";
import { closedPort } from "../helpers/ports.js";
import { serviceDatabase, spawnService } from "../helpers/process.js";

/** The suite's Redis (docs/testing.md). */
const REDIS = { host: "127.0.0.1", port: 6379 };
const PASSWORD = "redis-password-never-logged";

/** Redis at `port` from now on: a forwarder to the suite's Redis, as when Redis comes back. */
async function redisComesBack(port: number): Promise<Server> {
  const server = createServer((client) => {
    const upstream = connect(REDIS.port, REDIS.host);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return server;
}

describe("REDIS_URL that does not answer at start", () => {
  it("is said in a warning naming its host, readiness fails, and recovers once Redis answers", async () => {
    const port = await closedPort();
    const { env } = await serviceDatabase();
    // The suite's Redis has no password: the forwarder's user sends none (AUTH would fail).
    const service = await spawnService({ ...env, REDIS_URL: `redis://127.0.0.1:${port}/0` });
    onTestFinished(async () => {
      if (service.child.exitCode === null) service.child.kill("SIGKILL");
      await service.exited;
    });
    const warnings = service
      .stdout()
      .split("\n")
      .filter((line) => line.includes('"msg":"Redis (REDIS_URL) does not answer'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0])).toMatchObject({ level: 40, redis: `127.0.0.1:${port}` });

    const base = `http://127.0.0.1:${service.port}`;
    const health = grpcClient(service.port, "health");
    onTestFinished(() => health.close());
    expect(await http(`${base}/healthz`)).toMatchObject({ status: 503, body: { down: ["redis"] } });
    expect((await grpcCall(health, "Check", { service: "" })).response).toEqual({ status: "NOT_SERVING" });

    await redisComesBack(port);
    await eventually("ready once Redis answers", async () => (await http(`${base}/healthz`)).status === 200);
    expect((await grpcCall(health, "Check", { service: "" })).response).toEqual({ status: "SERVING" });
    service.child.kill("SIGTERM");
    expect(await service.exited).toBe(0);
  });

  it("the warning names the host only: a password in REDIS_URL is never written", async () => {
    const port = await closedPort();
    const { env } = await serviceDatabase();
    const service = await spawnService({ ...env, REDIS_URL: `redis://gatehouse:${PASSWORD}@127.0.0.1:${port}/0` });
    await http(`http://127.0.0.1:${service.port}/healthz`);
    service.child.kill("SIGTERM");
    expect(await service.exited).toBe(0);
    expect(service.stdout()).toContain(`"redis":"127.0.0.1:${port}"`);
    expect(service.stdout() + service.stderr()).not.toContain(PASSWORD);
  });
});
