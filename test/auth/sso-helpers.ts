import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect } from "vitest";
import type { Logger } from "../../src/log.js";
import { http, type HttpAnswer } from "../helpers/clients.js";
import { useMessagingServer, type MessagingServer } from "../helpers/messaging-server.js";
import { startOidcProvider, type OidcProviderHarness, type SignInOptions } from "../helpers/oidc-provider.js";
import { authFixture, type AuthFixture } from "./helpers.js";

// The set-up of the SSO tests: the real server on a test clock with a fixed PUBLIC_URL (so its
// callback can be registered at the provider), and a real OpenID provider on loopback
// (test/helpers/oidc-provider.ts). Connections are made over the Account API; a sign-in goes
// SsoAuthorize → the provider's login and consent → Gatehouse's callback, as a browser would.

export const PUBLIC_URL = "https://gatehouse.test";
export const CALLBACK_URL = `${PUBLIC_URL}/v1/auth/sso/callback`;

/**
 * The configuration of every server the SSO tests sign in through: its PUBLIC_URL, and the
 * loopback address the test providers (oidc-provider and the stand-ins, all on 127.0.0.1 over
 * plain http) answer on, which only OUTBOUND_ALLOW_HOSTS opens to the server's requests, as it
 * would a provider on a deployment's own network.
 */
export const SSO_SERVER_ENV = { PUBLIC_URL, OUTBOUND_ALLOW_HOSTS: "127.0.0.1/32" };

/** What Gatehouse's callback answered. */
export interface CallbackAnswer {
  status: number;
  /** The Location of a redirect. */
  location?: string;
  /** Its fragment's fields (tokens, a challenge, or an error). */
  fragment: URLSearchParams;
  /** Its query's fields (the handover code). */
  query: URLSearchParams;
  /** The page, when there was no redirect. */
  body: string;
}

export interface SsoWorld {
  readonly ctx: MessagingServer;
  readonly idp: OidcProviderHarness;
  /** A client at the provider and a Gatehouse connection for it; answers the connection id. */
  connect(
    app: AuthFixture,
    options?: { trustEmails?: boolean; scopes?: string[]; clientSecret?: string },
  ): Promise<string>;
  /** SsoAuthorize, the provider's sign-in as `accountId`, then Gatehouse's callback. */
  signIn(
    app: AuthFixture,
    connectionId: string,
    accountId: string,
    options?: SignInOptions & { redirectUrl?: string; codeChallenge?: string },
  ): Promise<CallbackAnswer>;
  /** GETs Gatehouse's callback at the URL the provider redirected the browser to. */
  callback(providerRedirect: string): Promise<CallbackAnswer>;
  /** CreateSsoConnection over REST as the project's admin, for any provider; the answer as it came. */
  createConnection(app: AuthFixture, body: Record<string, unknown>): Promise<HttpAnswer>;
  /**
   * A sign-in through a provider stand-in that signs in the user `?login=` names at once
   * (test/helpers' GitHub and Microsoft stand-ins): SsoAuthorize, the stand-in's redirect, then
   * Gatehouse's callback. Answers the authorization URL as sent and the callback's answer.
   */
  signInAt(app: AuthFixture, connectionId: string, login: string): Promise<{ authorize: URL; answer: CallbackAnswer }>;
}

