import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { Provider } from "oidc-provider";
import { WAIT_GUARD_MS } from "./patience.js";

// A real OpenID provider (panva's oidc-provider v9) in the test process, on 127.0.0.1 over plain
// http: what Gatehouse's SSO flow discovers, redirects to, exchanges codes with and verifies
// ID tokens from. Around it sits a thin HTTP layer of our own that serves the login and consent
// pages, counts discovery and JWKS fetches, and can swap the ID token of a token response for a
// forged one, so relying-party validation is tested against the real protocol, not a mock.

export interface OidcClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  /** openid-client v6 sends the secret in the body unless told otherwise, hence the default. */
  tokenEndpointAuthMethod?: "client_secret_post" | "client_secret_basic";
}

/** Standard claims served for an account; `sub` is the account id. */
export type AccountClaims = {
  email?: string;
  email_verified?: boolean;
  name?: string;
  /** Claims served by userinfo only, left out of the ID token (as many providers do for email). */
  userinfoOnly?: string[];
} & Record<string, unknown>;

/** What `tamper` does to the next ID tokens: a foreign nonce, audience or issuer, past expiry, or a stranger's signature. */
export type TamperMode = "nonce" | "audience" | "issuer" | "expired" | "signature" | null;

export interface SignInOptions {
  /** Abort at the login page: the provider redirects back with `error=access_denied`. */
  deny?: boolean;
  /** `false`: log in, then refuse at the consent page (also `error=access_denied`). Default true. */
  consent?: boolean;
  /** Per-request bound, ms. */
  timeoutMs?: number;
}

export interface OidcProviderHarness {
  issuer: string;
  port: number;
  readonly discoveryRequests: number;
  readonly jwksRequests: number;
  readonly tokenRequests: number;
  /** The kid the provider signs ID tokens with now. */
  readonly signingKid: string;
  addClient(client: OidcClient): void;
  setAccount(id: string, claims: AccountClaims): void;
  signIn(authorizationUrl: string, accountId: string, options?: SignInOptions): Promise<string>;
  tamper(mode: TamperMode): void;
  rotateKeys(): Promise<void>;
  close(): Promise<void>;
}

export interface StartOidcProviderOptions {
  clients?: OidcClient[];
  accounts?: Record<string, AccountClaims>;
  /** Refuse authorization requests without a PKCE S256 challenge. Default true (Gatehouse always sends one). */
  requirePkce?: boolean;
}

