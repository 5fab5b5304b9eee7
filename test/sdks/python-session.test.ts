import { beforeAll, describe, expect, it } from "vitest";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { auditApp } from "../audit/helpers.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { REASONS } from "../../src/domain/errors.js";
import { pythonMissing, skipReason } from "./toolchain.js";
import { described, runPython } from "./python-run.js";
import { LANGUAGE_TAGS, catalogWords, jsonAfter } from "./reason-words.js";
import { fields } from "./run.js";

// The Python SDK's helpers against the real server: error reasons, their words and retry waits,
// and the Session (sdk/python/gatehouse_sdk/session.py) that refreshes before expiry, one
// refresh at a time across threads, and ends when a refresh is refused.
const missing = skipReason(pythonMissing());

/** The lines every program here starts with: a client with the project's key. */
const PRELUDE = `
import json, os, threading, time
import grpc
from gatehouse.auth.v1 import auth_pb2
from gatehouse_sdk import (REASONS, Reason, Session, SessionEndedError, auth_client, error_message,
    error_reason, retry_after_seconds)
auth = auth_client(os.environ["GATEHOUSE_ADDRESS"], os.environ["GATEHOUSE_API_KEY"])
LANGUAGE_TAGS = ${JSON.stringify(Object.keys(LANGUAGE_TAGS))}
def login():
    return auth.Login(auth_pb2.LoginRequest(email=os.environ["GATEHOUSE_EMAIL"],
        password=os.environ["GATEHOUSE_PASSWORD"]), timeout=10)
`;

