import { spawn } from "node:child_process";
import { afterAll, beforeAll, expect } from "vitest";
import * as oidc from "openid-client";
import { createProject } from "../../src/flows/projects/create-project.js";
import type { Project } from "../../src/domain/account.js";
import { http, type HttpAnswer } from "./clients.js";
import { createTestClock, type TestClock } from "./clock.js";
import { WAIT_GUARD_MS } from "./patience.js";
import { closedPort } from "./ports.js";
import { seedApiKey, seedOrganization } from "./seed.js";
import { startTestServer, type TestServer } from "./server.js";

// The set-up of the OpenID Provider's tests (test/oidc): the real server on a test clock at a
// PUBLIC_URL chosen before it starts (the issuer every relying party checks), a project with a
// secret key, its organization admin's management token, and a browser stand-in (a cookie jar
// that follows the engine's redirects) for the tests that do not need Chromium.

export const PASSWORD = "a sturdy passphrase 1";
/** Where the test relying parties say they listen; nothing needs to answer there. */
export const REDIRECT_URI = "https://rp.example.com/callback";

export interface OpenidWorld {
  readonly server: TestServer;
  readonly clock: TestClock;
  readonly publicUrl: string;
  /** A new project with a secret key and its admin's management headers. */
  project(options?: { mfaRequired?: boolean }): Promise<OpenidProject>;
}

export interface OpenidProject {
  project: Project;
  issuer: string;
  key: string;
  admin: Record<string, string>;
  /** CreateOAuthClient over REST; the answer's body. */
  createClient(body: Record<string, unknown>): Promise<{ client_id: string; client_secret: string }>;
  /** A user signed up with PASSWORD; its id. */
  signUp(email: string): Promise<string>;
  /** Login over REST with the secret key: the Gatehouse access token. */
  signIn(email: string): Promise<string>;
  /** A REST call to the Authentication interface with the secret key. */
  call(method: string, path: string, body?: unknown, bearer?: string): Promise<HttpAnswer>;
  /** openid-client's configuration for a client, from the issuer's discovery document. */
  discover(clientId: string, clientSecret?: string): Promise<oidc.Configuration>;
}

/**
 * `env`: server settings beside the test defaults (OIDC_PAR, say). `host`: PUBLIC_URL's host,
 * `localhost` for the default PUBLIC_URL a newcomer's server has.
 */
