import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../helpers/clients.js";
import { captureLog } from "../secrets/log-capture.js";
import { startInternalService, type InternalService } from "../helpers/internal-service-standin.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import { expectReason } from "./mfa-helpers.js";
import { expectFragmentError, rowCounts } from "./sso-checks.js";
import { CALLBACK_URL, useSsoWorld } from "./sso-helpers.js";
import { loopbackName, plainHttpName, privateSpellings, savedRefusal } from "./sso-ssrf-spellings.js";

// Threat (issue 46): a project member points an SSO connection at the service's own network
// (an admin port on loopback, a database, the cloud metadata service) and reads the answers
// back: through the redirect's error_description, or through a claim mapping that copies a
// field of the internal service's JSON into an identity's subject (the audit read a loopback
// service's `db_password` through ListIdentities). A server without OUTBOUND_ALLOW_HOSTS (the
// production default) refuses a URL naming a private address when it is saved, and a DNS name
// that resolves to one at every request; the internal service never sees a connection.

const log = captureLog("warn");
const world = useSsoWorld({ env: { OUTBOUND_ALLOW_HOSTS: "" }, logger: log.logger });
const { ctx } = world;
let internal: InternalService;
let app: AuthFixture;
let admin: Record<string, string>;
/** The SSRF spellings this file saw refused (reported by issue 46's closing note). */
let refused = 0;

beforeAll(async () => {
  internal = await startInternalService();
  app = await authFixture(ctx.server);
  admin = await app.admin();
});
afterAll(async () => {
  await internal?.stop();
  console.info(`sso-ssrf-saved: ${refused} SSRF spellings refused`);
});

const PUBLIC = {
  authorization_url: "https://oauth.example.com/authorize",
  token_url: "https://oauth.example.com/token",
  userinfo_url: "https://oauth.example.com/user",
};
const generic = (overrides: Record<string, unknown>) => ({
  name: "Internal",
  provider: "generic_oauth2",
  client_id: "client-1",
  client_secret: "secret-1",
  ...PUBLIC,
  ...overrides,
});

/** CreateSsoConnection as the project's admin. */
const create = (body: Record<string, unknown>) =>
  http(`${ctx.server.url}/v1/projects/${app.projectId}/sso-connections`, { headers: admin, body });

/** The browser's part of a sign-in: SsoAuthorize, then the provider's redirect back with a code. */
async function signInThrough(connectionId: string) {
  const start = await app.call("POST", "/v1/auth/sso/authorize", { connection_id: connectionId });
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const state = new URL(start.body.authorization_url).searchParams.get("state")!;
  return world.callback(`${CALLBACK_URL}?${new URLSearchParams({ code: "a-code", state }).toString()}`);
}

describe("provider URLs without OUTBOUND_ALLOW_HOSTS", () => {
  it("a private address in any spelling is refused when saved: issuer, authorization, token and userinfo URLs", async () => {
    const spellings = [...privateSpellings(internal.port), plainHttpName(internal.port)];
    for (const url of spellings) {
      const cases: Array<[string, Record<string, unknown>]> = [
        ["issuer", { name: "Internal", issuer: url, client_id: "client-1", client_secret: "secret-1" }],
        ["authorization_url", generic({ authorization_url: url })],
        ["token_url", generic({ token_url: url })],
        ["userinfo_url", generic({ userinfo_url: url })],
      ];
      for (const [field, body] of cases) {
        const res = await create(body);
        expect(res.status, `${field} ${url}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body.violations).toEqual([{ field, description: savedRefusal(url) }]);
        refused++;
      }
    }
    const listed = await http(`${ctx.server.url}/v1/projects/${app.projectId}/sso-connections?limit=100`, {
      headers: admin,
    });
    expect(listed.body.data).toEqual([]);
    expect(internal.connections).toBe(0);
  });

  it("a connection cannot be moved onto a private address either", async () => {
    const created = await create(generic({}));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    for (const url of privateSpellings(internal.port)) {
      const moved = await http(`${ctx.server.url}/v1/sso-connections/${created.body.id}`, {
        method: "PATCH",
        headers: admin,
        body: { token_url: url, client_secret: "secret-2" },
      });
      expect(moved.status, `${url}: ${JSON.stringify(moved.body)}`).toBe(400);
      expect(moved.body.violations).toEqual([{ field: "token_url", description: savedRefusal(url) }]);
      refused++;
    }
    expect(internal.connections).toBe(0);
  });

  it("a claim mapping cannot copy an internal service's field into an identity's subject (the audit's db_password)", async () => {
    const before = await rowCounts(ctx, app.projectId);
    // The audit's connection: every URL at the internal service, its secret mapped to the id.
    const attack = await create(
      generic({
        authorization_url: `${internal.url}/authorize`,
        token_url: `${internal.url}/token`,
        userinfo_url: `${internal.url}/user`,
        claim_mapping: { id: "db_password", email: "admin_email" },
        trust_emails: true,
      }),
    );
    // Had it been saved, this is what a sign-in through it would have read back.
    const leaked: string[] = [];
    if (attack.status === 200) {
      const answer = await signInThrough(attack.body.id);
      const token = answer.fragment.get("access_token");
      if (token) {
        const identities = await app.call("GET", "/v1/auth/identities", undefined, token);
        leaked.push(...identities.body.data.map((i: { subject: string }) => i.subject));
      }
    }
    expect({ saved: attack.status, leaked }).toEqual({ saved: 400, leaked: [] });
    expect(attack.body.violations.map((v: { field: string }) => v.field)).toEqual([
      "authorization_url",
      "token_url",
      "userinfo_url",
    ]);
    refused++;
    expect(internal.connections).toBe(0);
    expect(await rowCounts(ctx, app.projectId)).toEqual(before);
  });

  it("a DNS name that resolves to loopback is saved, then refused at every request, in the same words as any unreachable provider", async () => {
    const name = loopbackName(internal.port);
    // Discovery: SsoAuthorize answers SSO_FAILED with Gatehouse's sentence.
    const oidc = await create({
      name: "Named",
      issuer: name.slice(0, -1),
      client_id: "client-1",
      client_secret: "secret-1",
    });
    expect(oidc.status, JSON.stringify(oidc.body)).toBe(200);
    const start = await app.call("POST", "/v1/auth/sso/authorize", { connection_id: oidc.body.id });
    expectReason(start, 400, "SSO_FAILED");
    expect(start.body.message).toBe("the identity provider's discovery document could not be read");
    refused++;

    // The code exchange of generic_oauth2 and of GitHub Enterprise, with the db_password mapping.
    for (const body of [
      generic({ token_url: `${name}token`, userinfo_url: `${name}user`, claim_mapping: { id: "db_password" } }),
      { name: "GHE", provider: "github", client_id: "c", client_secret: "s", ...PUBLIC, token_url: `${name}token` },
    ]) {
      const created = await create(body);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const answer = await signInThrough(created.body.id);
      expect(expectFragmentError(answer, "sso_failed")).toBe(
        "the identity provider could not be reached, or its answer could not be read",
      );
      expect(answer.location).not.toContain(internal.secret);
      refused++;
    }
    expect(internal.connections).toBe(0);
    // Why is for the operator: the server's log names the address, the browser never does.
    const why = log.lines().filter((l) => l.msg === "sso sign-in refused" || l.msg === "sso discovery failed");
    expect(why.map((l) => l.reason)).toEqual([
      expect.stringContaining("the host resolves to 127.0.0.1"),
      expect.stringContaining("the host resolves to 127.0.0.1"),
      expect.stringContaining("the host resolves to 127.0.0.1"),
    ]);
  });
});
