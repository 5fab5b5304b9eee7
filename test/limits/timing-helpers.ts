import { expect } from "vitest";
import type { HttpAnswer } from "../helpers/clients.js";
import type { TestServer } from "../helpers/server.js";
import { freshIp, sleep } from "./helpers.js";

// Telling a registered address from an unknown one by how long the answer takes. A send is
// measured once per address, one at a time, over loopback, in pairs (one registered, one
// unknown, in random order). The median of the paired differences resists both the outliers and
// the drift of a shared machine; the criterion
//   |median(registered − unknown)| < max(0.75 ms, 15 % of the smaller median, 3 standard errors)
// fails on the old 5.7 vs 3.5 ms (2.2 ms apart) and passes only when no step that differs by
// registration runs before the answer. The third term is what this run's own noise allows: the
// standard error of a median of n paired differences is about 1.2533 × σ / √n, with σ taken
// robustly from their median absolute deviation (× 1.4826). On a quiet machine it is far below
// the other two (σ near 1 ms gives 0.4 ms); when the rest of the suite, or another process,
// loads the cores, a difference within three of them is noise this run cannot tell from zero.

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** `send(email, ip)` for each pair of addresses; answers the median paired difference and its bound. */
export async function measureSends(
  server: Pick<TestServer, "deps">,
  label: string,
  send: (email: string, ip: string) => Promise<HttpAnswer>,
  registered: string[],
  unknown: string[],
) {
  const times = { registered: [] as number[], unknown: [] as number[] };
  const diffs: number[] = [];
  const time = async (email: string) => {
    const started = performance.now();
    const res = await send(email, freshIp());
    const elapsed = performance.now() - started;
    expect(res.status).toBe(200);
    // Let any work handed off after the answer finish (the server runs in this process), so it
    // never lands on the next measurement however busy the machine is.
    await server.deps.detached.settle();
    await sleep(5);
    return elapsed;
  };
  // In pairs, in random order within each pair: the drift of a shared machine hits both alike.
  for (let i = 0; i < registered.length; i++) {
    const registeredFirst = Math.random() < 0.5;
    const first = await time(registeredFirst ? registered[i] : unknown[i]);
    const second = await time(registeredFirst ? unknown[i] : registered[i]);
    const [r, u] = registeredFirst ? [first, second] : [second, first];
    times.registered.push(r);
    times.unknown.push(u);
    diffs.push(r - u);
  }
  const [r, u, d] = [median(times.registered), median(times.unknown), median(diffs)];
  const sigma = 1.4826 * median(diffs.map((x) => Math.abs(x - d)));
  const standardError = (1.2533 * sigma) / Math.sqrt(diffs.length);
  const bound = Math.max(0.75, 0.15 * Math.min(r, u), 3 * standardError);
  console.log(
    `${label}: median registered ${r.toFixed(2)} ms, unknown ${u.toFixed(2)} ms, |diff of medians| ${Math.abs(r - u).toFixed(2)} ms, ` +
      `median paired diff ${d.toFixed(2)} ms, its standard error ${standardError.toFixed(2)} ms, bound ${bound.toFixed(2)} ms`,
  );
  return { d, bound };
}