export function useOpenidWorld(
  env: Record<string, string> = {},
  options: { host?: "127.0.0.1" | "localhost" } = {},
): OpenidWorld {
  const state = {} as { server: TestServer; clock: TestClock; publicUrl: string };
  beforeAll(async () => {
    state.clock = createTestClock();
    const port = await closedPort();
    state.publicUrl = `http://${options.host ?? "127.0.0.1"}:${port}`;
    state.server = await startTestServer({ PORT: String(port), PUBLIC_URL: state.publicUrl, ...env }, undefined, {
      clock: state.clock,
    });
  });
  afterAll(async () => {
    await state.server?.stop();
  });
  return {
    get server() {
      return state.server;
    },
    get clock() {
      return state.clock;
    },
    get publicUrl() {
      return state.publicUrl;
    },
    async project(options = {}) {
      const deps = state.server.deps;
      const { organization, email, password } = await seedOrganization(deps);
      const project = await createProject(deps, organization.id, {
        name: "OpenID Provider test",
        description: "",
        sendVerification: false,
        allowedOrigins: [],
        redirectUrl: "https://app.example.com/callback",
        mfaRequired: options.mfaRequired ?? false,
      });
      const { key } = await seedApiKey(deps, project);
      const login = await http(`${state.publicUrl}/v1/account/login`, { body: { email, password } });
      expect(login.status, "admin login").toBe(200);
      const admin = { authorization: `Bearer ${login.body.management_token as string}` };
      const issuer = `${state.publicUrl}/v1/auth/${project.loginId}`;
      const call = (method: string, path: string, body?: unknown, bearer?: string) =>
        http(`${state.publicUrl}${path}`, {
          method,
          headers: { "x-service-key": key, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
          body,
        });
      return {
        project,
        issuer,
        key,
        admin,
        call,
        async createClient(body) {
          const res = await http(`${state.publicUrl}/v1/oauth-clients`, {
            headers: admin,
            body: { project_id: project.id, ...body },
          });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          return res.body as { client_id: string; client_secret: string };
        },
        async signUp(email) {
          const res = await call("POST", "/v1/auth/signup", { email, password: PASSWORD });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          return res.body.user.id as string;
        },
        async signIn(email) {
          const res = await call("POST", "/v1/auth/login", { email, password: PASSWORD });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          return res.body.access_token as string;
        },
        discover(clientId, clientSecret) {
          return oidc.discovery(
            new URL(issuer),
            clientId,
            clientSecret ? { client_secret: clientSecret } : undefined,
            clientSecret ? oidc.ClientSecretBasic(clientSecret) : oidc.None(),
            { execute: [oidc.allowInsecureRequests] },
          );
        },
      };
    },
  };
}

/**
 * A browser without a screen: a cookie jar and manual redirects, so a test sees every hop the
 * engine sends it through (authorize → interaction → a hosted page, resume → the redirect URI).
 */
export class CookieBrowser {
  private readonly cookies = new Map<string, string>();

  /** `headers` go with every request: X-Forwarded-For, to stand at another address behind TRUSTED_PROXIES. */
  constructor(private readonly headers: Record<string, string> = {}) {}

  /** The Cookie header this browser would send. */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async request(
    url: string,
    init: { method?: string; json?: unknown; form?: Record<string, string> } = {},
  ): Promise<{ status: number; location: string; body: any; headers: Headers }> {
    const headers: Record<string, string> = { ...this.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    let body: string | undefined;
    if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.json);
    } else if (init.form !== undefined) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(url, {
      method: init.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
      redirect: "manual",
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const gone = value === "" || attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let answer: unknown = text;
    try {
      answer = text ? JSON.parse(text) : undefined;
    } catch {
      // HTML or empty
    }
    const location = res.headers.get("location") ?? "";
    return {
      status: res.status,
      location: location && new URL(location, url).href,
      body: answer,
      headers: res.headers,
    };
  }

  /** GETs and follows redirects until an answer that is not one, or a URL off `origin`. */
  async follow(url: string, origin: string): Promise<{ url: string; status: number; body: any; headers?: Headers }> {
    let current = url;
    for (let hop = 0; hop < 10; hop++) {
      if (new URL(current).origin !== origin) return { url: current, status: 0, body: undefined };
      const res = await this.request(current);
      if (res.status < 300 || res.status >= 400 || !res.location)
        return { url: current, status: res.status, body: res.body, headers: res.headers };
      current = res.location;
    }
    throw new Error(`more than 10 redirects from ${url}`);
  }
}

/** A relying party of another stack (test/fixtures/oidc-rp) running as a child process on loopback. */
export interface RelyingParty {
  /** Its origin, `http://127.0.0.1:<port>`; it signs in at `/login` and lands on `/callback`. */
  readonly url: string;
  readonly redirectUri: string;
  /** What it wrote, for a failure's message. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts a relying party program at a port chosen before it starts (the redirect URI its client
 * is registered with), with ISSUER, CLIENT_ID, CLIENT_SECRET and PORT and nothing else of this
 * process's environment but PATH and HOME; it must print `listening port=N` once it listens.
 */
export async function startRelyingParty(
  command: string,
  args: string[],
  options: { port: number; env: Record<string, string>; cwd?: string },
): Promise<RelyingParty> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(options.port), ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} did not start:\n${out}`)), WAIT_GUARD_MS);
    child.stdout.on("data", () => {
      if (/^listening port=\d+$/m.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code}:\n${out}`));
    });
  });
  const url = `http://127.0.0.1:${options.port}`;
  return {
    url,
    redirectUri: `${url}/callback`,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}

/**
 * The hosted sign-in page's part, over the API: the browser stands at `/login?oauth={uid}`, the
 * person signs in as `email`, and the page hands the access token to the interaction. Where the
 * browser lands next.
 */
export async function signInAtLoginPage(
  world: OpenidWorld,
  p: OpenidProject,
  browser: CookieBrowser,
  loginPage: string,
  email: string,
): Promise<{ url: string; status: number; body: any; headers?: Headers }> {
  expect(new URL(loginPage).pathname).toBe(`/v1/auth/${p.project.loginId}/login`);
  const uid = new URL(loginPage).searchParams.get("oauth");
  const done = await browser.request(`${p.issuer}/oauth/interaction/${uid}/login`, {
    json: { access_token: await p.signIn(email) },
  });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return browser.follow(done.body.redirect_to, world.publicUrl);
}

