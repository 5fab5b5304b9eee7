import { afterAll, beforeAll } from "vitest";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import type { Clock } from "../../src/domain/clock.js";
import type { RateLimitOverrides } from "../../src/domain/rate-limits.js";
import { injectHttp } from "../helpers/inject.js";

/** Requests arrive through a proxy on loopback, so X-Forwarded-For names the client. */
export const BEHIND_PROXY = { TRUSTED_PROXIES: "127.0.0.1" };

let addresses = 0;
/** A fresh client address (TEST-NET-2) and user agent, as the proxy would pass them on. */
export function client(): { ip: string; userAgent: string; headers: Record<string, string> } {
  addresses++;
  const ip = `198.51.100.${(addresses % 250) + 1}`;
  const userAgent = `audit-test/${addresses}`;
  return { ip, userAgent, headers: { "x-forwarded-for": ip, "user-agent": userAgent } };
}

/** One server behind a trusted proxy for the file. */
export function useAuditServer(env: Record<string, string> = {}, options: { clock?: Clock } = {}) {
  const box = {} as { server: TestServer };
  beforeAll(async () => {
    box.server = await startTestServer({ ...BEHIND_PROXY, ...env }, undefined, { clock: options.clock });
  });
  afterAll(async () => {
    await box.server?.stop();
  });
  return box;
}

export interface AuditApp extends AuthFixture {
  server: TestServer;
  organizationId: string;
  adminHeaders: Record<string, string>;
  /** GET /v1/audit-events as the organization's admin; `query` as URL parameters. */
  events(query?: Record<string, string | string[]>, headers?: Record<string, string>): Promise<any[]>;
}

export async function auditApp(
  server: TestServer,
  settings: { rateLimits?: RateLimitOverrides; mfaRequired?: boolean } = {},
): Promise<AuditApp> {
  const app = await authFixture(server, settings);
  const adminHeaders = await app.admin();
  const [row] = await server.deps.db.dataSource.query(`SELECT organization_id FROM projects WHERE id = $1`, [
    app.projectId,
  ]);
  return {
    ...app,
    server,
    organizationId: row.organization_id,
    adminHeaders,
    async events(query = {}, headers = adminHeaders) {
      const res = await injectHttp(server.handle, `/v1/audit-events?${queryString({ limit: "100", ...query })}`, {
        headers,
      });
      if (res.status !== 200) throw new Error(`ListAuditEvents failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
  };
}

export function queryString(query: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const item of Array.isArray(v) ? v : [v]) params.append(k, item);
  return params.toString();
}
