import * as oidc from "openid-client";
import { expect, it } from "vitest";
import {
  authorize,
  CookieBrowser,
  formFields,
  REDIRECT_URI,
  useOpenidWorld,
} from "../helpers/openid-provider-world.js";

// The OpenID Provider's secrets at rest: a client's secret, an authorization code, a refresh
// token, a device code and its user code, the provider's session cookie. Each is noted as a
// client or browser saw it, then every row the provider wrote for the project is searched for
// it: none may be there in plain text (they are kept as SHA-256, as Gatehouse's own are).

const world = useOpenidWorld();

it("no row of the provider's tables holds a code, a token, a cookie or a client secret", async () => {
  const p = await world.project();
  const secrets: Record<string, string> = {};
  const { client_id, client_secret } = await p.createClient({
    name: "Wiki",
    type: "confidential",
    redirect_uris: [REDIRECT_URI],
    grant_types: ["authorization_code", "refresh_token"],
  });
  secrets["client secret"] = client_secret;
  await p.signUp("rest@example.com");
  const config = await p.discover(client_id, client_secret);
  const flow = await authorize(world, p, config, "rest@example.com");
  secrets["authorization code"] = flow.callback.searchParams.get("code")!;
  const session = /_gatehouse_op_session=([^;]+)/.exec(flow.browser.cookieHeader())?.[1];
  expect(session).toBeTruthy();
  secrets["provider session cookie"] = session!;
  const tokens = await oidc.authorizationCodeGrant(config, flow.callback, {
    pkceCodeVerifier: flow.verifier,
    expectedState: flow.state,
  });
  secrets["refresh token"] = tokens.refresh_token!;
  const rotated = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
  secrets["rotated refresh token"] = rotated.refresh_token!;
  // An authorization the signed-in person leaves at the consent page: its interaction is kept
  // (until it expires) with what it knows of the provider's session.
  const left = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: "openid email",
    prompt: "consent",
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: "S256",
  });
  const atConsent = await flow.browser.follow(left.href, world.publicUrl);
  expect(new URL(atConsent.url).pathname).toBe(`/v1/auth/${p.project.loginId}/consent`);

  const cli = await p.createClient({
    name: "CLI",
    type: "public",
    grant_types: ["urn:ietf:params:oauth:grant-type:device_code"],
    first_party: true,
  });
  const device = await oidc.initiateDeviceAuthorization(await p.discover(cli.client_id), { scope: "openid" });
  secrets["device code"] = device.device_code;
  secrets["user code"] = device.user_code;
  // The person confirms the code: the device code's row is found by the user code and saved again.
  const browser = new CookieBrowser();
  const carried = formFields((await browser.request(device.verification_uri_complete!)).body);
  const confirm = await browser.request(carried.action, { form: carried.fields });
  const { action, fields } = formFields(confirm.body, "op.deviceConfirmForm");
  const submitted = await browser.request(new URL(action, p.issuer).href, { form: fields });
  expect(submitted.status).toBe(303);

  const rows: Array<{ row: string }> = await world.server.deps.db.dataSource.query(
    `SELECT t::text AS row FROM oidc_payloads t WHERE project_id = $1
     UNION ALL SELECT t::text FROM oauth_clients t WHERE project_id = $1
     UNION ALL SELECT t::text FROM oauth_consents t WHERE project_id = $1
     UNION ALL SELECT t::text FROM audit_events t WHERE project_id = $1`,
    [p.project.id],
  );
  const models: Array<{ model: string }> = await world.server.deps.db.dataSource.query(
    `SELECT DISTINCT model FROM oidc_payloads WHERE project_id = $1 ORDER BY model`,
    [p.project.id],
  );
  // What was written, so the search below is not of an empty table.
  expect(models.map((m) => m.model)).toEqual(
    expect.arrayContaining(["AuthorizationCode", "DeviceCode", "Grant", "Interaction", "RefreshToken", "Session"]),
  );
  const everything = rows.map((r) => r.row).join("\n");
  for (const [what, value] of Object.entries(secrets))
    expect(everything.includes(value), `${what} is stored in plain text`).toBe(false);
});
