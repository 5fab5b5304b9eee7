import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  signInThroughRelyingParty,
  startRelyingParty,
  useOpenidWorld,
  type OpenidProject,
  type RelyingParty,
} from "../helpers/openid-provider-world.js";
import { closedPort } from "../helpers/ports.js";
import { PYTHON, skipReason } from "../sdks/toolchain.js";

// A relying party no one here wrote: Python's Authlib (Debian python3-authlib), in a small web
// application (test/fixtures/oidc-rp/authlib_rp.py) that signs its users in with Gatehouse
// through the code flow with PKCE, verifies the ID token against the JWKS, calls userinfo and
// refreshes; the browser is a cookie jar and the sign-in happens over the API.

const PACKAGES = "python3-authlib python3-requests";
function authlibMissing(): string | undefined {
  try {
    execFileSync(PYTHON, ["-c", "import authlib.jose, authlib.integrations.requests_client, requests"], {
      stdio: "ignore",
    });
    return undefined;
  } catch {
    return `${PYTHON} with authlib and requests not found; apt-get install ${PACKAGES}`;
  }
}
const missing = skipReason(authlibMissing());
const RP = resolve(import.meta.dirname, "../fixtures/oidc-rp/authlib_rp.py");

const world = useOpenidWorld();

describe.skipIf(missing !== undefined)(`Authlib as a relying party${missing ? ` (skipped: ${missing})` : ""}`, () => {
  let p: OpenidProject;
  let rp: RelyingParty;
  let clientId = "";

  beforeAll(async () => {
    p = await world.project();
    const port = await closedPort();
    const client = await p.createClient({
      name: "Authlib app",
      type: "confidential",
      redirect_uris: [`http://127.0.0.1:${port}/callback`],
      grant_types: ["authorization_code", "refresh_token"],
    });
    clientId = client.client_id;
    rp = await startRelyingParty(PYTHON, [RP], {
      port,
      env: {
        ISSUER: p.issuer,
        CLIENT_ID: client.client_id,
        CLIENT_SECRET: client.client_secret,
        PYTHONDONTWRITEBYTECODE: "1",
      },
    });
  });
  afterAll(async () => {
    await rp?.stop();
  });

  it("signs a user in: verified ID token, userinfo, refresh, a JWT access token for the client", async () => {
    const userId = await p.signUp("ada@example.com");
    const { status, body } = await signInThroughRelyingParty(world, p, rp, "ada@example.com");
    expect(status, `${JSON.stringify(body)}\n${rp.output()}`).toBe(200);
    expect(body.id_token_claims).toMatchObject({ iss: p.issuer, sub: userId, aud: clientId, email: "ada@example.com" });
    expect(body.userinfo).toMatchObject({ sub: userId, email: "ada@example.com" });
    expect(body).toMatchObject({ refreshed: true, refresh_token_rotated: true });
    expect(body.access_token_claims).toMatchObject({ iss: p.issuer, sub: userId, aud: clientId });
    expect(String(body.access_token_claims.scope).split(" ").sort()).toEqual([
      "email",
      "offline_access",
      "openid",
      "profile",
    ]);
  });

  it("reports access_denied when the user denies consent", async () => {
    await p.signUp("grace@example.com");
    const { callback, status, body } = await signInThroughRelyingParty(world, p, rp, "grace@example.com", {
      consent: false,
    });
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(status).toBe(400);
    expect(String(body)).toContain("access_denied");
  });
});
