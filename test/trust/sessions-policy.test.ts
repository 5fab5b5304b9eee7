import { describe, expect, it } from "vitest";
import { isIdle, isValidSessionIdleTimeout, sessionEnd } from "../../src/domain/session-lifetime.js";

// The session lifetime rules alone; over the wire: sessions-lifetime.test.ts.

const t0 = new Date("2025-03-01T00:00:00Z");
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

describe("session lifetime policy", () => {
  it("sessionEnd: the end given at sign-in, or sign-in + the current lifetime when that is earlier", () => {
    const session = { createdAt: t0, expiresAt: at(30 * 86400) };
    expect(sessionEnd({ refreshTokenExpiry: 30 * 86400 }, session)).toEqual(at(30 * 86400));
    expect(sessionEnd({ refreshTokenExpiry: 86400 }, session)).toEqual(at(86400)); // lowered: shortened
    expect(sessionEnd({ refreshTokenExpiry: 365 * 86400 }, session)).toEqual(at(30 * 86400)); // raised: never lengthened
  });

  it("isIdle: only when on, and only strictly past the timeout since last activity", () => {
    const session = { lastActiveAt: t0 };
    expect(isIdle({ sessionIdleTimeout: 0 }, session, at(365 * 86400))).toBe(false);
    expect(isIdle({ sessionIdleTimeout: 600 }, session, at(600))).toBe(false);
    expect(isIdle({ sessionIdleTimeout: 600 }, session, at(601))).toBe(true);
  });

  it("isValidSessionIdleTimeout: 0, or 300 to 31536000", () => {
    expect([0, 300, 31_536_000].map(isValidSessionIdleTimeout)).toEqual([true, true, true]);
    expect([-1, 1, 299, 31_536_001].map(isValidSessionIdleTimeout)).toEqual([false, false, false, false]);
  });
});
