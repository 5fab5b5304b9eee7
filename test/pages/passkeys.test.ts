import type { Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import { addVirtualAuthenticator, describeInChromium, type VirtualCredential } from "../helpers/browser.js";
import {
  button,
  checkState,
  expectValidTokens,
  field,
  heading,
  landedWithTokens,
  link,
  PASSWORD,
  see,
  seeAlert,
  signupOverRest,
  uniqueEmail,
  usePagesWorld,
  WAIT,
  type PagesProject,
} from "../helpers/pages.js";

// Passkeys on the hosted pages, with Chromium's DevTools virtual authenticator standing in for
// the device: a platform authenticator with resident keys whose person is always present, and
// whose user verification succeeds, fails, or goes unreported as the test says. The pages are
// served at http://localhost:PORT (a relying party is a domain name, and http is allowed on
// localhost). The passkey the enrollment test makes moves to later tests' tabs with its private
// key and its sign counter, which must keep growing. The virtual authenticator answers an
// autofill (conditional) request as soon as it reaches it, with no list to pick from: a test of
// a button adds its passkey once the page's autofill request is waiting with nothing to offer.

describeInChromium("hosted pages: passkeys", () => {
  const world = usePagesWorld({ localhost: true });
  /** mfa_required: a password sign-in without a second step enrolls one. */
  let required: PagesProject;
  /** reveal_email_exists: a sign-up signs in at once, and is offered a passkey. */
  let open: PagesProject;
  /** A user of `required` who enrolled a passkey as the second step, and that passkey. */
  const enrolled = { email: "", credential: undefined as VirtualCredential | undefined, refreshToken: "" };

  let copies = 0;
  /**
   * The enrolled passkey for another tab's authenticator. Its sign counter starts above every
   * earlier copy's: the server refuses a device-bound passkey whose counter does not grow, as a
   * cloned one would, and no tab signs a thousand times.
   */
  function copyOfEnrolledPasskey(): VirtualCredential {
    expect(enrolled.credential, "the enrollment test made the passkey").toBeDefined();
    return { ...enrolled.credential!, signCount: enrolled.credential!.signCount + 1000 * ++copies };
  }

  beforeAll(async () => {
    required = await world.project({ mfaRequired: true });
    open = await world.project({ revealEmailExists: true });
    enrolled.email = await signupOverRest(required);
  });

  async function signInWithPassword(page: Page, project: PagesProject, email: string): Promise<void> {
    await page.goto(project.url("login"));
    await field(page, "Email").fill(email);
    await field(page, "Password").fill(PASSWORD);
    await button(page, "Sign in").click();
  }

  /** A tab whose authenticator holds the enrolled user's passkey (a copy of it) from the start. */
  async function tabWithEnrolledPasskey(userVerification?: "verifies" | "fails") {
    const tab = await world.tab();
    const authenticator = await addVirtualAuthenticator(tab.page, { userVerification });
    await authenticator.add(copyOfEnrolledPasskey());
    return { ...tab, authenticator };
  }

  /**
   * The calls of the passkey ceremonies a tab makes, in order (`Start`/`Finish` and the RPC's
   * status), to tell a button's ceremony from the autofill one.
   */
  function ceremonies(page: Page): string[] {
    const seen: string[] = [];
    page.on("response", (response) => {
      const rpc = /\/(StartPasskeySignIn|FinishPasskeySignIn)$/.exec(response.url());
      if (rpc) seen.push(`${rpc[1]} ${response.status()}`);
    });
    return seen;
  }

  /**
   * Opens the sign-in page and waits until its autofill request has its options. Chromium's
   * virtual authenticator answers a conditional request at once with a passkey it holds, and
   * one that held none when the request reached it stays unanswered: a passkey added after
   * this is for the buttons only.
   */
  async function openLoginWithAutofill(page: Page, url: string): Promise<void> {
    const opened = page.waitForResponse((r) => r.url().endsWith("/StartPasskeySignIn"), { timeout: WAIT });
    await page.goto(url);
    expect((await opened).status()).toBe(200);
  }

  it("an mfa_required project's enrollment: 'Use a passkey instead' registers one, shows the recovery codes once, then lands with tokens", async () => {
    const { page } = await world.tab();
    const authenticator = await addVirtualAuthenticator(page);
    await signInWithPassword(page, required, enrolled.email);
    await heading(page, "Set up two-step verification").waitFor();
    await button(page, "Use a passkey instead").waitFor();
    await checkState(page, "passkey-enroll");
    await button(page, "Use a passkey instead").click();

    await heading(page, "Save your recovery codes").waitFor();
    await see(page, "If you lose your passkey, each of these codes lets you sign in once.");
    const codes = (await page.locator("main").innerText()).match(/\b[0-9a-z]{5}-[0-9a-z]{5}\b/g) ?? [];
    expect(new Set(codes).size).toBe(10);
    const held = await authenticator.credentials();
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ rpId: "localhost", isResidentCredential: true });
    await button(page, "Continue").click();

    const fragment = await landedWithTokens(world, page);
    await expectValidTokens(required, fragment);
    // The passkey is the user's: the authenticator holds the user id as its user handle.
    const { sub } = claims(fragment);
    expect(Buffer.from(held[0].userHandle!, "base64").toString("utf8")).toBe(sub);
    const listed = await required.call("GET", `/v1/auth/passkeys?user_id=${sub}`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    enrolled.credential = held[0];
    enrolled.refreshToken = fragment.get("refresh_token")!;
  });

  it("signs out, then 'Sign in with a passkey' (discoverable) signs in with no second step asked: its user verification is the second factor", async () => {
    const copy = copyOfEnrolledPasskey();
    const { page } = await world.tab();
    const authenticator = await addVirtualAuthenticator(page);
    const calls = ceremonies(page);
    await page.goto(`${required.url("logout")}#refresh_token=${encodeURIComponent(enrolled.refreshToken)}`);
    await see(page, "You are signed out.");
    const opened = page.waitForResponse((r) => r.url().endsWith("/StartPasskeySignIn"), { timeout: WAIT });
    await link(page, "Sign in again").click();
    expect((await opened).status()).toBe(200);
    await button(page, "Sign in with a passkey").waitFor();
    // The field offers passkeys in its autofill (its request reached an authenticator with none).
    expect(await field(page, "Email").getAttribute("autocomplete")).toBe("username webauthn");
    await checkState(page, "passkey-login");
    // The passkey arrives once the autofill request is waiting, so the button's ceremony is the one that answers.
    await authenticator.add(copy);
    await button(page, "Sign in with a passkey").click();

    const fragment = await landedWithTokens(world, page);
    await expectValidTokens(required, fragment);
    expect(claims(fragment).amr).toEqual(expect.arrayContaining(["hwk", "user"]));
    expect(calls).toEqual(["StartPasskeySignIn 200", "StartPasskeySignIn 200", "FinishPasskeySignIn 200"]);
    expect((await authenticator.credentials())[0].signCount).toBeGreaterThan(copy.signCount);
  });

  it("autofill: the Email field offers the passkey, and picking it signs in with no press", async () => {
    const { page } = await tabWithEnrolledPasskey();
    const calls = ceremonies(page);
    // The page opens the request and puts the focus in the field, where a browser lists the
    // passkeys; the virtual authenticator picks the one it holds without a list to click in,
    // so the page may be gone before a test could touch the field.
    await page.goto(required.url("login"));

    const fragment = await landedWithTokens(world, page);
    await expectValidTokens(required, fragment);
    expect(claims(fragment).amr).toEqual(expect.arrayContaining(["hwk", "user"]));
    expect(calls).toEqual(["StartPasskeySignIn 200", "FinishPasskeySignIn 200"]);
  });

  it("a password sign-in of a user with a passkey: the MFA step offers 'Use a passkey', which finishes it", async () => {
    const copy = copyOfEnrolledPasskey();
    const { page } = await world.tab();
    const authenticator = await addVirtualAuthenticator(page);
    await openLoginWithAutofill(page, required.url("login"));
    await field(page, "Email").fill(enrolled.email);
    await field(page, "Password").fill(PASSWORD);
    await button(page, "Sign in").click();
    await heading(page, "Two-step verification").waitFor();
    await see(page, "Use your passkey to finish signing in.");
    // The user has no authenticator app: no code field, and the recovery codes stay an option.
    expect(await field(page, "Authentication code").count()).toBe(0);
    await button(page, "Use a recovery code").waitFor();
    await checkState(page, "passkey-mfa");
    await authenticator.add(copy);
    await button(page, "Use a passkey").click();

    const fragment = await landedWithTokens(world, page);
    await expectValidTokens(required, fragment);
    expect(claims(fragment).amr).toEqual(expect.arrayContaining(["pwd", "hwk"]));
  });

  it("a passkey that does not verify the user, for a user with no other second step, is refused in words; the password and the passkey still sign in together", async () => {
    const email = await signupOverRest(required);
    const { page } = await world.tab();
    await addVirtualAuthenticator(page, { userVerification: "unreported" });
    await signInWithPassword(page, required, email);
    await button(page, "Use a passkey instead").click();
    await button(page, "Continue").click();
    await landedWithTokens(world, page);

    const calls = ceremonies(page);
    const words =
      "That passkey could not be verified. Try again with a passkey that asks for your PIN, fingerprint or face, or sign in another way.";
    // Autofill answers with it at once, and the sign-in is refused: said once, not tried again.
    await page.goto(required.url("login"));
    await seeAlert(page, words);
    const refused = page.waitForResponse((r) => r.url().endsWith("/FinishPasskeySignIn"), { timeout: WAIT });
    await button(page, "Sign in with a passkey").click();
    expect((await refused).status()).toBe(401);
    await seeAlert(page, words);
    await checkState(page, "passkey-error-unverified");
    expect(calls.filter((c) => c.startsWith("FinishPasskeySignIn")).every((c) => c.endsWith(" 401"))).toBe(true);

    await field(page, "Email").fill(email);
    await field(page, "Password").fill(PASSWORD);
    await button(page, "Sign in").click();
    await button(page, "Use a passkey").click();
    const fragment = await landedWithTokens(world, page);
    await expectValidTokens(required, fragment);
    expect(claims(fragment).amr).toEqual(expect.arrayContaining(["pwd", "hwk"]));
  });

  it("a passkey request the person does not complete: autofill's ends quietly, the button's says so in words", async () => {
    const { page } = await tabWithEnrolledPasskey("fails");
    await openLoginWithAutofill(page, required.url("login"));
    const alert = page.locator("#login-error");
    // Nothing to wait for when nothing happens: a while for the refusal to come back, then no words.
    await page.waitForTimeout(1_000);
    expect(await alert.innerText()).toBe("");
    await button(page, "Sign in with a passkey").click();
    await seeAlert(page, "The passkey request was cancelled or timed out.");
    await checkState(page, "passkey-error-cancelled");
    // The form still works: the password leads to the second step.
    await field(page, "Email").fill(enrolled.email);
    await field(page, "Password").fill(PASSWORD);
    await button(page, "Sign in").click();
    await heading(page, "Two-step verification").waitFor();
  });

  it("after a sign-up that signs in, 'Add a passkey' registers one with the new access token, shows the recovery codes, then lands", async () => {
    const { page } = await world.tab();
    const authenticator = await addVirtualAuthenticator(page);
    await page.goto(open.url("signup"));
    await field(page, "Email").fill(uniqueEmail("offer"));
    await field(page, "Password").fill(PASSWORD);
    await button(page, "Create account").click();
    await heading(page, "Add a passkey").waitFor();
    await button(page, "Not now").waitFor();
    await checkState(page, "passkey-offer");
    // The page credential acting as the new user (Authorization: Bearer), not as a key.
    const started = page.waitForResponse((r) => r.url().endsWith("/StartPasskeyRegistration"), { timeout: WAIT });
    await button(page, "Add a passkey").click();
    const start = await started;
    expect(start.status(), await start.text()).toBe(200);
    expect(start.request().headers()["authorization"]).toMatch(/^Bearer ey/);

    await heading(page, "Save your recovery codes").waitFor();
    expect(await authenticator.credentials()).toHaveLength(1);
    await button(page, "Continue").click();
    const fragment = await landedWithTokens(world, page);
    await expectValidTokens(open, fragment);
    const listed = await open.call("GET", `/v1/auth/passkeys?user_id=${claims(fragment).sub}`);
    expect(listed.body.data, JSON.stringify(listed.body)).toHaveLength(1);
  });

  it("after a sign-up, 'Not now' hands the tokens over at once and makes nothing", async () => {
    const { page } = await world.tab();
    const authenticator = await addVirtualAuthenticator(page);
    await page.goto(open.url("signup"));
    await field(page, "Email").fill(uniqueEmail("later"));
    await field(page, "Password").fill(PASSWORD);
    await button(page, "Create account").click();
    await button(page, "Not now").click();
    await expectValidTokens(open, await landedWithTokens(world, page));
    expect(await authenticator.credentials()).toHaveLength(0);
  });

  it("the security page, opened with #access_token=…: takes the token out of the address, then adds, renames and deletes passkeys", async () => {
    const email = await signupOverRest(open);
    const login = await open.call("POST", "/v1/auth/login", { email, password: PASSWORD });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const userId = login.body.user.id as string;
    const { page } = await world.tab();
    const authenticator = await addVirtualAuthenticator(page);
    const listed = page.waitForResponse((r) => r.url().endsWith("/ListPasskeys"), { timeout: WAIT });
    await page.goto(`${open.url("security")}#access_token=${encodeURIComponent(login.body.access_token)}`);
    const list = await listed;
    expect(list.status(), await list.text()).toBe(200);
    await see(page, "You have no passkeys yet.");
    expect(new URL(page.url()).hash, "the token is gone from the address bar").toBe("");
    await checkState(page, "security-empty");

    await field(page, "Passkey name").fill("Work laptop");
    await button(page, "Add a passkey").click();
    // The user's first second step: its recovery codes, once, before the list.
    await heading(page, "Save your recovery codes").waitFor();
    await button(page, "Continue").click();
    await see(page, "Passkey added.");
    await page.getByRole("listitem").filter({ hasText: "Work laptop" }).waitFor();
    await see(page, /never used · not synced: on one device only/);
    expect(await authenticator.credentials()).toHaveLength(1);
    await checkState(page, "security-list");

    await button(page, "Rename Work laptop").click();
    await field(page, "New name").fill("Home laptop");
    await checkState(page, "security-rename");
    await button(page, "Save").click();
    await see(page, "Passkey renamed.");
    await page.getByRole("listitem").filter({ hasText: "Home laptop" }).waitFor();
    const renamed = await open.call("GET", `/v1/auth/passkeys?user_id=${userId}`);
    expect(renamed.body.data.map((p: { name: string }) => p.name)).toEqual(["Home laptop"]);

    await button(page, "Delete Home laptop").click();
    await button(page, "Delete passkey").click();
    await see(page, "Passkey deleted.");
    await see(page, "You have no passkeys yet.");
    const deleted = await open.call("GET", `/v1/auth/passkeys?user_id=${userId}`);
    expect(deleted.body.data).toEqual([]);
  });

  it("the security page without a token says the application must open it", async () => {
    const { page } = await world.tab();
    await page.goto(open.url("security"));
    await seeAlert(page, "Go back to the application and open this page from there.");
    await checkState(page, "security-no-token");
  });
});

/** The access token's claims (its signature is VerifyToken's business). */
function claims(fragment: URLSearchParams): { sub: string; amr: string[] } {
  const payload = fragment.get("access_token")!.split(".")[1];
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
}
