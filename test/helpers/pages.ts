import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PNG } from "pngjs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { createProject } from "../../src/flows/projects/create-project.js";
import type { RateLimitOverrides } from "../../src/domain/rate-limits.js";
import { expectNoSeriousA11yViolations, screenshot, scrollWidth, sharedChromium } from "./browser.js";
import { http, type HttpAnswer } from "./clients.js";
import { createTestClock, type TestClock } from "./clock.js";
import { startOidcProvider, type OidcProviderHarness } from "./oidc-provider.js";
import { seedApiKey, seedOrganization } from "./seed.js";
import { startTestServer, type TestServer } from "./server.js";
import { startSmsSink, type SmsSink } from "./sms.js";
import { closedPort } from "./ports.js";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "./smtp.js";

// The set-up of the hosted pages' browser tests (test/pages): the real server on a test clock
// at a PUBLIC_URL chosen before it starts (the pages' origin, and the SSO callback a provider
// must know), SMTP and SMS sinks, an "app" on another loopback port that the project's
// redirect_url points at, and Chromium. Every tab a test opens is watched: a console error
// about the Content-Security-Policy, or a page of Gatehouse's served without the policy, fails
// the test in afterEach.
//
// The getters read what beforeAll started: use them in hooks and tests, never destructure.

export const PASSWORD = "a sturdy passphrase 1";
/** Every wait of a test is bounded by this. */
export const WAIT = 10_000;

export interface PagesProject {
  id: string;
  loginId: string;
  displayName: string;
  /** A secret key with all scopes, for REST calls a test makes beside the browser. */
  key: string;
  /** `{PUBLIC_URL}/v1/auth/{login_id}/{name}` with an optional query. */
  url(name: string, query?: Record<string, string>): string;
  /** A REST call to the Authentication interface with the secret key. */
  call(method: string, path: string, body?: unknown, bearer?: string): Promise<HttpAnswer>;
  /** Management-token headers of the project's organization admin. */
  admin(): Promise<Record<string, string>>;
  /** The admin's email and password (for the console pages). */
  adminLogin: { email: string; password: string };
}

export interface ProjectOptions {
  mfaRequired?: boolean;
  sendVerification?: boolean;
  rateLimits?: RateLimitOverrides;
  displayName?: string;
  /** Signup answers EMAIL_EXISTS and signs in at once, as before confirmation by email (default false). */
  revealEmailExists?: boolean;
  /** The project's bot_protection: its forms that send show the ALTCHA widget. */
  botProtection?: boolean;
  /** Signup controls (API.md section 7); absent: open to every method. */
  signups?: "open" | "closed" | "allowlist";
  signupEmailDomains?: string[];
}

export interface Tab {
  page: Page;
  context: BrowserContext;
  /** Console messages of type error, in order. */
  consoleErrors: string[];
  /** Gatehouse's HTML documents this tab loaded: URL and Content-Security-Policy. */
  documents: Array<{ url: string; status: number; csp: string }>;
}

export interface PagesWorld {
  readonly clock: TestClock;
  readonly server: TestServer;
  readonly smtp: SmtpSink;
  readonly sms: SmsSink;
  readonly idp: OidcProviderHarness;
  readonly browser: Browser;
  /** PUBLIC_URL: the origin the pages are served from. */
  readonly publicUrl: string;
  /** The app's `/callback`: every project's redirect_url. */
  readonly callbackUrl: string;
  /** The app's logo, a loopback http URL (allowed for logo_url). */
  readonly logoUrl: string;
  project(options?: ProjectOptions): Promise<PagesProject>;
  /**
   * A fresh browser context and page (1280×800), watched until the test ends. Its browser
   * speaks `locale` (Accept-Language, navigator.language): en-US unless a test asks for another,
   * so the pages' words do not depend on the machine's.
   */
  tab(options?: { locale?: string }): Promise<Tab>;
  /** An SSO connection of `project` to the test provider, named `name`; answers its id. */
  connectSso(project: PagesProject, name: string): Promise<string>;
}