export function useSsoWorld(
  options: { sms?: boolean; smtp?: boolean; logger?: Logger; env?: Record<string, string> } = {},
): SsoWorld {
  const ctx = useMessagingServer({
    sms: options.sms,
    smtp: options.smtp,
    logger: options.logger,
    env: { ...SSO_SERVER_ENV, ...options.env },
  });
  let idp: OidcProviderHarness | undefined;
  beforeAll(async () => {
    idp = await startOidcProvider();
  });
  afterAll(async () => {
    await idp?.close();
  });
  const provider = () => {
    if (!idp) throw new Error("useSsoWorld: the provider is not started (use it in a hook or test)");
    return idp;
  };
  let clients = 0;

  const world: SsoWorld = {
    ctx,
    get idp() {
      return provider();
    },
    async connect(app, connectOptions = {}) {
      const clientId = `client-${++clients}`;
      const clientSecret = connectOptions.clientSecret ?? randomBytes(24).toString("base64url");
      provider().addClient({
        clientId,
        clientSecret,
        redirectUris: [CALLBACK_URL],
        tokenEndpointAuthMethod: "client_secret_basic",
      });
      const res = await http(`${ctx.server.url}/v1/projects/${app.projectId}/sso-connections`, {
        headers: await app.admin(),
        body: {
          name: "Test IdP",
          issuer: provider().issuer,
          client_id: clientId,
          client_secret: clientSecret,
          trust_emails: connectOptions.trustEmails ?? false,
          scopes: connectOptions.scopes ?? [],
        },
      });
      if (res.status !== 200) throw new Error(`CreateSsoConnection failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    },
    async signIn(app, connectionId, accountId, signInOptions = {}) {
      const start = await app.call("POST", "/v1/auth/sso/authorize", {
        connection_id: connectionId,
        redirect_url: signInOptions.redirectUrl ?? "",
        code_challenge: signInOptions.codeChallenge ?? "",
      });
      if (start.status !== 200) throw new Error(`SsoAuthorize failed: ${start.status} ${JSON.stringify(start.body)}`);
      return world.callback(await provider().signIn(start.body.authorization_url, accountId, signInOptions));
    },
    createConnection: async (app, body) =>
      http(`${ctx.server.url}/v1/projects/${app.projectId}/sso-connections`, { headers: await app.admin(), body }),
    async signInAt(app, connectionId, login) {
      const start = await app.call("POST", "/v1/auth/sso/authorize", { connection_id: connectionId });
      expect(start.status, JSON.stringify(start.body)).toBe(200);
      const authorize = new URL(start.body.authorization_url);
      authorize.searchParams.set("login", login);
      const res = await fetch(authorize, { redirect: "manual", signal: AbortSignal.timeout(10_000) });
      expect(res.status, await res.clone().text()).toBe(302);
      return { authorize, answer: await world.callback(res.headers.get("location")!) };
    },
    async callback(providerRedirect) {
      const target = new URL(providerRedirect);
      const res = await fetch(`${ctx.server.url}${target.pathname}${target.search}`, {
        redirect: "manual",
        signal: AbortSignal.timeout(10_000),
      });
      const location = res.headers.get("location") ?? undefined;
      const landed = location ? new URL(location) : undefined;
      return {
        status: res.status,
        location,
        fragment: new URLSearchParams(landed?.hash.slice(1) ?? ""),
        query: landed?.searchParams ?? new URLSearchParams(),
        body: await res.text(),
      };
    },
  };
  return world;
}

export interface SsoApp extends SsoWorld {
  /** A project of its own (authFixture) on the world's server. */
  readonly app: AuthFixture;
  /** That project's connection to the provider (world.connect with no options). */
  readonly connection: string;
}

/**
 * The set-up most SSO tests share: useSsoWorld, and a beforeAll that makes one project and
 * one connection to the provider for it. Call it where useSsoWorld would be called.
 *
 * `ctx` exists at once and may be destructured. `idp`, `app` and `connection` are getters over
 * what beforeAll started: read them through the object in hooks and tests (`world.app`), never
 * destructure them in a describe body.
 */
export function useSsoApp(options: { sms?: boolean } = {}): SsoApp {
  const world = useSsoWorld(options);
  let app: AuthFixture | undefined;
  let connection: string | undefined;
  beforeAll(async () => {
    app = await authFixture(world.ctx.server);
    connection = await world.connect(app);
  });
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`useSsoApp: ${what} is not set up yet (read it in a hook or test)`);
    return value;
  };

  return {
    ctx: world.ctx,
    get idp() {
      return world.idp;
    },
    connect: world.connect,
    signIn: world.signIn,
    callback: world.callback,
    createConnection: world.createConnection,
    signInAt: world.signInAt,
    get app() {
      return ready(app, "the app");
    },
    get connection() {
      return ready(connection, "the connection");
    },
  };
}
