import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { http } from "../helpers/clients.js";
import { longTest } from "../helpers/patience.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { goMissing, skipReason } from "./toolchain.js";
import { goWorkspace, type GoWorkspace } from "./go-workspace.js";
import { lineProcess } from "./go-line-process.js";
import { fields } from "./run.js";

// The Go SDK's offline verification (gatehouse.Verifier) through sdk/go/examples/verify, one
// running process asked about real tokens while the project's signing key rotates; and the
// package's own `go test` (the refetch bound, leeway, algorithms: sdk/go/gatehouse/verify_test.go;
// ErrorMessage's language tags, and errors without words: error_words_test.go).
const missing = skipReason(goMissing());

describe.skipIf(missing !== undefined)(`Go SDK offline verification${missing ? ` (skipped: ${missing})` : ""}`, () => {
  let workspace: GoWorkspace;
  let program = "";
  let server: TestServer;
  let app: AuthFixture;
  let other: AuthFixture;

  beforeAll(async () => {
    workspace = goWorkspace();
    [{ verify: program }, server] = await Promise.all([workspace.buildExamples(["verify"]), sharedTestServer()]);
    [app, other] = await Promise.all([authFixture(server), authFixture(server)]);
  }, longTest(2));
  afterAll(() => workspace?.remove());

  it("accepts a real token, refuses a tampered one and another project's, and takes a rotated key without a restart", async () => {
    const verifier = lineProcess(program, {
      ...process.env,
      GATEHOUSE_URL: server.url,
      GATEHOUSE_LOGIN_ID: app.loginId,
      GATEHOUSE_PROJECT_ID: app.projectId,
      // The tokens name the server's PUBLIC_URL, which is not the address the test reaches it at.
      GATEHOUSE_ISSUER: `${server.deps.config.publicUrl}/v1/auth/${app.loginId}`,
      // Refetch on the first unknown key: the bound itself is go test's (verify_test.go).
      GATEHOUSE_REFETCH_INTERVAL: "1ms",
    });
    const { body } = await app.signup();
    const first = fields(await verifier.ask(body.access_token), "verified n=1");
    expect({ sub: first.sub, project_id: first.project_id }).toEqual({ sub: body.user.id, project_id: app.projectId });
    expect(first.kid).toBeTruthy();

    // Another subject in the payload, the signature kept: refused offline.
    const [head, payload, signature] = (body.access_token as string).split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: "usr_someone_else" })).toString("base64url");
    expect(await verifier.ask(`${head}.${forged}.${signature}`)).toBe("refused n=2 why=bad_signature");
    // Another project's token names a key this project's set does not hold.
    expect(await verifier.ask((await other.signup()).body.access_token)).toBe("refused n=3 why=unknown_key");
    expect(await verifier.ask("not-a-token")).toBe("refused n=4 why=malformed");

    const rotated = await http(`${server.url}/v1/projects/${app.projectId}/signing-keys/rotate`, {
      headers: await app.admin(),
      body: {},
    });
    expect(rotated.status).toBe(200);
    const fresh = await app.signup();
    const second = fields(await verifier.ask(fresh.body.access_token), "verified n=5");
    expect(second.sub).toBe(fresh.body.user.id);
    expect(second.kid).toBe((rotated.body as { kid: string }).kid);
    expect(second.kid).not.toBe(first.kid);
    // The retired key stays published until its last token expires.
    expect(fields(await verifier.ask(body.access_token), "verified n=6").kid).toBe(first.kid);

    expect(await verifier.end()).toEqual({ code: 0, stderr: "" });
  });

  it(
    "go test: the key set is refetched at most once per interval; leeway, audience, issuer and algorithm rules; ErrorMessage's tags",
    async () => {
      const result = await workspace.go(["test", "-count=1", "gatehouse.dev/sdk/go/gatehouse"]);
      expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
      expect(result.stdout).toMatch(/^ok\s+gatehouse\.dev\/sdk\/go\/gatehouse/m);
    },
    longTest(2),
  );
});
