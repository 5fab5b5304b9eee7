import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { http, type HttpAnswer } from "../helpers/clients.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { spawnService, type ServiceProcess } from "../helpers/process.js";

// Two service processes on one PostgreSQL database, as two instances behind a load balancer
// run: one GATEHOUSE_SECRET, one PUBLIC_URL, each its own port, caches and change-feed listener.

export const ADMIN = { email: "admin@cluster.example.test", password: "a sturdy admin passphrase" };

export interface Instance {
  service: ServiceProcess;
  url: string;
}

export interface Pair {
  a: Instance;
  b: Instance;
  database: TestDatabase;
  stop(): Promise<void>;
}

/**
 * `env` is added to both (the first also bootstraps the organization of ADMIN); `envB` to the
 * second only, to make the instances differ where a test wants them to.
 */
export async function startPair(env: Record<string, string> = {}, envB: Record<string, string> = {}): Promise<Pair> {
  const database = await createTestDatabase();
  const shared = {
    DATABASE_URL: database.databaseUrl,
    DATA_DIR: database.dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    GATEHOUSE_SECRET: randomBytes(32).toString("hex"),
    ...env,
  };
  const started: ServiceProcess[] = [];
  const instance = (service: ServiceProcess) => ({ service, url: `http://127.0.0.1:${service.port}` });
  try {
    // One after the other: the first runs the migrations and the bootstrap.
    started.push(
      await spawnService({
        ...shared,
        GATEHOUSE_BOOTSTRAP_EMAIL: ADMIN.email,
        GATEHOUSE_BOOTSTRAP_PASSWORD: ADMIN.password,
      }),
    );
    started.push(await spawnService({ ...shared, ...envB }));
  } catch (error) {
    await stopAll(started);
    await database.drop();
    throw error;
  }
  return {
    a: instance(started[0]),
    b: instance(started[1]),
    database,
    async stop() {
      await stopAll(started);
      await database.drop();
    },
  };
}

async function stopAll(services: ServiceProcess[]): Promise<void> {
  await Promise.all(
    services.map((s) => {
      s.child.kill("SIGTERM");
      return s.exited;
    }),
  );
}

/** The ADMIN's management-token headers, signed in through `via`. */
export async function adminHeaders(via: Instance): Promise<Record<string, string>> {
  const login = await http(`${via.url}/v1/account/login`, { body: ADMIN });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return { authorization: `Bearer ${login.body.management_token}` };
}

let counter = 0;

/** A project (made on `via`) with `rate_limits`, and an API key of it. */
export async function projectWithKey(
  via: Instance,
  admin: Record<string, string>,
  rateLimits: Record<string, number> = {},
) {
  const project = await http(`${via.url}/v1/projects`, {
    headers: admin,
    body: {
      name: `Cluster ${++counter}`,
      allowed_origins: ["https://app.example.com"],
      redirect_url: "https://app.example.com/cb",
      rate_limits: rateLimits,
    },
  });
  expect(project.status, JSON.stringify(project.body)).toBe(200);
  return { projectId: project.body.id as string, ...(await newKey(via, admin, project.body.id)) };
}

export async function newKey(
  via: Instance,
  admin: Record<string, string>,
  projectId: string,
): Promise<{ keyId: string; key: string }> {
  const key = await http(`${via.url}/v1/api-keys`, {
    headers: admin,
    body: { project_id: projectId, label: "cluster" },
  });
  expect(key.status, JSON.stringify(key.body)).toBe(200);
  return { keyId: key.body.id as string, key: key.body.key as string };
}

export function verify(via: Instance, key: string, token: string): Promise<HttpAnswer> {
  return http(`${via.url}/v1/auth/token/verify`, { headers: { "x-service-key": key }, body: { token } });
}