async function newSigningKey(): Promise<{ jwk: JWK; privateKey: CryptoKey }> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = randomUUID();
  return { jwk: { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" }, privateKey };
}

export async function startOidcProvider(options: StartOidcProviderOptions = {}): Promise<OidcProviderHarness> {
  const clients = new Map<string, OidcClient>();
  for (const c of options.clients ?? []) clients.set(c.clientId, c);
  const accounts = new Map(Object.entries(options.accounts ?? {}));
  const requirePkce = options.requirePkce ?? true;
  // Unrelated key with nothing in the JWKS: a token signed with it must fail verification.
  const stranger = await newSigningKey();
  // Same cookie keys across rebuilds, so a browser session survives a key rotation.
  const cookieKeys = [randomBytes(32).toString("base64url")];
  let signing = await newSigningKey();
  let tamperMode: TamperMode = null;
  const counts = { discovery: 0, jwks: 0, token: 0 };

  const server = createServer((req, res) => {
    void route(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(`harness error: ${(err as Error).message}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;

  // oidc-provider reads clients and keys once, in its constructor, and has no API to change
  // them at runtime. So adding a client or rotating keys builds a new Provider behind the same
  // socket: the issuer and port stay, and its in-memory adapter (sessions, interactions, codes)
  // is module-wide storage, so flows begun before the rebuild still complete after it. (Several
  // harnesses in one process share that storage harmlessly: its keys are random ids.)
  let provider!: Provider;
  let handler!: ReturnType<Provider["callback"]>;
  const build = () => {
    provider = new Provider(issuer, {
      clients: [...clients.values()].map((c) => ({
        client_id: c.clientId,
        client_secret: c.clientSecret,
        redirect_uris: c.redirectUris,
        response_types: ["code"],
        grant_types: ["authorization_code"],
        token_endpoint_auth_method: c.tokenEndpointAuthMethod ?? "client_secret_post",
        id_token_signed_response_alg: "RS256",
      })),
      jwks: { keys: [signing.jwk] },
      responseTypes: ["code"],
      // Declaring `email` and `profile` here also makes them known scopes.
      // `hd`: Google's Workspace domain, for the google preset's tests (served when an account has one).
      claims: {
        openid: ["sub", "hd"],
        email: ["email", "email_verified"],
        profile: ["name", "given_name", "family_name"],
      },
      // By default (OIDC Core 5.4) scope claims go only to userinfo when an access token is
      // issued; Gatehouse reads email from the ID token first, so put them there too.
      conformIdTokenClaims: false,
      findAccount: async (_ctx: unknown, sub: string) => {
        const claims = accounts.get(sub);
        // claims() returns everything for userinfo; oidc-provider filters by granted scope.
        return (
          claims && {
            accountId: sub,
            claims: async (use: string) => {
              const { userinfoOnly = [], ...served } = claims;
              if (use === "id_token") for (const name of userinfoOnly) delete served[name];
              return { ...served, sub };
            },
          }
        );
      },
      pkce: { required: () => requirePkce },
      // Explicit lifetimes (seconds) also silence oidc-provider's "default ttl called" notices.
      ttl: { AuthorizationCode: 60, AccessToken: 600, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
      cookies: { keys: cookieKeys },
      // Our own interaction routes below: devInteractions pages are not meant to be scripted.
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    });
    handler = provider.callback();
  };
  build();

  async function route(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? "/", issuer).pathname;
    if (path === "/.well-known/openid-configuration") counts.discovery++;
    if (path === "/jwks") counts.jwks++;
    if (path.startsWith("/interaction/")) return interaction(req, res, path);
    if (req.method === "POST" && path === "/token") {
      counts.token++;
      if (tamperMode) rewriteIdToken(res, tamperMode);
    }
    await handler(req, res);
  }

  // Buffer the provider's token response, swap its id_token, fix Content-Length, then send.
  // Koa answers a JSON body with a single res.end(body), headers not yet flushed.
  function rewriteIdToken(res: ServerResponse, mode: Exclude<TamperMode, null>) {
    const chunks: Buffer[] = [];
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    res.write = ((chunk: string | Buffer) => (chunks.push(Buffer.from(chunk)), true)) as typeof res.write;
    res.end = ((chunk?: string | Buffer | (() => void)) => {
      if (chunk && typeof chunk !== "function") chunks.push(Buffer.from(chunk));
      void (async () => {
        let out = Buffer.concat(chunks);
        try {
          const body = JSON.parse(out.toString("utf8") || "{}") as { id_token?: string };
          if (res.statusCode === 200 && body.id_token) {
            body.id_token = await forge(body.id_token, mode);
            out = Buffer.from(JSON.stringify(body));
          }
        } catch (err) {
          // Loud, never the untouched token: a test must not pass on a forgery that never happened.
          [res.statusCode, out] = [500, Buffer.from(`harness could not forge: ${(err as Error).message}`)];
        }
        if (!res.headersSent) res.setHeader("content-length", out.length);
        write(out);
        end();
      })();
      return res;
    }) as typeof res.end;
  }

  // Re-sign the provider's own ID token with one claim wrong (kid and alg kept, so the relying
  // party finds the key and fails on the claim), or with a stranger's key under the same kid.
  async function forge(idToken: string, mode: Exclude<TamperMode, null>): Promise<string> {
    const header = decodeProtectedHeader(idToken);
    const claims = decodeJwt(idToken);
    const now = Math.floor(Date.now() / 1000);
    if (mode === "nonce") claims.nonce = `forged-${randomUUID()}`;
    if (mode === "audience") claims.aud = "some-other-client";
    if (mode === "issuer") claims.iss = "http://127.0.0.1:1/other-issuer";
    // Well beyond any clock tolerance (openid-client allows 30 s, oidc-provider 15 s).
    if (mode === "expired") Object.assign(claims, { iat: now - 7200, exp: now - 3600 });
    const key = mode === "signature" ? stranger.privateKey : signing.privateKey;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: header.alg ?? "RS256", kid: header.kid, typ: header.typ })
      .sign(key);
  }

  // The interaction pages (login, consent, abort), after oidc-provider's own example: a plain
  // HTML form per prompt, which `signIn` reads and submits like a browser would.
  async function interaction(req: IncomingMessage, res: ServerResponse, path: string) {
    const [, , uid, action] = path.split("/");
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) return send(res, 400, "interaction mismatch");
    if (req.method === "GET" && !action) {
      const { name } = details.prompt;
      const form = (prompt: string, to: string) =>
        `<form method="post" data-prompt="${prompt}" action="/interaction/${uid}/${to}"><input name="login"><button>${to}</button></form>`;
      return send(
        res,
        200,
        `<!doctype html><title>${name}</title>${form(name, name === "login" ? "login" : "confirm")}${form("abort", "abort")}`,
        "text/html",
      );
    }
    if (req.method !== "POST") return send(res, 405, "method not allowed");
    const form = new URLSearchParams(await readBody(req));
    if (action === "abort") {
      const result = { error: "access_denied", error_description: "End-User aborted interaction" };
      return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    }
    if (action === "login" && details.prompt.name === "login") {
      const accountId = form.get("login") ?? "";
      if (!accounts.has(accountId)) return send(res, 400, `unknown account ${accountId}`);
      return provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
    }
    if (action === "confirm" && details.prompt.name === "consent" && details.session) {
      // Grant exactly what the provider says is missing, as a user clicking "Allow" would.
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
      if (!grant) return send(res, 400, "grant not found");
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      const grantId = await grant.save();
      const consent = details.grantId ? {} : { grantId };
      return provider.interactionFinished(req, res, { consent }, { mergeWithLastSubmission: true });
    }
    return send(res, 400, `unexpected ${action} for prompt ${details.prompt.name}`);
  }

  async function signIn(authorizationUrl: string, accountId: string, opts: SignInOptions = {}): Promise<string> {
    const { deny = false, consent = true, timeoutMs = WAIT_GUARD_MS } = opts;
    const jar = new Map<string, string>(); // a fresh browser per sign-in: no provider session carried over
    let url = new URL(authorizationUrl);
    if (url.origin !== new URL(issuer).origin) throw new Error(`signIn: ${url.origin} is not this provider`);
    let method = "GET";
    let body: string | undefined;
    for (let step = 0; step < 20; step++) {
      const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
      const headers = { cookie, ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) };
      const res = await fetch(url, {
        method,
        body,
        headers,
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      storeCookies(jar, res.headers.getSetCookie());
      const text = await res.text();
      const location = res.headers.get("location");
      if (res.status >= 300 && res.status < 400 && location) {
        url = new URL(location, url);
        // Done when the provider hands the browser back to a relying party.
        if (url.origin !== new URL(issuer).origin) return url.toString();
        [method, body] = ["GET", undefined];
        continue;
      }
      const prompt = /data-prompt="(login|consent)" action="([^"]+)"/.exec(text);
      if (res.status !== 200 || !prompt)
        throw new Error(`signIn: ${res.status} at ${url.pathname}: ${text.slice(0, 300)}`);
      const refuse = deny || (prompt[1] === "consent" && !consent);
      url = new URL(refuse ? /data-prompt="abort" action="([^"]+)"/.exec(text)![1] : prompt[2], url);
      [method, body] = ["POST", new URLSearchParams({ login: accountId }).toString()];
    }
    throw new Error("signIn: too many steps without leaving the provider");
  }

  return {
    issuer,
    port,
    get discoveryRequests() {
      return counts.discovery;
    },
    get jwksRequests() {
      return counts.jwks;
    },
    get tokenRequests() {
      return counts.token;
    },
    get signingKid() {
      return signing.jwk.kid!;
    },
    addClient(client) {
      clients.set(client.clientId, client);
      build();
    },
    setAccount: (id, claims) => void accounts.set(id, claims),
    signIn,
    tamper: (mode) => void (tamperMode = mode),
    async rotateKeys() {
      signing = await newSigningKey();
      build();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive sockets of fetch callers would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}

function send(res: ServerResponse, status: number, text: string, type = "text/plain") {
  res.writeHead(status, { "content-type": `${type}; charset=utf-8`, "cache-control": "no-store" });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 64 * 1024) throw new Error("form too large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

// Just enough of a cookie jar: name → value, deleted when the server expires it. Paths are
// ignored: oidc-provider's cookie names are distinct, and only the latest of each matters.
function storeCookies(jar: Map<string, string>, setCookies: string[]) {
  for (const line of setCookies) {
    const [pair, ...attrs] = line.split(";");
    const eq = pair.indexOf("=");
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const expired = attrs.some((a) => {
      const [k, v = ""] = a.trim().split("=");
      return (
        (k.toLowerCase() === "expires" && Date.parse(v) <= Date.now()) ||
        (k.toLowerCase() === "max-age" && Number(v) <= 0)
      );
    });
    if (expired || value === "") jar.delete(name);
    else jar.set(name, value);
  }
}
