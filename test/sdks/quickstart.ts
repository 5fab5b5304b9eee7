import { afterAll, beforeAll, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { fields, type Run } from "./run.js";

/**
 * A language's quickstart example (the file docs/clients.md shows) run against the real server:
 * it signs up, logs in, verifies the access token over gRPC and prints the ErrorInfo reason of
 * a login with a wrong password. `runExample` starts it with the address and API key in env.
 */
export function quickstartSuite(
  expectedCode: string,
  timeoutMs: number,
  runExample: (env: Record<string, string>) => Promise<Run>,
): void {
  let server: TestServer;
  let app: AuthFixture;
  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it(
    "signs up, logs in, verifies the token and reads the reason of a failed login",
    async () => {
      const email = `sdk-${randomUUID()}@example.com`;
      const result = await runExample({
        GATEHOUSE_ADDRESS: new URL(server.url).host,
        GATEHOUSE_API_KEY: app.key,
        GATEHOUSE_EMAIL: email,
      });
      expect(result.code, `exit code; stdout:\n${result.stdout}\nstderr:\n${result.stderr}`).toBe(0);

      const userId = fields(result.stdout, "signed up").user_id;
      expect(userId).toMatch(/^usr_/);
      expect(fields(result.stdout, "logged in")).toEqual({ user_id: userId });
      expect(fields(result.stdout, "verified")).toEqual({ valid: "true", sub: userId });
      expect(fields(result.stdout, "failed login")).toEqual({ code: expectedCode, reason: "INVALID_CREDENTIALS" });

      // The printed id is the user the program made, in the key's project.
      const user = await app.call("GET", `/v1/auth/users/${userId}`);
      expect({ status: user.status, email: user.body.email }).toEqual({ status: 200, email });
    },
    timeoutMs,
  );
}
