import { describe, expect, it } from "vitest";
import { createDetachedWork } from "../../src/flows/auth/detached.js";
import { createLogger } from "../../src/log.js";

// Work handed off after an answer (src/flows/auth/detached.ts) belongs to one set of
// dependencies: a shutdown settles its own instance's work, including work that work started,
// and a failure is logged, never thrown at a caller that was already answered.

const quiet = () => createLogger("silent");

describe("detached work", () => {
  it("starts after the caller's turn, and settle() waits for it and for what it starts", async () => {
    const detached = createDetachedWork(quiet());
    const done: string[] = [];
    detached.run("outer", async () => {
      done.push("outer");
      detached.run("inner", async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        done.push("inner");
      });
    });
    expect(done).toEqual([]);
    await detached.settle();
    expect(done).toEqual(["outer", "inner"]);
  });

  it("logs a failure instead of throwing it", async () => {
    const logged: unknown[] = [];
    const logger = quiet();
    logger.error = (obj: unknown) => void logged.push(obj);
    const detached = createDetachedWork(logger);
    detached.run("doomed", () => Promise.reject(new Error("boom")));
    await expect(detached.settle()).resolves.toBeUndefined();
    expect(logged).toEqual([expect.objectContaining({ work: "doomed" })]);
  });

  it("one instance's settle() does not wait for another's work", async () => {
    const a = createDetachedWork(quiet());
    const b = createDetachedWork(quiet());
    let release!: () => void;
    b.run("held", () => new Promise<void>((resolve) => (release = resolve)));
    a.run("quick", async () => {});
    await a.settle();
    release();
    await b.settle();
  });
});
