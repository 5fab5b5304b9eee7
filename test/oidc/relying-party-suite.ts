import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  signInThroughRelyingParty,
  startRelyingParty,
  useOpenidWorld,
  type OpenidProject,
  type RelyingParty,
} from "../helpers/openid-provider-world.js";
import { longTest } from "../helpers/patience.js";
import { closedPort } from "../helpers/ports.js";

/** How to run one relying party: its program, and what to clean up after. */
export interface RelyingPartyProgram {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cleanup?: () => void;
}

/**
 * The checks every relying party of another language passes against a running Gatehouse (a
 * small web application of test/fixtures/oidc-rp/): the code flow with PKCE, the ID token
 * verified against the JWKS, userinfo, one refresh; and a denied consent reaching it as
 * access_denied. `prepare` builds the program if it must be built; `missing` skips the suite
 * where its toolchain is not installed (never in CI: test/sdks/toolchain.ts).
 */
export function relyingPartySuite(
  name: string,
  missing: string | undefined,
  prepare: () => Promise<RelyingPartyProgram>,
) {
  const world = useOpenidWorld();
  describe.skipIf(missing !== undefined)(`${name} as a relying party${missing ? ` (skipped: ${missing})` : ""}`, () => {
    let p: OpenidProject;
    let rp: RelyingParty;
    let program: RelyingPartyProgram | undefined;
    let clientId = "";

    beforeAll(async () => {
      program = await prepare();
      p = await world.project();
      const port = await closedPort();
      const client = await p.createClient({
        name: `${name} app`,
        type: "confidential",
        redirect_uris: [`http://127.0.0.1:${port}/callback`],
        grant_types: ["authorization_code", "refresh_token"],
      });
      clientId = client.client_id;
      rp = await startRelyingParty(program.command, program.args, {
        port,
        env: { ISSUER: p.issuer, CLIENT_ID: client.client_id, CLIENT_SECRET: client.client_secret, ...program.env },
      });
    }, longTest(1.5));
    afterAll(async () => {
      await rp?.stop();
      program?.cleanup?.();
    });

    it("signs a user in: verified ID token, userinfo, refresh, a JWT access token for the client", async () => {
      const userId = await p.signUp("ada@example.com");
      const { status, body } = await signInThroughRelyingParty(world, p, rp, "ada@example.com");
      expect(status, `${JSON.stringify(body)}\n${rp.output()}`).toBe(200);
      expect(body.id_token_claims).toMatchObject({
        iss: p.issuer,
        sub: userId,
        aud: clientId,
        email: "ada@example.com",
      });
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
}
