import type { Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import { updateProject } from "../../src/flows/projects/update-project.js";
import { addVirtualAuthenticator } from "../helpers/browser.js";
import { describeInChromium } from "../helpers/browser.js";
import {
  button,
  expectValidTokens,
  field,
  heading,
  landedWithTokens,
  PASSWORD,
  seeAlert,
  uniqueEmail,
  usePagesWorld,
  WAIT,
  type PagesProject,
} from "../helpers/pages.js";

// Two projects on one PUBLIC_URL (http://localhost:PORT), one of them with a host of its own
// (http://b.localhost:PORT, which Chromium resolves to loopback: the same server), as
// docs/passkeys.md "A host of the project's own" sets it up: among its allowed_origins and
// under its passkey_rp_id. One tab's virtual authenticator holds a passkey of each project:
// each project's page offers and accepts its own only (issue 46).

describeInChromium("hosted pages: a project's passkeys on a host of its own", () => {
  const world = usePagesWorld({ localhost: true });
  let a: PagesProject;
  let b: PagesProject;
  let ownHost: string;
  /** B's page at its own host. */
  const bUrl = (name: string) => `${ownHost}/v1/auth/${b.loginId}/${name}`;

  beforeAll(async () => {
    a = await world.project({ revealEmailExists: true });
    b = await world.project({ revealEmailExists: true });
    ownHost = `http://b.localhost:${new URL(world.publicUrl).port}`;
    const project = (await world.server.deps.db.repos.projects.getByIdForFlow(b.id))!;
    await updateProject(
      world.server.deps,
      project.organizationId,
      project.id,
      { allowedOrigins: [ownHost], passkeyRpId: "b.localhost" },
      { actor: { type: "operator", id: "test" }, ip: "", userAgent: "" },
    );
  });

  /** The passkey calls a tab makes, in order, with their status. */
  function ceremonies(page: Page): string[] {
    const seen: string[] = [];
    page.on("response", (response) => {
      const rpc = /\/(StartPasskeySignIn|FinishPasskeySignIn)$/.exec(response.url());
      if (rpc) seen.push(`${rpc[1]} ${response.status()}`);
    });
    return seen;
  }

  /** Signs up on the page at `signupUrl` and takes the offer of a passkey; answers the user id. */
  async function signUpWithPasskey(page: Page, signupUrl: string): Promise<string> {
    await page.goto(signupUrl);
    await field(page, "Email").fill(uniqueEmail("own-host"));
    await field(page, "Password").fill(PASSWORD);
    await button(page, "Create account").click();
    await button(page, "Add a passkey").click();
    await heading(page, "Save your recovery codes").waitFor();
    await button(page, "Continue").click();
    return sub(await landedWithTokens(world, page));
  }

  it("B's page on its own host neither offers nor accepts A's passkey, and signs B's user in with B's own; A's page the other way round", async () => {
    const { page } = await world.tab();
    const authenticator = await addVirtualAuthenticator(page);
    const aUser = await signUpWithPasskey(page, a.url("signup"));
    expect((await authenticator.credentials()).map((c) => c.rpId)).toEqual(["localhost"]);

    // B's sign-in page at its own host: passkeys offered (the button, the field's autofill),
    // under B's relying party, where the authenticator holds nothing.
    const calls = ceremonies(page);
    const opened = page.waitForResponse((r) => r.url().endsWith("/StartPasskeySignIn"), { timeout: WAIT });
    await page.goto(bUrl("login"));
    const start = await opened;
    expect(start.status(), await start.text()).toBe(200);
    expect((await start.json()).options.rpId).toBe("b.localhost");
    expect(await field(page, "Email").getAttribute("autocomplete")).toBe("username webauthn");
    await button(page, "Sign in with a passkey").click();
    await seeAlert(page, "The passkey request was cancelled or timed out.");
    expect(
      calls.filter((c) => c.startsWith("FinishPasskeySignIn")),
      "A's passkey was never sent to B",
    ).toEqual([]);
    expect(page.url().startsWith(ownHost)).toBe(true);

    // B's user makes a passkey on B's host: it is B's relying party's.
    const bUser = await signUpWithPasskey(page, bUrl("signup"));
    expect((await authenticator.credentials()).map((c) => c.rpId).sort()).toEqual(["b.localhost", "localhost"]);

    // Each sign-in page's autofill finds its own project's passkey and nothing else.
    await page.goto(bUrl("login"));
    const inB = await landedWithTokens(world, page);
    await expectValidTokens(b, inB);
    expect(sub(inB)).toBe(bUser);
    await page.goto(a.url("login"));
    const inA = await landedWithTokens(world, page);
    await expectValidTokens(a, inA);
    expect(sub(inA)).toBe(aUser);
  });
});

/** The access token's subject (its signature is VerifyToken's business). */
function sub(fragment: URLSearchParams): string {
  const payload = fragment.get("access_token")!.split(".")[1];
  return (JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { sub: string }).sub;
}
