import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateProject } from "../../src/flows/projects/update-project.js";
import { connectReason, type HttpAnswer } from "../helpers/clients.js";
import { injectConnect, injectHttp } from "../helpers/inject.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { SoftAuthenticator } from "../helpers/soft-authenticator.js";
import { authFixture, type AuthFixture } from "./helpers.js";

// Several projects on one PUBLIC_URL (issue 46): their hosted pages share its origin, so by
// default their passkeys share one relying party, and the browser holds them side by side. A
// project whose pages have a host of their own (a DNS name pointed at Gatehouse, among its
// allowed_origins, under its passkey_rp_id) gets a relying party of its own there. Either way
// an options answer names only the project's credentials, and another project's passkey signs
// nobody in. The calls are the hosted pages' own: the page credential with the page's Origin.

const PUBLIC = "https://auth.gatehouse.example";
const OWN_HOST = "https://login.shop.example";

describe("passkeys of several projects on one PUBLIC_URL", () => {
  let server: TestServer;
  let a: AuthFixture;
  let b: AuthFixture;
  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL: PUBLIC });
    a = await authFixture(server);
    b = await authFixture(server);
    const project = (await server.deps.db.repos.projects.getByIdForFlow(b.projectId))!;
    await updateProject(
      server.deps,
      project.organizationId,
      project.id,
      { allowedOrigins: [OWN_HOST, "https://app.example.com"], passkeyRpId: "shop.example" },
      { actor: { type: "operator", id: "test" }, ip: "", userAgent: "" },
    );
  });
  afterAll(() => server?.stop());

  /** A passkey RPC as a hosted page of `app` at `origin` makes it: Connect, X-Gatehouse-Page, no API key. */
  const page = (app: AuthFixture, origin: string, method: string, body: unknown, bearer?: string) =>
    injectConnect(server.handle, "auth", method, body, {
      "x-gatehouse-page": app.loginId,
      origin,
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    });

  const refusal = (res: HttpAnswer) => ({ status: res.status, reason: connectReason(res.body) });

  /** A signed-up user of `app` who registered a passkey on `device` from the pages at `origin`. */
  async function userWithPasskey(app: AuthFixture, origin: string, device: SoftAuthenticator) {
    const { email, body } = await app.signup();
    const bearer = body.access_token as string;
    const start = await page(app, origin, "StartPasskeyRegistration", {}, bearer);
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const finish = await page(
      app,
      origin,
      "FinishPasskeyRegistration",
      { challenge_id: start.body.challenge_id, credential: device.register(start.body.options) },
      bearer,
    );
    expect(finish.status, JSON.stringify(finish.body)).toBe(200);
    return { email, userId: body.user.id as string, credentialId: device.credentials().at(-1)!.id };
  }

  async function signIn(app: AuthFixture, origin: string, device: SoftAuthenticator, email = ""): Promise<HttpAnswer> {
    const start = await page(app, origin, "StartPasskeySignIn", { email });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    return page(app, origin, "FinishPasskeySignIn", {
      challenge_id: start.body.challenge_id,
      credential: device.authenticate(start.body.options),
    });
  }

  /** The settings the server renders into a hosted page asked for with this Host. */
  async function pageConfig(app: AuthFixture, host: string): Promise<Record<string, unknown>> {
    const res = await injectHttp(server.handle, `/v1/auth/${app.loginId}/login`, { headers: { host } });
    expect(res.status).toBe(200);
    const block = /<script type="application\/json" id="gatehouse-page">([\s\S]*?)<\/script>/.exec(String(res.body));
    return JSON.parse(block![1]) as Record<string, unknown>;
  }

  it("a project with a host of its own: its pages there use its relying party, and another project's passkey is neither offered nor accepted", async () => {
    const aDevice = new SoftAuthenticator({ origin: PUBLIC });
    const ada = await userWithPasskey(a, PUBLIC, aDevice);
    expect(aDevice.credentials()[0].rpId).toBe("auth.gatehouse.example");

    // B's pages on its own host offer passkeys; on PUBLIC_URL's they cannot (another relying party).
    expect((await pageConfig(b, "login.shop.example")).passkeys).toBe(true);
    expect((await pageConfig(b, "auth.gatehouse.example")).passkeys).toBe(false);
    expect((await pageConfig(a, "auth.gatehouse.example")).passkeys).toBe(true);

    const discoverable = await page(b, OWN_HOST, "StartPasskeySignIn", {});
    expect(discoverable.status, JSON.stringify(discoverable.body)).toBe(200);
    expect(discoverable.body.options).toMatchObject({ rpId: "shop.example", allowCredentials: [] });
    // A's passkey is for another relying party: an authenticator has nothing to offer B.
    expect(() => aDevice.authenticate(discoverable.body.options)).toThrow(/no credential for rpId "shop.example"/);
    // Sent all the same (a script can): refused, and nobody is signed in.
    const forced = await page(b, OWN_HOST, "FinishPasskeySignIn", {
      challenge_id: discoverable.body.challenge_id,
      credential: aDevice.authenticate(discoverable.body.options, {
        credentialId: ada.credentialId,
        rpId: "shop.example",
        origin: OWN_HOST,
      }),
    });
    expect(refusal(forced)).toEqual({ status: 401, reason: "PASSKEY_NOT_FOUND" });
    expect(forced.body.access_token).toBeUndefined();

    // The same address in B: its email-first answer names none of A's credentials.
    const { body } = await b.signup(ada.email);
    const bDevice = new SoftAuthenticator({ origin: OWN_HOST });
    const bStart = await page(b, OWN_HOST, "StartPasskeyRegistration", {}, body.access_token);
    expect(bStart.body.options.rp.id).toBe("shop.example");
    const bFinish = await page(
      b,
      OWN_HOST,
      "FinishPasskeyRegistration",
      { challenge_id: bStart.body.challenge_id, credential: bDevice.register(bStart.body.options) },
      body.access_token,
    );
    expect(bFinish.status, JSON.stringify(bFinish.body)).toBe(200);
    const emailFirst = await page(b, OWN_HOST, "StartPasskeySignIn", { email: ada.email });
    expect(emailFirst.body.options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([
      bDevice.credentials()[0].id,
    ]);

    // B's own passkey signs its user in on B's host, discoverable and email-first.
    for (const email of ["", ada.email]) {
      const res = await signIn(b, OWN_HOST, bDevice, email);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.user.id).toBe(body.user.id);
    }
    // A's still signs in to A, on PUBLIC_URL's pages.
    const inA = await signIn(a, PUBLIC, aDevice);
    expect(inA.status, JSON.stringify(inA.body)).toBe(200);
    expect(inA.body.user.id).toBe(ada.userId);
  });

  it("a project's host serves its pages only: another project's page credential, or an origin outside its relying party, is refused there", async () => {
    for (const [app, origin] of [
      [a, OWN_HOST],
      [b, "https://app.example.com"],
      [a, "https://app.example.com"],
    ] as const) {
      const res = await page(app, origin, "StartPasskeySignIn", {});
      expect({ origin, ...refusal(res) }).toEqual({ origin, status: 403, reason: "ORIGIN_NOT_ALLOWED" });
    }
  });

  it("on the shared host another project's passkey is offered by the browser, but signs nobody in", async () => {
    const c = await authFixture(server);
    const aDevice = new SoftAuthenticator({ origin: PUBLIC });
    await userWithPasskey(a, PUBLIC, aDevice);
    const start = await page(c, PUBLIC, "StartPasskeySignIn", {});
    expect(start.body.options.rpId).toBe("auth.gatehouse.example");
    const res = await page(c, PUBLIC, "FinishPasskeySignIn", {
      challenge_id: start.body.challenge_id,
      credential: aDevice.authenticate(start.body.options),
    });
    expect(refusal(res)).toEqual({ status: 401, reason: "PASSKEY_NOT_FOUND" });
    expect(res.body.access_token).toBeUndefined();
  });
});
