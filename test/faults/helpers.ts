import { performance } from "node:perf_hooks";
import { connect, connectReason, grpcCall, grpcClient, http, type HttpAnswer } from "../helpers/clients.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { PRODUCT_DATABASE_TIMEOUT_MS } from "../helpers/patience.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy.js";
import type { TestClock } from "../helpers/clock.js";

// A service whose only way to PostgreSQL is a TCP proxy the test can cut (tcp-proxy.ts).

export const onPostgres = Boolean(process.env.DATABASE_URL);
/**
 * What the issue asks of every answer while the database is unreachable; the tests allow it
 * the lateness of this process's timers while they measure (test/helpers/lateness.ts), as the
 * service's own timers enforce it.
 */
export const FAIL_WITHIN_MS = 2000;

export interface ProxiedService {
  server: TestServer;
  proxy: TcpProxy;
  database: TestDatabase;
  stop(): Promise<void>;
}

export async function startProxiedService(
  env: Record<string, string> = {},
  clock?: TestClock,
): Promise<ProxiedService> {
  const database = await createTestDatabase();
  const target = new URL(database.databaseUrl!);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  // The product's bound on a database wait is what these tests measure.
  const server = await startTestServer(
    { DATABASE_URL: proxy.urlFor(database.databaseUrl!), DATABASE_TIMEOUT_MS: PRODUCT_DATABASE_TIMEOUT_MS, ...env },
    database,
    { clock },
  );
  return {
    server,
    proxy,
    database,
    async stop() {
      // Black-holed connections would make a polite close wait for its bound: cut them first.
      proxy.refuse();
      await server.close();
      await proxy.close();
      await database.drop();
    },
  };
}

export interface Timed<T> {
  /** When the call was made (Date.now()): the moment an answer from memory describes. */
  at: number;
  ms: number;
  answer: T;
}

export async function timed<T>(call: () => Promise<T>): Promise<Timed<T>> {
  const at = Date.now();
  const started = performance.now();
  const answer = await call();
  return { at, ms: Math.round(performance.now() - started), answer };
}

export interface Probe {
  name: string;
  /** status: HTTP status, or the gRPC code name for gRPC; reason when there is one. */
  run(): Promise<{ status: number | string; reason?: string; retryAfter?: string | null }>;
}

/** A cross-section of what clients do: flows that write, read, verify, and the health checks. */
export function probes(server: TestServer, key: string, accessToken: string, managementToken: string): Probe[] {
  const rest = (answer: HttpAnswer) => ({
    status: answer.status,
    reason: answer.body?.reason as string | undefined,
    retryAfter: answer.headers.get("retry-after"),
  });
  const auth = { "x-service-key": key };
  let n = 0;
  return [
    {
      name: "REST Signup",
      run: async () =>
        rest(
          await http(`${server.url}/v1/auth/signup`, {
            headers: auth,
            body: { email: `fault${n++}-${Date.now()}@example.com`, password: "a sturdy passphrase 1" },
          }),
        ),
    },
    {
      name: "REST Login",
      run: async () =>
        rest(
          await http(`${server.url}/v1/auth/login`, {
            headers: auth,
            body: { email: "nobody@example.com", password: "a sturdy passphrase 1" },
          }),
        ),
    },
    {
      name: "REST VerifyToken",
      run: async () =>
        rest(await http(`${server.url}/v1/auth/token/verify`, { headers: auth, body: { token: accessToken } })),
    },
    {
      name: "REST ListSessions",
      run: async () =>
        rest(
          await http(`${server.url}/v1/auth/sessions`, {
            headers: { ...auth, authorization: `Bearer ${accessToken}` },
          }),
        ),
    },
    {
      name: "Connect ListProjects",
      run: async () => {
        const answer = await connect(
          server.url,
          "account",
          "ListProjects",
          {},
          { authorization: `Bearer ${managementToken}` },
        );
        return {
          status: answer.status,
          reason: connectReason(answer.body),
          retryAfter: answer.headers.get("retry-after"),
        };
      },
    },
    {
      name: "gRPC Login",
      run: async () => {
        const client = grpcClient(server.port, "auth");
        const answer = await grpcCall(
          client,
          "Login",
          { email: "nobody@example.com", password: "a sturdy passphrase 1" },
          auth,
        );
        client.close();
        const retryAfter = answer.error?.metadata?.get("retry-after")[0];
        return {
          status: answer.error ? String(answer.error.code) : "0",
          reason: answer.reason,
          retryAfter: retryAfter === undefined ? null : String(retryAfter),
        };
      },
    },
    {
      name: "GET /healthz",
      run: async () => rest(await http(`${server.url}/healthz`)),
    },
    {
      name: "gRPC Health/Check",
      run: async () => {
        const client = grpcClient(server.port, "health");
        const answer = await grpcCall(client, "Check", {});
        client.close();
        return { status: answer.response?.status ?? String(answer.error?.code) };
      },
    },
  ];
}
