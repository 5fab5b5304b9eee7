import { beforeAll, expect, it } from "vitest";
import { describeInChromium } from "../helpers/browser.js";
import { checkState, heading, link, seeAlert, usePagesWorld, type PagesProject } from "../helpers/pages.js";

// The hosted pages' side of an OAuth authorization (`?oauth={uid}`, docs/pages.md "Signing in
// for an OAuth application") that holds without a live interaction: an id the engine does not
// know reads as an expired request, in words, on the sign-in and consent pages; a malformed one
// never reaches a page; the oauth id survives a move between pages; and only the consent page
// may show an application's logo from another https origin. The flow with a real client, the
// engine and consent is the OpenID Provider's end-to-end test.

const EXPIRED = "This sign-in request has expired. Go back to the application and start again.";

describeInChromium("hosted pages: an OAuth authorization", () => {
  const world = usePagesWorld();
  let project: PagesProject;

  beforeAll(async () => {
    project = await world.project();
  });

  it("answers a malformed oauth id in words, before any page runs", async () => {
    const res = await fetch(project.url("login", { oauth: "../../x" }));
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toContain(EXPIRED);
  });

  it("says an unknown authorization has expired, on the sign-in and consent pages", async () => {
    const { page } = await world.tab();
    await page.goto(project.url("login", { oauth: "unknown-interaction-id" }));
    await heading(page, "Sign in").waitFor();
    await seeAlert(page, EXPIRED);
    await page.goto(project.url("consent", { oauth: "unknown-interaction-id" }));
    await heading(page, "Authorize application").waitFor();
    await seeAlert(page, EXPIRED);
    await checkState(page, "oauth-expired");
    // Opened without an authorization at all: the same words.
    await page.goto(project.url("consent"));
    await seeAlert(page, EXPIRED);
  });

  it("keeps the authorization when the person moves between pages", async () => {
    const { page } = await world.tab();
    await page.goto(project.url("forgot-password", { oauth: "abc_DEF-123" }));
    const back = new URL((await link(page, "Back to sign in").getAttribute("href"))!, world.publicUrl);
    expect({ path: back.pathname, oauth: back.searchParams.get("oauth") }).toEqual({
      path: `/v1/auth/${project.loginId}/login`,
      oauth: "abc_DEF-123",
    });
  });

  it("lets only the consent page load images from any https origin (the application's logo)", async () => {
    const consent = await fetch(project.url("consent", { oauth: "abc" }));
    const login = await fetch(project.url("login", { oauth: "abc" }));
    expect(consent.headers.get("content-security-policy")).toMatch(/img-src [^;]* https:(;|$)/);
    expect(login.headers.get("content-security-policy")).not.toMatch(/https:(;|$| )/);
    expect(consent.headers.get("content-security-policy")).toContain("script-src 'self'");
  });
});