/** The consent page's part, over the API: Allow (or Deny); where the browser lands next. */
export async function answerConsentPage(
  world: OpenidWorld,
  p: OpenidProject,
  browser: CookieBrowser,
  consentPage: string,
  approve: boolean,
): Promise<{ url: string; status: number; body: any; headers?: Headers }> {
  expect(new URL(consentPage).pathname).toBe(`/v1/auth/${p.project.loginId}/consent`);
  const uid = new URL(consentPage).searchParams.get("oauth");
  const details = await browser.request(`${p.issuer}/oauth/interaction/${uid}/details`);
  expect(details.body.prompt).toBe("consent");
  const done = await browser.request(`${p.issuer}/oauth/interaction/${uid}/consent`, { json: { approve } });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return browser.follow(done.body.redirect_to, world.publicUrl);
}

/**
 * A user signing in to a relying party as a browser would: the RP's /login → authorize → the
 * hosted sign-in (done over the API) → the consent page (approved or denied) → the RP's callback.
 * Answers the RP's answer at its callback.
 */
export async function signInThroughRelyingParty(
  world: OpenidWorld,
  p: OpenidProject,
  rp: RelyingParty,
  email: string,
  options: { consent?: boolean } = {},
): Promise<{ callback: URL; status: number; body: any }> {
  const browser = new CookieBrowser();
  const toProvider = await browser.follow(`${rp.url}/login`, rp.url);
  expect(toProvider.url.startsWith(`${p.issuer}/`), `${JSON.stringify(toProvider)}\n${rp.output()}`).toBe(true);
  const atLogin = await browser.follow(toProvider.url, world.publicUrl);
  const atConsent = await signInAtLoginPage(world, p, browser, atLogin.url, email);
  const hop = await answerConsentPage(world, p, browser, atConsent.url, options.consent ?? true);
  const callback = new URL(hop.url);
  expect(callback.origin + callback.pathname).toBe(rp.redirectUri);
  const answer = await browser.request(callback.href);
  return { callback, status: answer.status, body: answer.body };
}

/**
 * Runs authorize → sign-in over the API → consent (approved unless `consent: false`) → the
 * redirect, as a browser would: the callback URL, with the PKCE verifier and state to redeem it.
 */
export async function authorize(
  world: OpenidWorld,
  p: OpenidProject,
  config: oidc.Configuration,
  email: string,
  options: { scope?: string; consent?: boolean; browser?: CookieBrowser } = {},
) {
  const browser = options.browser ?? new CookieBrowser();
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const scope = options.scope ?? "openid email profile offline_access";
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    // offline_access is granted only with prompt=consent (OpenID Connect Core 11).
    ...(scope.includes("offline_access") ? { prompt: "consent" } : {}),
  });
  let hop = await browser.follow(url.href, world.publicUrl);
  if (new URL(hop.url).pathname.endsWith("/login")) hop = await signInAtLoginPage(world, p, browser, hop.url, email);
  if (new URL(hop.url).pathname.endsWith("/consent"))
    hop = await answerConsentPage(world, p, browser, hop.url, options.consent ?? true);
  return { callback: new URL(hop.url), verifier, state, browser };
}

/** The hidden and named inputs of the HTML form with this id, or of the first form (the engine's own pages). */
export function formFields(html: string, formId?: string): { action: string; fields: Record<string, string> } {
  const id = formId ? `[^>]*id="${formId.replace(/\./g, "\\.")}"` : "";
  const form = new RegExp(`<form${id}[^>]*>([\\s\\S]*?)</form>`).exec(html);
  if (!form) throw new Error(`no form ${formId ?? ""} in:\n${html}`);
  const action = /action="([^"]*)"/.exec(form[0])?.[1] ?? "";
  const fields: Record<string, string> = {};
  for (const input of form[1].matchAll(/<input[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? "";
    if (name) fields[name] = value;
  }
  return { action: action.replace(/&amp;/g, "&"), fields };
}