describe.skipIf(missing !== undefined)(
  `Python SDK: errors and sessions${missing ? ` (skipped: ${missing})` : ""}`,
  () => {
    let server: TestServer;
    let address: string;
    beforeAll(async () => {
      server = await sharedTestServer();
      address = new URL(server.url).host;
    });

    /** Runs `program` after the prelude, as a user of `app` (signed up here), and expects exit code 0. */
    async function python(app: AuthFixture, program: string, user?: { email: string; password: string }) {
      const { email, password } = user ?? (await app.signup());
      const result = await runPython(["-c", PRELUDE + program], {
        GATEHOUSE_ADDRESS: address,
        GATEHOUSE_API_KEY: app.key,
        GATEHOUSE_EMAIL: email,
        GATEHOUSE_PASSWORD: password,
      });
      expect(result.code, described(result)).toBe(0);
      return result.stdout;
    }

    it("Reason holds every reason of the server's vocabulary, in its order", async () => {
      const app = await authFixture(server);
      const stdout = await python(
        app,
        `
print(json.dumps(list(REASONS)))
print("named all=%s" % str(all(getattr(Reason, r) == r for r in REASONS)).lower())
`,
      );
      expect(JSON.parse(stdout.split("\n")[0])).toEqual([...REASONS]);
      expect(fields(stdout, "named")).toEqual({ all: "true" });
    });

    it("retry_after_seconds reads the wait of a real RATE_LIMITED answer (None on others); error_message words both refusals", async () => {
      const app = await authFixture(server, { rateLimits: { signInFailuresPerAccount: 1, signInWaitSeconds: 120 } });
      const stdout = await python(
        app,
        `
for attempt in (1, 2):
    try:
        auth.Login(auth_pb2.LoginRequest(email=os.environ["GATEHOUSE_EMAIL"], password="not the password"), timeout=10)
    except grpc.RpcError as error:
        trailer = dict(error.trailing_metadata() or ()).get("retry-after")
        print("attempt%d code=%s reason=%s retry_after=%s trailer=%s limited=%s" % (attempt, error.code().name,
            error_reason(error), retry_after_seconds(error), trailer, error_reason(error) == Reason.RATE_LIMITED))
        print("words%d %s" % (attempt, json.dumps({tag: error_message(error, tag) for tag in LANGUAGE_TAGS})))
# No server on port 1: a network failure has a gRPC code but no Gatehouse reason, so no words.
with auth_client("127.0.0.1:1", "key") as nowhere:
    try:
        nowhere.Login(auth_pb2.LoginRequest(email="a@example.com", password="x"), timeout=10)
    except grpc.RpcError as error:
        print("unreachable code=%s words=%s" % (error.code().name, error_message(error, "de")))
`,
      );
      expect(fields(stdout, "attempt1")).toEqual({
        code: "UNAUTHENTICATED",
        reason: "INVALID_CREDENTIALS",
        retry_after: "None",
        trailer: "None",
        limited: "False",
      });
      const limited = fields(stdout, "attempt2");
      expect(limited).toMatchObject({ code: "RESOURCE_EXHAUSTED", reason: "RATE_LIMITED", limited: "True" });
      // The RetryInfo detail says what the retry-after trailer says: a wait of at most the configured 120 s.
      const wait = Number(limited.retry_after);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(120);
      expect(wait).toBe(Number(limited.trailer));

      // The hosted pages' words: fr-CA reads French, pt-BR (not shipped) English.
      expect(jsonAfter(stdout, "words1 ")).toEqual(catalogWords("INVALID_CREDENTIALS"));
      expect(jsonAfter(stdout, "words2 ")).toEqual(catalogWords("RATE_LIMITED"));
      expect(fields(stdout, "unreachable")).toEqual({ code: "UNAVAILABLE", words: "None" });
    });

    it("refreshes before the access token ends; eight threads that find it due share one Refresh, twice over", async () => {
      // The server counts a session's Refresh calls (its refresh limit, 2 here): a third call
      // would be RATE_LIMITED and fail the program, so two rounds of eight threads pass only if
      // each round made one call. The audit log shows the two rotations.
      const app = await auditApp(server, { rateLimits: { refreshesPerSession: 2 } });
      const user = await app.signup();
      const stdout = await python(
        app,
        `
now = [time.time()]
answer = login()
session = Session(auth, margin_seconds=60, clock=lambda: now[0])
first = session.start(answer)
print("fresh unchanged=%s" % str(session.access_token() == first.access_token).lower())

def round_of_eight():
    barrier, got = threading.Barrier(8), []
    def take():
        barrier.wait()
        got.append(session.access_token())
    threads = [threading.Thread(target=take) for _ in range(8)]
    for t in threads: t.start()
    for t in threads: t.join(30)
    return got

# 30 s before the token ends by the session's clock: inside the 60 s margin, so it is due.
now[0] = first.expires_at - 30
got = round_of_eight()
second = session.tokens
print("round1 calls=%d tokens=%d changed=%s rotated=%s" % (len(got), len(set(got)),
    str(got[0] != first.access_token).lower(), str(second.refresh_token != first.refresh_token).lower()))
print("old_token valid=%s" % str(auth.VerifyToken(auth_pb2.VerifyTokenRequest(token=first.access_token), timeout=10).valid).lower())

# Due again: the next refresh presents the rotated refresh token the session kept.
now[0] = second.expires_at - 30
got = round_of_eight()
print("round2 calls=%d tokens=%d changed=%s valid=%s" % (len(got), len(set(got)), str(got[0] != second.access_token).lower(),
    str(auth.VerifyToken(auth_pb2.VerifyTokenRequest(token=got[0]), timeout=10).valid).lower()))
print("user id=%s" % answer.user.id)
`,
        user,
      );
      expect(fields(stdout, "fresh")).toEqual({ unchanged: "true" });
      expect(fields(stdout, "round1")).toEqual({ calls: "8", tokens: "1", changed: "true", rotated: "true" });
      // Refreshed before it ended: the replaced token still verifies.
      expect(fields(stdout, "old_token")).toEqual({ valid: "true" });
      expect(fields(stdout, "round2")).toEqual({ calls: "8", tokens: "1", changed: "true", valid: "true" });
      const userId = fields(stdout, "user").id;
      expect(userId).toBe(user.body.user.id);
      const refreshed = await app.events({ user_id: userId, type: "token.refreshed" });
      expect(refreshed).toHaveLength(2);
    });

    it("a refused refresh ends the session: SessionEndedError with the reason, tokens forgotten", async () => {
      const app = await authFixture(server);
      const stdout = await python(
        app,
        `
now = [time.time()]
session = Session(auth, clock=lambda: now[0])
session.start(login())
# Signed out everywhere (as the user, with the session's own token), then due for a refresh.
auth.RevokeAllSessions(auth_pb2.RevokeAllSessionsRequest(), metadata=session.metadata(), timeout=10)
now[0] += 7200
try:
    session.access_token()
except SessionEndedError as ended:
    print("ended reason=%s mfa_required=%s tokens=%s" % (ended.reason, ended.mfa_required, session.tokens))
try:
    session.access_token()
except SessionEndedError as ended:
    print("after reason=%s" % ended.reason)
`,
      );
      expect(fields(stdout, "ended")).toEqual({
        reason: "INVALID_REFRESH_TOKEN",
        mfa_required: "False",
        tokens: "None",
      });
      expect(fields(stdout, "after")).toEqual({ reason: "None" });
    });

    it("the session example signs in, calls as the user, refreshes and signs out", async () => {
      const app = await authFixture(server);
      const email = `py-session-${Date.now()}@example.com`;
      const result = await runPython(["sdk/python/examples/session.py"], {
        GATEHOUSE_ADDRESS: address,
        GATEHOUSE_API_KEY: app.key,
        GATEHOUSE_EMAIL: email,
      });
      expect(result.code, described(result)).toBe(0);
      const userId = fields(result.stdout, "signed in").user_id;
      expect(userId).toMatch(/^usr_/);
      expect(fields(result.stdout, "profile")).toEqual({ email });
      expect(fields(result.stdout, "refreshed")).toEqual({ rotated: "true" });
      expect(fields(result.stdout, "signed out")).toEqual({ session: "ended" });
      expect(fields(result.stdout, "refresh after sign-out")).toEqual({ reason: "INVALID_REFRESH_TOKEN" });
    });
  },
);
