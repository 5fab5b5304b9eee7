import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import { setImmediate as nextTurn } from "node:timers/promises";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clampTimeoutHeaders } from "../../../src/transport/compat/timeout-overflow.js";
import { envelope } from "../../fuzz/arbitraries.js";
import { callFramework, HEALTH_CHECK } from "./upstream.js";

// compat/timeout-overflow.ts: connect refuses a deadline past Node's timers but arms a timer
// with it all the same. If the first test fails, upstream no longer warns and the shim can go.
// The framework runs in this process, so its warnings are this process's.

const ELEVEN_THOUSAND_YEARS = "99999999H";

describe("deadlines past Node's timers (compat/timeout-overflow.ts)", () => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  beforeAll(() => {
    process.on("warning", onWarning);
  });
  beforeEach(() => {
    warnings.length = 0;
  });
  afterAll(() => {
    process.off("warning", onWarning);
  });

  it("connect still refuses one and arms its timer with it, with a TimeoutOverflowWarning", async () => {
    const answer = await callFramework(
      HEALTH_CHECK,
      { "content-type": "application/grpc", "grpc-timeout": ELEVEN_THOUSAND_YEARS },
      envelope(0, new Uint8Array()),
    );
    await nextTurn();
    expect(answer.trailer?.get("grpc-status")).toBe("3");
    expect(warnings.map((w) => w.name)).toContain("TimeoutOverflowWarning");
  });

  it("lowered to the timers' reach first, the call is served without a warning", async () => {
    const req = new IncomingMessage(new Socket());
    req.headers = { "grpc-timeout": ELEVEN_THOUSAND_YEARS, "connect-timeout-ms": "9999999999" };
    clampTimeoutHeaders(req);
    expect(req.headers).toEqual({ "grpc-timeout": "2147483S", "connect-timeout-ms": "2147483647" });
    const answer = await callFramework(
      HEALTH_CHECK,
      { "content-type": "application/grpc", "grpc-timeout": String(req.headers["grpc-timeout"]) },
      envelope(0, new Uint8Array()),
    );
    await nextTurn();
    expect(answer.trailer?.get("grpc-status")).toBe("0");
    expect(warnings).toEqual([]);
  });

  it("leaves deadlines within reach, and values connect will refuse, as they are", () => {
    const req = new IncomingMessage(new Socket());
    req.headers = { "grpc-timeout": "5S", "connect-timeout-ms": "not a number" };
    clampTimeoutHeaders(req);
    expect(req.headers).toEqual({ "grpc-timeout": "5S", "connect-timeout-ms": "not a number" });
  });
});
