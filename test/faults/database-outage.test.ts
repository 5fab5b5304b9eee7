import { afterEach, describe, expect, it } from "vitest";
import { authFixture } from "../auth/helpers.js";
import { http } from "../helpers/clients.js";
import { startTestServer } from "../helpers/server.js";
import { FAIL_WITHIN_MS, onPostgres, probes, startProxiedService, timed, type ProxiedService } from "./helpers.js";
import { msUntil } from "../helpers/eventually.js";
import { watchLateness } from "../helpers/lateness.js";

// PostgreSQL refused or silently gone: every answer is 503 SERVICE_UNAVAILABLE (UNAVAILABLE on
// gRPC) with Retry-After within 2 s, the health checks say so within 2 s, and the service comes
// back by itself when the database does.

/**
 * change-feed.ts: a heartbeat every 500 ms, unanswered after DATABASE_TIMEOUT_MS (1 s) + 100 ms.
 * Held, like FAIL_WITHIN_MS, with the lateness of this process's timers (the service's) added.
 */
const STALENESS_BOUND_MS = 1600;

let service: ProxiedService | undefined;
afterEach(async () => {
  await service?.stop();
  service = undefined;
});

describe.skipIf(!onPostgres)(
  "PostgreSQL unreachable (needs DATABASE_URL: embedded PGlite has no network to cut)",
  () => {
    for (const fault of ["refuse", "blackhole"] as const) {
      it(`${fault === "refuse" ? "connections refused and reset" : "packets silently dropped"}: 503 with Retry-After within 2 s on every protocol, health NOT_SERVING, then back by itself`, async () => {
        service = await startProxiedService();
        const { server, proxy } = service;
        const fixture = await authFixture(server);
        const user = await fixture.signup();
        const management = (await fixture.admin()).authorization.slice("Bearer ".length);
        const list = probes(server, fixture.key, user.body.access_token, management);

        for (const probe of list) {
          const answer = await probe.run();
          expect([200, "0", "SERVING", 401, "16"], probe.name).toContain(answer.status);
        }

        const cut = Date.now();
        const late = watchLateness();
        if (fault === "refuse") proxy.refuse();
        else proxy.blackhole();
        // Twice: the first round finds the outage (every pooled connection still looks alive in
        // a black hole), the second meets a service that already knows.
        const figures: Record<string, number[]> = {};
        for (let round = 0; round < 2; round++) {
          const results = await Promise.all(
            list.map(async (probe) => ({ probe, ...(await timed(() => probe.run())) })),
          );
          for (const { probe, at, ms, answer } of results) {
            (figures[probe.name] ??= []).push(ms);
            expect(ms, `${probe.name} took ${ms} ms, timers ${late.lateMs()} ms late`).toBeLessThan(
              late.allowing(FAIL_WITHIN_MS),
            );
            // VerifyToken answers from memory until the listener is known to be gone (bounded).
            if (probe.name === "REST VerifyToken" && answer.status === 200) {
              expect(at - cut, `timers ${late.lateMs()} ms late`).toBeLessThan(late.allowing(STALENESS_BOUND_MS));
              continue;
            }
            if (probe.name === "GET /healthz") expect(answer.status).toBe(503);
            else if (probe.name === "gRPC Health/Check") expect(answer.status).toBe("NOT_SERVING");
            else if (probe.name.startsWith("gRPC"))
              expect([answer.status, answer.reason, answer.retryAfter], probe.name).toEqual([
                "14",
                "SERVICE_UNAVAILABLE",
                "1",
              ]);
            else
              expect([answer.status, answer.reason, answer.retryAfter], probe.name).toEqual([
                503,
                "SERVICE_UNAVAILABLE",
                "1",
              ]);
          }
          if (round === 0)
            await new Promise((r) => setTimeout(r, late.allowing(STALENESS_BOUND_MS) - (Date.now() - cut)));
        }
        figures["timers late"] = [late.stop()];

        proxy.restore();
        const healthy = await msUntil("/healthz 200", async () => (await http(`${server.url}/healthz`)).status === 200);
        // The listener comes back on its own (backoff at most 2 s), and the caches with it.
        const listening = await msUntil("the change feed", async () => server.deps.db.changes.live);
        for (const probe of list) {
          const answer = await probe.run();
          expect([200, "0", "SERVING", 401, "16"], probe.name).toContain(answer.status);
        }
        const verify = await http(`${server.url}/v1/auth/token/verify`, {
          headers: { "x-service-key": fixture.key },
          body: { token: user.body.access_token },
        });
        expect(verify.body.valid).toBe(true);
        console.log(
          `[faults] ${fault}: failure latency (ms) ${JSON.stringify(figures)}; healthy ${healthy} ms after restore, change feed live after ${listening} ms`,
        );
      });
    }

    it(`a partition leaves revocations unseen for at most ${STALENESS_BOUND_MS} ms: then VerifyToken fails 503 rather than answer from memory`, async () => {
      service = await startProxiedService();
      const { server: a, proxy } = service;
      // Another instance, on the same database without the proxy: the one a revoke goes through.
      const b = await startTestServer({}, service.database);
      try {
        const fixture = await authFixture(a);
        const user = await fixture.signup();
        const verify = (via: string) =>
          http(`${via}/v1/auth/token/verify`, {
            headers: { "x-service-key": fixture.key },
            body: { token: user.body.access_token },
          });
        expect((await verify(a.url)).body.valid).toBe(true);
        expect((await verify(a.url)).body.valid).toBe(true);

        const cut = Date.now();
        const late = watchLateness();
        proxy.blackhole();
        const revoke = await http(`${b.url}/v1/auth/token/revoke`, {
          headers: { "x-service-key": fixture.key },
          body: { token: user.body.access_token },
        });
        expect(revoke.body.revoked).toBe(true);
        const revoked = Date.now();
        // `at`: when the question was sent, which is the moment an answer from memory describes.
        const answers: Array<{ at: number; status: number; valid?: boolean }> = [];
        while (Date.now() - cut < late.allowing(STALENESS_BOUND_MS + 1500)) {
          const at = Date.now();
          const answer = await verify(a.url);
          answers.push({ at, status: answer.status, valid: answer.body?.valid });
        }
        const stale = answers.filter((x) => x.status === 200);
        // Only the stale "valid" of a token whose revoke this instance cannot hear, and only early.
        for (const x of stale) expect(x.valid).toBe(true);
        const lastStale = stale.at(-1)?.at ?? revoked;
        const lateMs = late.stop();
        expect(lastStale - cut, `timers ${lateMs} ms late`).toBeLessThanOrEqual(STALENESS_BOUND_MS + lateMs);
        const firstFailure = answers.findIndex((x) => x.status !== 200);
        expect(firstFailure).toBeGreaterThanOrEqual(0);
        expect(answers.slice(firstFailure).every((x) => x.status === 503)).toBe(true);

        proxy.restore();
        await msUntil("VerifyToken to answer again", async () => (await verify(a.url)).status === 200);
        expect((await verify(a.url)).body.valid).toBe(false);
        console.log(
          `[faults] revoked ${revoked - cut} ms into a partition; instance A answered "valid" for ${Math.max(0, lastStale - revoked)} ms after the revoke (${stale.length} answers), then 503 (${answers.length - stale.length} answers); timers up to ${lateMs} ms late`,
        );
      } finally {
        await b.close();
      }
    });
  },
);
