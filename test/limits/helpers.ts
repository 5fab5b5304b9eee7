import { afterAll, beforeAll } from "vitest";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import type { HttpAnswer } from "../helpers/clients.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import type { TestDatabase } from "../helpers/database.js";
import type { Clock } from "../../src/domain/clock.js";
import { injectHttp } from "../helpers/inject.js";

/** Requests arrive through a proxy on loopback, so X-Forwarded-For names the client. */
export const BEHIND_PROXY = { TRUSTED_PROXIES: "127.0.0.1" };

let addresses = 0;
/** A fresh client address from TEST-NET-3, as X-Forwarded-For. */
export function freshIp(): string {
  addresses++;
  return `203.0.${113 + Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
}

export function from(ip: string): Record<string, string> {
  return { "x-forwarded-for": ip };
}

export interface LimitsApp extends AuthFixture {
  server: TestServer;
  /** UpdateProject, in memory (test/helpers/inject.ts): only the limits given change. */
  setLimits(limits: Record<string, number>): Promise<HttpAnswer>;
}

export async function limitsApp(server: TestServer, settings: { sendVerification?: boolean } = {}): Promise<LimitsApp> {
  const app = await authFixture(server, settings);
  return {
    ...app,
    server,
    async setLimits(limits) {
      const res = await injectHttp(server.handle, `/v1/projects/${app.projectId}`, {
        method: "PATCH",
        headers: await app.admin(),
        body: { rate_limits: limits },
      });
      if (res.status !== 200) throw new Error(`UpdateProject failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res;
    },
  };
}

/** A server behind a trusted proxy for the file, started once. */
export function useLimitsServer(
  env: Record<string, string> = {},
  options: { database?: () => TestDatabase; clock?: Clock } = {},
) {
  const box = {} as { server: TestServer };
  beforeAll(async () => {
    box.server = await startTestServer({ ...BEHIND_PROXY, ...env }, options.database?.(), { clock: options.clock });
  });
  afterAll(async () => {
    await box.server?.stop();
  });
  return box;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asserts a 429 RATE_LIMITED answer in the REST shape with its wait, and answers the wait. */
export function retryAfterOf(res: HttpAnswer): number {
  const header = Number(res.headers.get("retry-after"));
  if (
    res.status !== 429 ||
    res.body?.reason !== "RATE_LIMITED" ||
    !(header >= 1) ||
    res.body.retry_after_seconds !== header
  ) {
    throw new Error(
      `expected 429 RATE_LIMITED with Retry-After, got ${res.status} ${res.headers.get("retry-after")} ${JSON.stringify(res.body)}`,
    );
  }
  return header;
}
