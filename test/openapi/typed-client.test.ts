import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import type { TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { OPENAPI_FILE } from "../../scripts/openapi.js";
import { openapiTypescript, tsc, workFolder, writeProject } from "./third-party.js";
import { BAD_PROGRAM, GOOD_PROGRAM } from "./typed-programs.js";

// openapi-typescript 7 and openapi-fetch, as a TypeScript user of the REST paths takes them:
// types generated from gen/openapi.json, a strict program that sets the free-form JSON fields
// and reads errors compiles, one that misuses them does not, and the compiled calls get from a
// live server the answers their types promise.

let server: TestServer;
let auth: AuthFixture;
let work: Awaited<ReturnType<typeof workFolder>>;

beforeAll(async () => {
  server = await sharedTestServer();
  auth = await authFixture(server);
  work = await workFolder("openapi-fetch-");
});
afterAll(async () => {
  await work?.remove();
  await server?.stop();
});

describe("openapi-typescript + openapi-fetch", () => {
  it("types the document so a strict program compiles its calls, refuses wrong ones, and gets real answers", async () => {
    const generated = await openapiTypescript(OPENAPI_FILE, join(work.dir, "gatehouse.d.ts"));
    expect(generated.code, generated.stderr).toBe(0);
    await writeProject(work.dir, { "good.ts": GOOD_PROGRAM, "bad.ts": BAD_PROGRAM });

    const compiled = await tsc(work.dir);
    const marked = BAD_PROGRAM.split("\n").flatMap((line, i) => (line.includes("// wrong") ? [i + 1] : []));
    expect(marked.length).toBe(5);
    // Every error is on a marked line of bad.ts (none in good.ts or the generated types)…
    expect(
      compiled.errors.filter((e) => !e.startsWith("bad.ts:")),
      compiled.output,
    ).toEqual([]);
    // …and every marked line has one: the generated types do check.
    const refusedLines = new Set(compiled.errors.map((e) => Number(e.split(/[: ]/)[1])));
    expect(
      [...refusedLines].sort((a, b) => a - b),
      compiled.output,
    ).toEqual(marked);
    // A JSON object field takes any object, and only an object (TS2322, as the issue saw when it took none).
    expect(compiled.errors).toContain(`bad.ts:${marked[0]} TS2322`);

    // tsc emits despite bad.ts's errors; good.ts's calls run against the server.
    const program = pathToFileURL(join(work.dir, "out", "good.js")).href;
    const { run } = await import(/* @vite-ignore */ program);
    const email = `typed-${Date.now()}@example.com`;
    const seen = await run(server.url, auth.key, email);
    expect(seen.userId).toMatch(/^usr_/);
    const metadata = { plan: "team", seats: 5, tags: ["beta"], billing: { country: "NL" } };
    expect(seen.metadata).toEqual(metadata);
    expect(seen.appMetadata).toEqual({ tier: 2, flags: { sso: true } });
    expect(seen.readBack).toEqual(metadata);
    expect(seen.missing).toEqual({ status: 404, code: "not_found", reason: "USER_NOT_FOUND" });
    expect(seen.invalid.reason).toBe("VALIDATION_FAILED");
    expect(seen.invalid.fields).toContain("email");
  }, 300_000);
});
