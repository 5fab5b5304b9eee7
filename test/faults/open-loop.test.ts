import { afterEach, describe, expect, it } from "vitest";
import { authFixture } from "../auth/helpers.js";
import type { HttpAnswer } from "../helpers/clients.js";
import { FAIL_WITHIN_MS, onPostgres, startProxiedService, type ProxiedService } from "./helpers.js";
import { msUntil } from "../helpers/eventually.js";
import { watchLateness } from "../helpers/lateness.js";

// Threat: traffic does not slow down because the database did. Clients keep sending at their
// own rate (open loop); if a request waited for PostgreSQL without bound, the requests waiting
// and the memory they hold would grow for as long as the partition lasts. With every wait
// bounded (DATABASE_TIMEOUT_MS), at most rate × bound requests can be waiting at any moment,
// whatever the partition's length.

const RATE_PER_SECOND = 60;
const PARTITION_MS = 5_000;
/**
 * At most this many answers may be outstanding: the rate times the bound an answer is held to
 * (2 s and how late this process's timers ran, lateness.ts), and 40 for the answers in hand.
 */
const maxOutstandingFor = (boundMs: number) => Math.ceil((RATE_PER_SECOND * boundMs) / 1000) + 40;

let service: ProxiedService | undefined;
afterEach(async () => {
  await service?.stop();
  service = undefined;
});

describe.skipIf(!onPostgres)(
  "open-loop traffic into a silent partition (needs DATABASE_URL: PGlite has no network to cut)",
  () => {
    it(`${RATE_PER_SECOND} requests a second for ${PARTITION_MS / 1000} s: the requests waiting stay bounded, each answers 503 within 2 s, and the service serves again after`, async () => {
      service = await startProxiedService();
      const { server, proxy } = service;
      const fixture = await authFixture(server);
      const user = await fixture.signup();
      const read = () => fixture.call("GET", `/v1/auth/users/${user.body.user.id}`);
      expect((await read()).status).toBe(200);

      // The pool behind TypeORM: its queue of requests waiting for a connection.
      const pool = (server.deps.db.dataSource.driver as unknown as { master: { waitingCount: number } }).master;
      const rssBefore = process.memoryUsage().rss;
      proxy.blackhole();

      let outstanding = 0;
      let maxOutstanding = 0;
      let maxWaiting = 0;
      const answers: Array<Promise<{ ms: number; answer: HttpAnswer }>> = [];
      const sampler = setInterval(() => (maxWaiting = Math.max(maxWaiting, pool.waitingCount)), 20);
      const late = watchLateness();
      const started = Date.now();
      try {
        for (let sent = 0; Date.now() - started < PARTITION_MS; sent++) {
          // Keep to the schedule whatever the answers do: request n leaves at n / rate seconds.
          const due = started + (sent * 1000) / RATE_PER_SECOND;
          if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
          outstanding++;
          maxOutstanding = Math.max(maxOutstanding, outstanding);
          const at = Date.now();
          answers.push(
            read().then((answer) => {
              outstanding--;
              return { ms: Date.now() - at, answer };
            }),
          );
        }
        const settled = await Promise.all(answers);
        const rssPeak = process.memoryUsage().rss;
        const slowest = Math.max(...settled.map((s) => s.ms));
        const lateMs = late.stop();
        const bound = FAIL_WITHIN_MS + lateMs;
        const statuses = [...new Set(settled.map((s) => s.answer.status))];
        console.log(
          `[faults] open loop: ${settled.length} requests in ${PARTITION_MS} ms of partition, statuses ${statuses.join(",")}, slowest ${slowest} ms, ` +
            `at most ${maxOutstanding} outstanding and ${maxWaiting} waiting for a connection, RSS ${Math.round(rssBefore / 2 ** 20)} → ${Math.round(rssPeak / 2 ** 20)} MB; timers up to ${lateMs} ms late`,
        );
        expect(settled.length).toBeGreaterThanOrEqual((RATE_PER_SECOND * PARTITION_MS) / 1000 - 5);
        expect(statuses).toEqual([503]);
        expect(slowest).toBeLessThan(bound);
        expect(maxOutstanding).toBeLessThanOrEqual(maxOutstandingFor(bound));
        expect(maxWaiting).toBeLessThanOrEqual(maxOutstandingFor(bound));
      } finally {
        clearInterval(sampler);
        late.stop();
      }

      proxy.restore();
      await msUntil("reads served again", async () => (await read()).status === 200);
    });
  },
);
