import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";
import { authFixture } from "../auth/helpers.js";
import { createTestDatabase } from "../helpers/database.js";
import { runNode } from "../helpers/process.js";
import { startTestServer } from "../helpers/server.js";

// PUBLIC_URL is the token issuer (`{PUBLIC_URL}/v1/auth/{login_id}`). Instances behind one load
// balancer that each default it to their own port refuse each other's tokens, silently: so
// production must name it, once, the same for every instance.

const SECRET = "ab".repeat(32);

describe("PUBLIC_URL in production", () => {
  it("NODE_ENV=production without PUBLIC_URL is a configuration error naming it; with it, the issuer is that URL", () => {
    const production = { NODE_ENV: "production", GATEHOUSE_SECRET: SECRET };
    expect(() => loadConfig(production)).toThrow(ConfigError);
    expect(() => loadConfig(production)).toThrow(/^PUBLIC_URL is required when NODE_ENV=production/);
    expect(() => loadConfig({ ...production, PUBLIC_URL: "  " })).toThrow(/^PUBLIC_URL is required/);
    expect(loadConfig({ ...production, PUBLIC_URL: "https://id.example.com/" }).publicUrl).toBe(
      "https://id.example.com",
    );
    // Development keeps its default.
    expect(loadConfig({ PORT: "9000" }).publicUrl).toBe("http://localhost:9000");
  });

  it("the service refuses to start with one line naming PUBLIC_URL (exit 78)", async () => {
    const result = await runNode(["src/main.ts"], {
      NODE_ENV: "production",
      GATEHOUSE_SECRET: SECRET,
      DATA_DIR: "/nonexistent",
    });
    expect(result.code).toBe(78);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^gatehouse: invalid configuration: PUBLIC_URL is required when NODE_ENV=production/);
  });
});

describe.skipIf(!process.env.DATABASE_URL)(
  "two instances on one database (needs DATABASE_URL: PGlite is one process per data directory)",
  () => {
    it("with different PUBLIC_URLs each answers valid: false for the other's tokens; with the same one both verify", async () => {
      const db = await createTestDatabase();
      const servers = [
        await startTestServer({ PUBLIC_URL: "http://localhost:8081" }, db),
        await startTestServer({ PUBLIC_URL: "http://localhost:8082" }, db),
        await startTestServer({ PUBLIC_URL: "http://localhost:8081" }, db),
      ];
      try {
        const [first, other, same] = servers;
        const app = await authFixture(first);
        const user = await app.signup();
        const verifyOn = async (server: typeof first) =>
          (await fetch(`${server.url}/v1/auth/token/verify`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-service-key": app.key },
            body: JSON.stringify({ token: user.body.access_token }),
          }).then((r) => r.json())) as { valid: boolean; claims?: { iss: string } };
        expect(await verifyOn(first)).toMatchObject({
          valid: true,
          claims: { iss: `http://localhost:8081/v1/auth/${app.loginId}` },
        });
        expect(await verifyOn(other)).toEqual({ valid: false });
        expect(await verifyOn(same)).toMatchObject({ valid: true });
      } finally {
        for (const server of servers) await server.close();
        await db.drop();
      }
    });
  },
);
