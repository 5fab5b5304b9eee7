import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { scrape } from "../metrics/scrape.js";
import { WAIT_GUARD_MS, longTest } from "../helpers/patience.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { goMissing, skipReason } from "./toolchain.js";
import { goWorkspace, type GoWorkspace } from "./go-workspace.js";
import { WORDS_PROGRAM } from "./go-words-program.js";
import { LANGUAGE_TAGS, catalogWords, jsonAfter } from "./reason-words.js";
import { fields, run } from "./run.js";

// The Go SDK's clients, Session and error helpers through sdk/go/examples/session, against a
// real server: a refresh before expiry shared by twenty goroutines, a refused refresh, sign-out,
// and a real RATE_LIMITED answer's retry-after; and gatehouse.ErrorMessage's words for real
// refusals, through a program of the test's own built with the example (go-words-program.ts).
const missing = skipReason(goMissing());
const REFRESH = "gatehouse.auth.v1.AuthService/Refresh";
const SKEW = "55s";

describe.skipIf(missing !== undefined)(`Go SDK session${missing ? ` (skipped: ${missing})` : ""}`, () => {
  let workspace: GoWorkspace;
  let program = "";
  let words = "";
  let server: TestServer;
  let app: AuthFixture;

  beforeAll(async () => {
    workspace = goWorkspace();
    // One go build for both programs: a second would link grpc-go again.
    [{ session: program, wordscheck: words }, server] = await Promise.all([
      workspace.buildExamples(["session"], { wordscheck: WORDS_PROGRAM }),
      sharedTestServer(),
    ]);
    // Access tokens of 60 s, the shortest a project allows, refreshed 55 s early (SKEW): the
    // session is due 5 s after sign-in. One wrong password, then every try must wait 2 minutes.
    app = await authFixture(server, {
      tokenExpiry: 60,
      rateLimits: { signInFailuresPerAccount: 1, signInWaitSeconds: 120 },
    });
  }, longTest(2));
  afterAll(() => workspace?.remove());

  it(
    "refreshes before expiry with one Refresh for twenty goroutines, ends on a refused refresh, signs out, and reads retry-after",
    async () => {
      const before = await scrape(server.url);
      const result = await run(program, [], {
        cwd: workspace.dir,
        env: {
          ...process.env,
          GATEHOUSE_ADDRESS: new URL(server.url).host,
          GATEHOUSE_API_KEY: app.key,
          GATEHOUSE_REFRESH_SKEW: SKEW,
        },
        timeoutMs: WAIT_GUARD_MS,
      });
      const after = await scrape(server.url);
      expect(result.code, `exit code; stdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(0);
      const out = result.stdout;

      const userId = fields(out, "signed in").user_id;
      expect(userId).toMatch(/^usr_/);
      expect(fields(out, "signed in").expires_in).toBe("60");
      expect(fields(out, "fresh")).toEqual({ refreshed: "false" });
      // A new token while the first was still valid, the same one for every goroutine, and the
      // user's own calls go on with it.
      expect(fields(out, "shared")).toEqual({
        callers: "20",
        distinct_tokens: "1",
        refreshed: "true",
        before_expiry: "true",
      });
      expect(fields(out, "as user")).toEqual({ user_id: userId });
      // Revoked elsewhere: the refresh is refused and the session forgets its tokens.
      expect(fields(out, "refused refresh")).toEqual({
        ended: "true",
        reason: "INVALID_REFRESH_TOKEN",
        has_tokens: "false",
      });
      // Signed out: the refresh token it held is refused.
      expect(fields(out, "signed out")).toEqual({ has_tokens: "false", refresh: "INVALID_REFRESH_TOKEN" });
      expect(fields(out, "first wrong password")).toEqual({ reason: "INVALID_CREDENTIALS", retry_after: "none" });
      const limited = fields(out, "second wrong password");
      expect(limited.reason).toBe("RATE_LIMITED");
      // Go's duration of the server's RetryInfo: a whole number of seconds up to the 2 minute wait.
      const wait = /^(?:(\d+)m)?(\d+)s$/.exec(limited.retry_after ?? "");
      expect(wait, limited.retry_after).not.toBeNull();
      const seconds = Number(wait![1] ?? 0) * 60 + Number(wait![2]);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(120);

      // Counted by the server: the twenty goroutines sent one Refresh; the other two are the
      // refused ones, after the revocation and after sign-out.
      const refreshes = (code: string) =>
        after.value("gatehouse_requests_total", { rpc: REFRESH, protocol: "grpc", code }) -
        before.value("gatehouse_requests_total", { rpc: REFRESH, protocol: "grpc", code });
      expect({ ok: refreshes("ok"), unauthenticated: refreshes("unauthenticated") }).toEqual({
        ok: 1,
        unauthenticated: 2,
      });
    },
    longTest(1),
  );

  it("ErrorMessage words a wrong password and a common one as the catalogs do: de, fr-CA as French, pt-BR as English", async () => {
    // A project of its own: the one above refuses a second wrong password as RATE_LIMITED.
    const plain = await authFixture(server);
    const { email } = await plain.signup();
    const result = await run(words, [], {
      cwd: workspace.dir,
      env: {
        ...process.env,
        GATEHOUSE_ADDRESS: new URL(server.url).host,
        GATEHOUSE_API_KEY: plain.key,
        GATEHOUSE_EMAIL: email,
        GATEHOUSE_TAGS: JSON.stringify(Object.keys(LANGUAGE_TAGS)),
      },
      timeoutMs: WAIT_GUARD_MS,
    });
    expect(result.code, `exit code; stdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(0);
    expect(jsonAfter(result.stdout, "wrong_password reason=INVALID_CREDENTIALS ")).toEqual(
      catalogWords("INVALID_CREDENTIALS"),
    );
    expect(jsonAfter(result.stdout, "common_password reason=WEAK_PASSWORD ")).toEqual(catalogWords("WEAK_PASSWORD"));
  });
});
