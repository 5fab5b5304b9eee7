import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Organization } from "../../src/domain/account.js";
import { http, type HttpAnswer } from "../helpers/clients.js";
import { startGithubStandin, type GithubStandin } from "../helpers/github-standin.js";
import { injectHttp } from "../helpers/inject.js";
import { startInternalService, type InternalService } from "../helpers/internal-service-standin.js";
import { seedMember } from "../helpers/seed.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import { expectReason } from "./mfa-helpers.js";
import { CALLBACK_URL, useSsoWorld } from "./sso-helpers.js";

// Who may point a connection where, and what a moved connection may send (issue 46). Threats:
// a developer making the server call URLs of their choosing (the outbound targets of webhooks
// and hooks are an admin's to choose, and so are a connection's); and the stored, write-only
// client secret read back by changing only the token URL, so that the next sign-in posts it to
// a server of the attacker's. The GitHub stand-in plays the provider; the "attacker's" token
// endpoint is a loopback service that counts what reaches it (both admitted by the SSO
// world's OUTBOUND_ALLOW_HOSTS, as a provider on the deployment's own network would be).

const world = useSsoWorld();
const { ctx } = world;
let github: GithubStandin;
let attacker: InternalService;
let app: AuthFixture;
let admin: Record<string, string>;
let developer: Record<string, string>;

beforeAll(async () => {
  github = await startGithubStandin({ redirectUri: CALLBACK_URL });
  attacker = await startInternalService();
  app = await authFixture(ctx.server);
  admin = await app.admin();
  const project = await ctx.server.deps.db.repos.projects.getByIdForFlow(app.projectId);
  const member = await seedMember(ctx.server.deps, { id: project!.organizationId } as Organization, "developer");
  const login = await injectHttp(ctx.server.handle, "/v1/account/login", {
    body: { email: member.email, password: member.password },
  });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  developer = { authorization: `Bearer ${login.body.management_token}` };
});
afterAll(async () => {
  await github?.stop();
  await attacker?.stop();
});

const enterprise = () => ({
  authorization_url: github.authorizeUrl,
  token_url: github.tokenUrl,
  userinfo_url: `${github.apiUrl}/user`,
});
const create = (headers: Record<string, string>, body: Record<string, unknown>) =>
  http(`${ctx.server.url}/v1/projects/${app.projectId}/sso-connections`, {
    headers,
    body: { name: "Conn", client_id: github.clientId, client_secret: github.clientSecret, ...body },
  });
const update = (headers: Record<string, string>, id: string, body: Record<string, unknown>) =>
  http(`${ctx.server.url}/v1/sso-connections/${id}`, { method: "PATCH", headers, body });
const ok = (res: HttpAnswer) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe("who chooses a connection's URLs", () => {
  it("a developer makes connections on a preset's own URLs; URLs of their own are an admin's (ROLE_REQUIRED)", async () => {
    for (const body of [
      { provider: "google" },
      { provider: "microsoft" },
      { provider: "github" },
      { provider: "gitlab", issuer: "https://gitlab.com" },
    ])
      ok(await create(developer, body));
    for (const body of [
      { issuer: "https://idp.example.com" },
      { provider: "gitlab", issuer: "https://gitlab.example.com" },
      { provider: "microsoft", issuer: "https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0" },
      { provider: "github", ...enterprise() },
      { provider: "generic_oauth2", ...enterprise() },
    ]) {
      expectReason(await create(developer, body), 403, "ROLE_REQUIRED");
      ok(await create(admin, body));
    }
  });

  it("a developer changes anything but the URLs (a URL given as it is moves nothing); an admin changes them", async () => {
    const conn = ok(await create(admin, { provider: "github", ...enterprise() }));
    const renamed = ok(
      await update(developer, conn.id, { name: "GitHub (staff)", client_secret: "rotated", ...enterprise() }),
    );
    expect(renamed).toMatchObject({ name: "GitHub (staff)", token_url: github.tokenUrl });
    for (const field of ["authorization_url", "token_url", "userinfo_url"])
      expectReason(
        await update(developer, conn.id, { [field]: `${attacker.url}/${field}`, client_secret: "x" }),
        403,
        "ROLE_REQUIRED",
      );
    const oidc = ok(await create(admin, { issuer: "https://idp.example.com" }));
    expectReason(
      await update(developer, oidc.id, { issuer: "https://idp2.example.com", client_secret: "x" }),
      403,
      "ROLE_REQUIRED",
    );
    ok(await update(admin, oidc.id, { issuer: "https://idp2.example.com", client_secret: "x" }));
  });
});

describe("moving a connection's URLs", () => {
  it("changing only token_url is refused without the secret: the stored one is never posted to the new URL", async () => {
    const conn = ok(await create(admin, { provider: "github", ...enterprise() }));
    const moved = await update(admin, conn.id, { token_url: `${attacker.url}/token` });
    expectReason(moved, 400, "VALIDATION_FAILED");
    expect(moved.body.violations).toEqual([
      {
        field: "client_secret",
        description: "must be given again when token_url changes: the stored one is never sent to a new URL",
      },
    ]);
    // The next sign-in goes where it went, and signs in: nothing reached the new URL.
    github.setUser("moved-octocat", {
      id: 5150,
      emails: [{ email: "moved@example.com", primary: true, verified: true }],
    });
    const { answer } = await world.signInAt(app, conn.id, "moved-octocat");
    expect(answer.fragment.get("access_token"), answer.fragment.toString()).toBeTruthy();
    expect(attacker.requests).toBe(0);

    // Every URL field and the issuer, alone or together, asks for it; so does Apple's key.
    for (const body of [{ authorization_url: `${github.url}/x` }, { userinfo_url: `${github.apiUrl}/me` }])
      expect((await update(admin, conn.id, body)).body.violations).toMatchObject([{ field: "client_secret" }]);
    const oidc = ok(await create(admin, { issuer: "https://idp.example.com" }));
    expect((await update(admin, oidc.id, { issuer: "https://idp2.example.com" })).body.violations).toMatchObject([
      { field: "client_secret" },
    ]);
  });

  it("a move with the secret is made and audited with the old and new hosts", async () => {
    const conn = ok(await create(admin, { provider: "github", ...enterprise() }));
    ok(await update(admin, conn.id, { token_url: `${attacker.url}/token`, client_secret: "the-attackers-own" }));
    const events = await injectHttp(
      ctx.server.handle,
      `/v1/audit-events?project_id=${app.projectId}&type=sso_connection.updated&limit=100`,
      { headers: admin },
    );
    const event = events.body.data.find((e: { target_id: string }) => e.target_id === conn.id);
    expect(event.details).toEqual({
      provider: "github",
      fields: ["client_secret", "token_url"],
      moved_urls: ["token_url"],
      token_url_hosts: [new URL(github.tokenUrl).host, new URL(attacker.url).host],
    });
    expect(JSON.stringify(event)).not.toContain("the-attackers-own");
  });
});
