import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { createTestClock } from "../helpers/clock.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { pythonMissing, skipReason } from "./toolchain.js";
import { described, runPython } from "./python-run.js";
import { fields } from "./run.js";

// The Python SDK's offline check of access tokens (sdk/python/gatehouse_sdk/verify.py, PyJWT)
// against a real server's JWKS: a genuine token, forged and foreign ones, an expired one, and a
// key rotation the verifier follows without a restart. Threat: a backend that checks tokens
// offline accepts one Gatehouse did not issue for its project, or stops accepting real ones.
const missing = skipReason(pythonMissing());

/** A key-set fetch that counts its calls in `fetches`, for the programs below (after `fetch_jwks` is imported). */
const COUNTED_FETCH = `fetches = []
def counted(url, timeout):
    fetches.append(url)
    return fetch_jwks(url, timeout)`;

describe.skipIf(missing !== undefined)(
  `Python SDK: offline verification${missing ? ` (skipped: ${missing})` : ""}`,
  () => {
    let server: TestServer;
    let app: AuthFixture;
    let other: AuthFixture;
    // The server's clock, moved back to issue a token that has already ended by real time.
    const clock = createTestClock();

    beforeAll(async () => {
      server = await startTestServer({}, undefined, { clock });
      app = await authFixture(server, { tokenExpiry: 900 });
      other = await authFixture(server);
    });
    afterAll(() => server?.stop());

    /** What the program needs to find the project: its JWKS at the server's address, its issuer. */
    const project = () => ({
      GATEHOUSE_ADDRESS: new URL(server.url).host,
      GATEHOUSE_URL: server.url,
      GATEHOUSE_API_KEY: app.key,
      GATEHOUSE_LOGIN_ID: app.loginId,
      GATEHOUSE_PROJECT_ID: app.projectId,
      // The tokens name the server's PUBLIC_URL, not the loopback address the test reaches.
      GATEHOUSE_ISSUER: `${server.deps.config.publicUrl}/v1/auth/${app.loginId}`,
    });

    it("accepts a real token and refuses forged, foreign, expired and made-up-key ones, fetching the keys once", async () => {
      clock.advance(-3_600_000);
      const expired = (await app.signup()).body.access_token as string;
      clock.advance(3_600_000);
      const result = await runPython(
        [
          "-c",
          `
import base64, json, os
from gatehouse_sdk.verify import AccessTokenError, Verifier, fetch_jwks
env = os.environ
${COUNTED_FETCH}
jwks = "%s/v1/auth/%s/.well-known/jwks.json" % (env["GATEHOUSE_URL"], env["GATEHOUSE_LOGIN_ID"])
verifier = Verifier(jwks, env["GATEHOUSE_ISSUER"], audience=env["GATEHOUSE_PROJECT_ID"], fetch=counted)
token = env["TOKEN"]

claims = verifier.verify(token)
verifier.verify(token)
print("verified sub=%s project_id=%s amr=%s fetches=%d" % (claims["sub"], claims["project_id"], ",".join(claims["amr"]), len(fetches)))

def b64(data):
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")
def unb64(segment):
    return json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))
head, payload, signature = token.split(".")
forged = {
    "claim": "%s.%s.%s" % (head, b64(dict(unb64(payload), sub="usr_someone_else")), signature),
    "hs256": "%s.%s.%s" % (b64(dict(unb64(head), alg="HS256")), payload, signature),
    "none": "%s.%s." % (b64(dict(unb64(head), alg="none")), payload),
    "garbage": "not.a.jwt",
    "foreign": env["OTHER_TOKEN"],
    "expired": env["EXPIRED_TOKEN"],
}
for name, bad in forged.items():
    try:
        verifier.verify(bad)
        print("refused %s=accepted" % name)
    except AccessTokenError as error:
        print("refused %s=%s" % (name, error.reason))

# The right key and issuer, but another audience; the right key, but another issuer expected.
for name, wrong in (("audience", Verifier(jwks, env["GATEHOUSE_ISSUER"], audience="proj_someone_else", fetch=counted)),
                    ("issuer", Verifier(jwks, env["GATEHOUSE_ISSUER"] + "x", fetch=counted))):
    try:
        wrong.verify(token)
        print("wrong %s=accepted" % name)
    except AccessTokenError as error:
        print("wrong %s=%s" % (name, error.reason))
print("without_audience sub=%s" % Verifier(jwks, env["GATEHOUSE_ISSUER"], fetch=counted).verify(token)["sub"])

# Tokens naming keys that do not exist fetch the key set again at most once per cooldown.
bounded, before = Verifier(jwks, env["GATEHOUSE_ISSUER"], refetch_cooldown=3600, fetch=counted), len(fetches)
bounded.verify(token)
reasons = []
for n in range(5):
    made_up = "%s.%s.%s" % (b64(dict(unb64(head), kid="made-up-%d" % n)), payload, signature)
    try:
        bounded.verify(made_up)
    except AccessTokenError as error:
        reasons.append(error.reason)
print("made_up reasons=%s fetches=%d" % (",".join(sorted(set(reasons))), len(fetches) - before))
`,
        ],
        {
          ...project(),
          TOKEN: (await app.signup()).body.access_token,
          OTHER_TOKEN: (await other.signup()).body.access_token,
          EXPIRED_TOKEN: expired,
        },
      );
      expect(result.code, described(result)).toBe(0);
      const { stdout } = result;
      expect(fields(stdout, "verified")).toMatchObject({ project_id: app.projectId, amr: "pwd", fetches: "1" });
      expect(fields(stdout, "verified").sub).toMatch(/^usr_/);
      expect(fields(stdout, "refused")).toEqual({ claim: "signature" });
      for (const [name, reason] of Object.entries({
        hs256: "algorithm",
        none: "algorithm",
        garbage: "malformed",
        foreign: "issuer",
        expired: "expired",
      }))
        expect(stdout).toContain(`refused ${name}=${reason}\n`);
      expect(stdout).toContain("wrong audience=audience\n");
      expect(stdout).toContain("wrong issuer=issuer\n");
      expect(fields(stdout, "without_audience").sub).toBe(fields(stdout, "verified").sub);
      expect(fields(stdout, "made_up")).toEqual({ reasons: "unknown_key", fetches: "1" });
    });

    it("follows a key rotation without a restart: a token signed by the new key fetches the key set once more", async () => {
      const management = (await app.admin()).authorization.replace(/^Bearer /, "");
      const result = await runPython(
        [
          "-c",
          `
import os
from gatehouse.account.v1 import account_pb2
from gatehouse.auth.v1 import auth_pb2
from gatehouse_sdk import account_client, auth_client
from gatehouse_sdk.verify import Verifier, fetch_jwks
import jwt
env = os.environ
${COUNTED_FETCH}
verifier = Verifier.for_project(env["GATEHOUSE_URL"], env["GATEHOUSE_LOGIN_ID"], env["GATEHOUSE_PROJECT_ID"],
    issuer=env["GATEHOUSE_ISSUER"], refetch_cooldown=0, fetch=counted)
def signed_up(auth, n):
    return auth.Signup(auth_pb2.SignupRequest(email="rotation-%d-%s@example.com" % (n, os.getpid()),
        password="a sturdy passphrase 1"), timeout=10).access_token

with auth_client(env["GATEHOUSE_ADDRESS"], env["GATEHOUSE_API_KEY"]) as auth, \\
        account_client(env["GATEHOUSE_ADDRESS"], env["MANAGEMENT_TOKEN"]) as account:
    before = signed_up(auth, 1)
    verifier.verify(before)
    rotated = account.RotateSigningKey(account_pb2.RotateSigningKeyRequest(id=env["GATEHOUSE_PROJECT_ID"]), timeout=10)
    after = signed_up(auth, 2)

kid = jwt.get_unverified_header(after)["kid"]
print("rotated new_kid=%s fetches=%d" % (str(kid == rotated.kid and kid != jwt.get_unverified_header(before)["kid"]).lower(), len(fetches)))
print("after sub=%s fetches=%d" % (verifier.verify(after)["sub"], len(fetches)))
print("before sub=%s fetches=%d" % (verifier.verify(before)["sub"], len(fetches)))
`,
        ],
        { ...project(), MANAGEMENT_TOKEN: management },
      );
      expect(result.code, described(result)).toBe(0);
      const { stdout } = result;
      expect(fields(stdout, "rotated")).toEqual({ new_kid: "true", fetches: "1" });
      expect(fields(stdout, "after")).toMatchObject({ fetches: "2" });
      expect(fields(stdout, "after").sub).toMatch(/^usr_/);
      // Tokens signed before the rotation keep verifying, from the key set already fetched.
      expect(fields(stdout, "before")).toMatchObject({ fetches: "2" });
    });

    it("the offline verification example checks a real token and refuses a tampered one", async () => {
      const result = await runPython(["sdk/python/examples/verify_offline.py"], project());
      expect(result.code, described(result)).toBe(0);
      expect(fields(result.stdout, "verified").sub).toMatch(/^usr_/);
      expect(fields(result.stdout, "verified").amr).toBe("pwd");
      expect(fields(result.stdout, "tampered")).toEqual({ refused: "signature" });
    });
  },
);
