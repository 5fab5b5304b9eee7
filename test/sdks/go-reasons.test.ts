import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { REASONS } from "../../src/domain/errors.js";

// The Go SDK's typed reasons (sdk/go/gatehouse/reasons.go) are the server's, in its order, so
// a reason added to src/domain/errors.ts fails here until Go has its constant. Read from the
// source: no Go toolchain needed.
describe("Go SDK reasons", () => {
  it("declares one Reason constant for each of REASONS, named for it", () => {
    const source = readFileSync(resolve(import.meta.dirname, "../../sdk/go/gatehouse/reasons.go"), "utf8");
    const constants = [...source.matchAll(/^\s*(\w+)\s+Reason\s*=\s*"([^"]*)"/gm)].map(([, name, value]) => ({
      name,
      value,
    }));
    expect(constants.map((c) => c.value)).toEqual([...REASONS]);
    // ReasonInvalidAPIKey for INVALID_API_KEY: Go's initialisms upper case.
    const initialisms = new Set(["API", "MFA", "SSO"]);
    for (const { name, value } of constants) {
      const words = value
        .split("_")
        .map((w) => (initialisms.has(w) ? w : w === "OAUTH" ? "OAuth" : w[0] + w.slice(1).toLowerCase()));
      expect(name).toBe(`Reason${words.join("")}`);
    }
  });
});