export interface WorldOptions {
  sso?: boolean;
  /**
   * Serve the pages at http://localhost:PORT instead of 127.0.0.1: a passkey's relying party
   * is a domain name, never an IP address, and plain http is allowed for it on localhost only
   * (src/domain/relying-party.ts). The server still listens on 127.0.0.1, which Chromium
   * reaches for localhost.
   */
  localhost?: boolean;
  /** false: no SMS_WEBHOOK_URL, as a server without an SMS transport (the SMS sink still runs, unused). */
  sms?: boolean;
}

export function usePagesWorld(options: WorldOptions = {}): PagesWorld {
  const clock = createTestClock();
  const state: Partial<{
    server: TestServer;
    smtp: SmtpSink;
    sms: SmsSink;
    idp: OidcProviderHarness;
    browser: Browser;
    app: Server;
    appOrigin: string;
    publicUrl: string;
  }> = {};
  const open: Tab[] = [];
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`usePagesWorld: ${what} is not started (read it in a hook or test)`);
    return value;
  };

  beforeAll(async () => {
    state.app = await startApp();
    state.appOrigin = `http://127.0.0.1:${(state.app.address() as AddressInfo).port}`;
    state.smtp = await startSmtpSink();
    state.sms = await startSmsSink();
    if (options.sso) state.idp = await startOidcProvider();
    // The port is chosen first because PUBLIC_URL must name it: the pages' same-origin check
    // and the SSO callback registered at the provider both read it.
    const port = await closedPort();
    state.publicUrl = `http://${options.localhost ? "localhost" : "127.0.0.1"}:${port}`;
    state.server = await startTestServer(
      // Bot challenges a browser solves in a moment: the work is not what these tests are about.
      {
        PORT: String(port),
        PUBLIC_URL: state.publicUrl,
        SMTP_URL: state.smtp.url,
        ...(options.sms !== false && { SMS_WEBHOOK_URL: state.sms.url }),
        MAIL_RETRY_MS: "200",
        BOT_CHALLENGE_MAX_NUMBER: "2000",
        // Hooks and webhooks of the tests answer on loopback.
        OUTBOUND_ALLOW_HOSTS: "127.0.0.1/32",
      },
      undefined,
      { clock },
    );
    state.browser = await sharedChromium();
  });

  afterEach(async () => {
    const tabs = open.splice(0);
    const problems: string[] = [];
    for (const tab of tabs) {
      problems.push(
        ...tab.consoleErrors
          .filter((text) => /Content.Security.Policy|Refused to/i.test(text))
          .map((text) => `console: ${text}`),
      );
      for (const doc of tab.documents) {
        if (!doc.csp.includes("script-src 'self'") || !doc.csp.includes("frame-ancestors 'none'"))
          problems.push(`${doc.status} ${doc.url} has CSP "${doc.csp}"`);
      }
      await tab.context.close();
    }
    expect(problems, "CSP problems in the browser").toEqual([]);
  });

  afterAll(async () => {
    await state.server?.stop();
    await state.idp?.close();
    await state.sms?.close();
    await state.smtp?.close();
    await new Promise((resolve) => state.app?.close(resolve));
  });

  let projects = 0;
  const world: PagesWorld = {
    clock,
    get server() {
      return ready(state.server, "the server");
    },
    get smtp() {
      return ready(state.smtp, "the SMTP sink");
    },
    get sms() {
      return ready(state.sms, "the SMS sink");
    },
    get idp() {
      return ready(state.idp, "the OpenID provider (ask for { sso: true })");
    },
    get browser() {
      return ready(state.browser, "the browser");
    },
    get publicUrl() {
      return ready(state.publicUrl, "the server");
    },
    get callbackUrl() {
      return `${ready(state.appOrigin, "the app")}/callback`;
    },
    get logoUrl() {
      return `${ready(state.appOrigin, "the app")}/logo.png`;
    },

    async project(settings = {}) {
      const server = world.server;
      const org = await seedOrganization(server.deps);
      const displayName = settings.displayName ?? `Acme Notes ${++projects}`;
      const project = await createProject(server.deps, org.organization.id, {
        name: `Pages test ${projects}`,
        description: "",
        mfaRequired: settings.mfaRequired ?? false,
        sendVerification: settings.sendVerification ?? false,
        allowedOrigins: [],
        redirectUrl: world.callbackUrl,
        rateLimits: settings.rateLimits,
        displayName,
        logoUrl: world.logoUrl,
        accentColor: "#1d4ed8",
        revealEmailExists: settings.revealEmailExists,
        botProtection: settings.botProtection,
        signups: settings.signups,
        signupEmailDomains: settings.signupEmailDomains,
      });
      const { key } = await seedApiKey(server.deps, project);
      const base = `${world.publicUrl}/v1/auth/${project.loginId}`;
      return {
        id: project.id,
        loginId: project.loginId,
        displayName,
        key,
        adminLogin: { email: org.email, password: org.password },
        url: (name, query) => `${base}/${name}${query ? `?${new URLSearchParams(query).toString()}` : ""}`,
        call: (method, path, body, bearer) =>
          http(`${server.url}${path}`, {
            method,
            headers: { "x-service-key": key, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
            body: method === "GET" || method === "DELETE" ? undefined : (body ?? {}),
          }),
        async admin() {
          const login = await http(`${server.url}/v1/account/login`, {
            body: { email: org.email, password: org.password },
          });
          if (login.status !== 200)
            throw new Error(`admin login failed: ${login.status} ${JSON.stringify(login.body)}`);
          return { authorization: `Bearer ${login.body.management_token}` };
        },
      };
    },

    async tab(options = {}) {
      const context = await world.browser.newContext({
        viewport: { width: 1280, height: 800 },
        locale: options.locale ?? "en-US",
      });
      context.setDefaultTimeout(WAIT);
      context.setDefaultNavigationTimeout(WAIT);
      const page = await context.newPage();
      const tab: Tab = { page, context, consoleErrors: [], documents: [] };
      page.on("console", (message) => {
        if (message.type() === "error") tab.consoleErrors.push(message.text());
      });
      page.on("response", (response) => {
        const html = (response.headers()["content-type"] ?? "").startsWith("text/html");
        if (
          response.request().resourceType() === "document" &&
          html &&
          response.url().startsWith(`${world.publicUrl}/`)
        ) {
          tab.documents.push({
            url: response.url(),
            status: response.status(),
            csp: response.headers()["content-security-policy"] ?? "",
          });
        }
      });
      open.push(tab);
      return tab;
    },

    async connectSso(project, name) {
      const clientId = `client-${randomBytes(6).toString("hex")}`;
      const clientSecret = randomBytes(24).toString("base64url");
      world.idp.addClient({
        clientId,
        clientSecret,
        redirectUris: [`${world.publicUrl}/v1/auth/sso/callback`],
        tokenEndpointAuthMethod: "client_secret_basic",
      });
      const res = await http(`${world.server.url}/v1/projects/${project.id}/sso-connections`, {
        headers: await project.admin(),
        body: {
          name,
          issuer: world.idp.issuer,
          client_id: clientId,
          client_secret: clientSecret,
          trust_emails: false,
          scopes: [],
        },
      });
      if (res.status !== 200) throw new Error(`CreateSsoConnection failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    },
  };
  return world;
}

/** The app the project sends people back to: a page with no script, so its fragment stays put. */
async function startApp(): Promise<Server> {
  const logo = new PNG({ width: 48, height: 48 });
  for (let i = 0; i < logo.data.length; i += 4) logo.data.set([0x1d, 0x4e, 0xd8, 0xff], i);
  const png = PNG.sync.write(logo);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://app").pathname;
    if (path === "/logo.png") return void res.writeHead(200, { "content-type": "image/png" }).end(png);
    if (path === "/callback") {
      return void res
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The app</title></head><body><main><h1>Back at the app</h1></main></body></html>`,
        );
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

// What the tests do on a page, by the accessible names of the contract (pages-contract.md).

export const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
export const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });
export const link = (page: Page, name: string) => page.getByRole("link", { name, exact: true });
export const heading = (page: Page, name: string) => page.getByRole("heading", { name, exact: true });

/** Waits until `text` is visible somewhere on the page. */
export async function see(page: Page, text: string | RegExp): Promise<void> {
  await page.getByText(text).first().waitFor({ state: "visible", timeout: WAIT });
}

/** Waits for a role="alert" region saying `text`, and checks the page is no raw JSON body. */
export async function seeAlert(page: Page, text: string | RegExp): Promise<void> {
  await page.getByRole("alert").filter({ hasText: text }).first().waitFor({ state: "visible", timeout: WAIT });
  await expectNoJson(page);
}

/** A person never reads a JSON error body: no `{"…"` and no reason slug on the page. */
export async function expectNoJson(page: Page): Promise<void> {
  const text = await page.locator("body").innerText({ timeout: WAIT });
  expect(text).not.toMatch(/^\s*[{[]/);
  expect(text).not.toMatch(/"(reason|code|message)"\s*:/);
}

/** Waits until the browser is at the app's callback with tokens in the fragment; answers them. */
export async function landedWithTokens(world: PagesWorld, page: Page): Promise<URLSearchParams> {
  await page.waitForURL((url) => url.href.startsWith(`${world.callbackUrl}#`) && url.hash.includes("access_token="), {
    timeout: WAIT,
  });
  const landed = new URL(page.url());
  expect(landed.search, "nothing secret in the query").toBe("");
  const fragment = new URLSearchParams(landed.hash.slice(1));
  expect(fragment.get("token_type")).toBe("Bearer");
  expect(Number(fragment.get("expires_in"))).toBeGreaterThan(0);
  expect(fragment.get("refresh_token")).toBeTruthy();
  return fragment;
}

/** The tokens of the fragment are real: VerifyToken with the secret key says valid. */
export async function expectValidTokens(project: PagesProject, fragment: URLSearchParams): Promise<void> {
  const verified = await project.call("POST", "/v1/auth/token/verify", { token: fragment.get("access_token") });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  expect(verified.body.valid).toBe(true);
}

/** The first link in a mail's text that carries a token. */
export function linkIn(text: string): string {
  const found = text.match(/https?:\/\/[^\s<>"]+/g)?.find((url) => url.includes("token="));
  if (!found) throw new Error(`no link with a token in the mail:\n${text}`);
  return found;
}

/** Signs a user up over REST (the secret key); answers the email. */
export async function signupOverRest(project: PagesProject, email = uniqueEmail("rest")): Promise<string> {
  const res = await project.call("POST", "/v1/auth/signup", { email, password: PASSWORD });
  if (res.status !== 200) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  return email;
}

let emails = 0;
export function uniqueEmail(tag: string): string {
  return `${tag}-${++emails}-${Date.now().toString(36)}@example.com`;
}

/** Call before the action that sends a mail to `to`; the answer waits for that mail. */
export function nextMailTo(world: PagesWorld, to: string): () => Promise<ReceivedMail> {
  const nth = world.smtp.messages.filter((m) => m.to.some((r) => r.toLowerCase() === to.toLowerCase())).length + 1;
  return () => world.smtp.waitFor(to, { nth, timeoutMs: WAIT });
}

/**
 * A state a page shows, at 1280 and at 360 px wide: screenshots (`<name>-1280`, `<name>-360`),
 * no serious accessibility violation at either width, and no sideways scroll on the phone.
 */
export async function checkState(page: Page, name: string): Promise<void> {
  await screenshot(page, `${name}-1280`);
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 360, height: 740 });
  await screenshot(page, `${name}-360`);
  // What a phone shows once the page has laid itself out again: a chart redraws for the new
  // width a frame or more after the resize (its ResizeObserver), so the width is read until it
  // fits or the wait runs out; a page that really scrolls sideways still fails here.
  await expect
    .poll(() => scrollWidth(page), { message: `${name} scrolls sideways at 360 px`, timeout: WAIT })
    .toBeLessThanOrEqual(360);
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 1280, height: 800 });
}
