import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WAIT_GUARD_MS } from "../helpers/patience.js";
import { checkMetrics, promtoolSkipReason } from "./promtool.js";
import { serverWithTraffic, type Trafficked } from "./traffic.js";

// What Prometheus's own linter says of a real scrape: nothing. promtool exits non-zero on any
// lint problem (a gauge named _total, a counter without it, a missing HELP, a non-base unit)
// and prints each; the scrape follows traffic, so the labelled series are in it.

const skip = promtoolSkipReason();

describe.skipIf(skip)(`promtool check metrics${skip ? ` (skipped: ${skip})` : ""}`, () => {
  let live: Trafficked;

  beforeAll(async () => {
    live = await serverWithTraffic();
  });
  afterAll(async () => live?.close());

  it("finds nothing to say about a scrape after sign-ups, logins, token checks, a hook and a webhook", async () => {
    const { text, samples } = live.scrape;
    // The families the dashboard reads are in it with their labels, not only their HELP lines.
    for (const name of [
      "gatehouse_requests_total",
      "gatehouse_request_duration_seconds_bucket",
      "gatehouse_sign_ins_total",
      "gatehouse_rate_limited_total",
      "gatehouse_hook_duration_seconds_count",
      "gatehouse_webhook_attempt_duration_seconds_count",
      "gatehouse_outbox_backlog",
      "gatehouse_verification_cache_lookups_total",
      "nodejs_eventloop_lag_seconds",
      "nodejs_active_handles",
    ])
      expect(
        samples.some((s) => s.name === name),
        name,
      ).toBe(true);

    const check = await checkMetrics(text, WAIT_GUARD_MS);
    expect(check.output).toBe("");
    expect(check.code).toBe(0);
  });

  it("fails on what it is there to catch: a gauge whose name ends in _total", async () => {
    // The check above cannot pass by promtool accepting anything.
    const check = await checkMetrics(
      "# HELP broken_things_total Not a counter.\n# TYPE broken_things_total gauge\nbroken_things_total 1\n",
      WAIT_GUARD_MS,
    );
    expect(check.code).not.toBe(0);
    expect(check.output).toContain('non-counter metrics should not have "_total" suffix');
  });
});
