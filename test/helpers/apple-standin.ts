import { createHash, generateKeyPairSync, randomBytes, randomUUID, type KeyObject } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { decodeProtectedHeader, exportJWK, jwtVerify, SignJWT } from "jose";
import { json, readBody, startStandinServer, text } from "./standin-server.js";

// Sign in with Apple played by a loopback HTTP server, with the quirks a client must handle:
// - the client secret is an ES256 JWT the client signs with its key (kid = key id, iss = team
//   id, sub = Services ID, aud = Apple's issuer, exp at most six months after iat), checked
//   here against the key's public half; anything else is `invalid_client`;
// - the token endpoint takes the client's credentials in the body only (client_secret_post);
// - asking for `name` or `email` requires `response_mode=form_post`: Apple answers with a page
//   whose form the browser posts to the redirect_uri (code, state, and on the app's first
//   authorization by that user only, `user`: JSON with the name and email);
// - ID tokens carry `email_verified` and `is_private_email` as the strings "true"/"false", and
//   a private-relay address (@privaterelay.appleid.com) for a user who hides theirs.
// No sign-in page: `authorize` signs in the user named by `?login=` (a test-only parameter) or
// `defaultLogin`, at once. Codes and client secrets are judged on `clock`; ID tokens are dated
// on the real clock, which is the one openid-client checks them with.

export interface AppleUser {
  /** Apple's stable, team-scoped user id: the ID token's `sub`. */
  sub: string;
  email: string;
  /** How the ID token says it: Apple has sent the string, newer tokens a boolean. */
  emailVerified: "true" | "false" | boolean;
  /** Hide My Email: `email` is a relay address. */
  isPrivateEmail: boolean;
  firstName: string;
  lastName: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface AppleStandinOptions {
  /** The Services ID. Default "com.example.web". */
  clientId?: string;
  /** The Apple Developer team id. Default "TEAM123456". */
  teamId?: string;
  /** The key the client signs its secret with: its id and public half. */
  key: { keyId: string; publicKey: KeyObject };
  /** The registered return URLs: a redirect_uri must be one of them exactly. */
  redirectUris: string[];
  /** Who `authorize` signs in without `?login=`. */
  defaultLogin?: string;
  /** For the codes' five minutes and the client secret's `iat`/`exp`; a test clock fits. */
  clock?: { now(): Date };
}

export interface AppleStandin {
  /** The issuer: the origin, e.g. http://127.0.0.1:PORT. */
  url: string;
  clientId: string;
  teamId: string;
  defaultLogin: string;
  /** Adds or replaces a user; missing fields get defaults (a fresh sub, a verified address). */
  setUser(login: string, user?: Partial<AppleUser>): AppleUser;
  /** The user stops using Sign in with Apple for this app: the next authorization is a first one. */
  revoke(login: string): void;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** The client secrets the token endpoint accepted, in order. */
  acceptedSecrets: string[];
  stop(): Promise<void>;
}

/** What a form_post answer page asks the browser to post, and where. */
export interface FormPost {
  action: string;
  fields: URLSearchParams;
}

const CODE_TTL_MS = 5 * 60_000;
/** Apple's limit on a client secret's lifetime: six months, in seconds. */
const MAX_SECRET_LIFETIME_S = 15_777_000;

interface IssuedCode {
  login: string;
  redirectUri: string;
  nonce: string | undefined;
  challenge: string | undefined;
  expiresAt: number;
}

export async function startAppleStandin(options: AppleStandinOptions): Promise<AppleStandin> {
  const clock = options.clock ?? { now: () => new Date() };
  const codes = new Map<string, IssuedCode>();
  const users = new Map<string, AppleUser>();
  /** The users who authorized the app before: Apple sends `user` only the first time. */
  const authorized = new Set<string>();
  const { privateKey: idTokenKey, publicKey: idTokenPublic } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const idTokenKid = randomUUID();

  const { url, stop } = await startStandinServer((req, res) => route(req, res));

  const standin: AppleStandin = {
    url,
    clientId: options.clientId ?? "com.example.web",
    teamId: options.teamId ?? "TEAM123456",
    defaultLogin: options.defaultLogin ?? "appleseed",
    setUser(login, user = {}) {
      const full: AppleUser = {
        sub: user.sub ?? `000${randomBytes(8).toString("hex")}.${randomBytes(16).toString("hex")}.0${users.size}`,
        email: user.email ?? `${login}@example.com`,
        emailVerified: user.emailVerified ?? "true",
        isPrivateEmail: user.isPrivateEmail ?? false,
        firstName: user.firstName ?? "",
        lastName: user.lastName ?? "",
      };
      users.set(login, full);
      return full;
    },
    revoke(login) {
      authorized.delete(login);
    },
    requests: [],
    acceptedSecrets: [],
    stop,
  };
  standin.setUser(standin.defaultLogin, { firstName: "Johnny", lastName: "Appleseed" });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = new URL(req.url ?? "/", url);
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join(", ") : (value ?? ""),
      ]),
    );
    const body = await readBody(req);
    standin.requests.push({ method: req.method ?? "", path: target.pathname, headers, body });
    if (req.method === "GET" && target.pathname === "/.well-known/openid-configuration") return discovery(res);
    if (req.method === "GET" && target.pathname === "/auth/authorize") return authorize(target.searchParams, res);
    if (req.method === "POST" && target.pathname === "/auth/token") return token(headers, body, res);
    if (req.method === "GET" && target.pathname === "/auth/keys") {
      return json(res, 200, {
        keys: [{ ...(await exportJWK(idTokenPublic)), kid: idTokenKid, use: "sig", alg: "RS256" }],
      });
    }
    text(res, 404, "Not Found");
  }

  /** As https://appleid.apple.com/.well-known/openid-configuration answers, on this origin. */
  function discovery(res: ServerResponse): void {
    json(res, 200, {
      issuer: url,
      authorization_endpoint: `${url}/auth/authorize`,
      token_endpoint: `${url}/auth/token`,
      revocation_endpoint: `${url}/auth/revoke`,
      jwks_uri: `${url}/auth/keys`,
      response_types_supported: ["code"],
      response_modes_supported: ["query", "fragment", "form_post"],
      subject_types_supported: ["pairwise"],
      id_token_signing_alg_values_supported: ["RS256"],
      scopes_supported: ["openid", "email", "name"],
      token_endpoint_auth_methods_supported: ["client_secret_post"],
      claims_supported: ["aud", "email", "email_verified", "exp", "iat", "is_private_email", "iss", "nonce", "sub"],
    });
  }

  function authorize(query: URLSearchParams, res: ServerResponse): void {
    // Apple shows an error page, and redirects nowhere, when it cannot trust the request.
    if (query.get("client_id") !== standin.clientId) return text(res, 400, "invalid_client");
    const redirectUri = query.get("redirect_uri") ?? "";
    if (!options.redirectUris.includes(redirectUri))
      return text(res, 400, "invalid_request: Invalid web redirect url.");
    if (query.get("response_type") !== "code") return text(res, 400, "unsupported_response_type");
    const scopes = (query.get("scope") ?? "").split(" ").filter(Boolean);
    const mode = query.get("response_mode") ?? "query";
    if ((scopes.includes("name") || scopes.includes("email")) && mode !== "form_post")
      return text(res, 400, "invalid_request: response_mode must be form_post when name or email scope is requested.");
    const challenge = query.get("code_challenge") ?? undefined;
    if (challenge !== undefined && query.get("code_challenge_method") !== "S256")
      return text(res, 400, "invalid_request: code_challenge_method must be S256");
    const fields: Record<string, string> = {};
    const state = query.get("state");
    if (state !== null) fields.state = state;
    const login = query.get("login") ?? standin.defaultLogin;
    const user = users.get(login);
    if (query.get("deny") !== null || !user) {
      fields.error = "user_cancelled_authorize";
      return answer(res, mode, redirectUri, fields);
    }
    const code = `c${randomBytes(16).toString("hex")}.0.${randomBytes(4).toString("hex")}`;
    codes.set(code, {
      login,
      redirectUri,
      nonce: query.get("nonce") ?? undefined,
      challenge,
      expiresAt: clock.now().getTime() + CODE_TTL_MS,
    });
    fields.code = code;
    // The name and the address, once: on the first authorization of this app by this user.
    if (!authorized.has(login) && (scopes.includes("name") || scopes.includes("email"))) {
      fields.user = JSON.stringify({
        ...(scopes.includes("name") ? { name: { firstName: user.firstName, lastName: user.lastName } } : {}),
        ...(scopes.includes("email") ? { email: user.email } : {}),
      });
    }
    authorized.add(login);
    answer(res, mode, redirectUri, fields);
  }

  async function token(headers: Record<string, string>, raw: string, res: ServerResponse): Promise<void> {
    if (!headers["content-type"]?.startsWith("application/x-www-form-urlencoded"))
      return json(res, 400, { error: "invalid_request" });
    const params = new URLSearchParams(raw);
    // client_secret_post only: credentials in a Basic header are not Apple's way.
    if (headers.authorization || params.get("client_id") !== standin.clientId)
      return json(res, 400, { error: "invalid_client" });
    if (!(await secretAccepted(params.get("client_secret") ?? ""))) return json(res, 400, { error: "invalid_client" });
    if (params.get("grant_type") !== "authorization_code") return json(res, 400, { error: "unsupported_grant_type" });
    const code = params.get("code") ?? "";
    const issued = codes.get(code);
    codes.delete(code);
    if (!issued || issued.expiresAt <= clock.now().getTime() || params.get("redirect_uri") !== issued.redirectUri)
      return json(res, 400, { error: "invalid_grant" });
    if (issued.challenge !== undefined) {
      const verifier = params.get("code_verifier") ?? "";
      if (createHash("sha256").update(verifier).digest("base64url") !== issued.challenge)
        return json(res, 400, { error: "invalid_grant" });
    }
    standin.acceptedSecrets.push(params.get("client_secret")!);
    json(res, 200, {
      access_token: `a${randomBytes(16).toString("hex")}.0.${randomBytes(4).toString("hex")}`,
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: `r${randomBytes(16).toString("hex")}.0.${randomBytes(4).toString("hex")}`,
      id_token: await idToken(users.get(issued.login)!, issued.nonce),
    });
  }

  /** Apple's checks of a client secret: ES256 by the registered key, for this team, client and issuer, not expired, at most six months long. */
  async function secretAccepted(secret: string): Promise<boolean> {
    try {
      if (decodeProtectedHeader(secret).kid !== options.key.keyId) return false;
      const { payload } = await jwtVerify(secret, options.key.publicKey, {
        algorithms: ["ES256"],
        issuer: standin.teamId,
        subject: standin.clientId,
        audience: url,
        currentDate: clock.now(),
        requiredClaims: ["iat", "exp"],
      });
      // Not signed in the future (a minute of skew), nor for longer than six months.
      const now = Math.floor(clock.now().getTime() / 1000);
      return payload.iat! <= now + 60 && payload.exp! - payload.iat! <= MAX_SECRET_LIFETIME_S;
    } catch {
      return false;
    }
  }

  async function idToken(user: AppleUser, nonce: string | undefined): Promise<string> {
    return new SignJWT({
      email: user.email,
      email_verified: user.emailVerified,
      is_private_email: String(user.isPrivateEmail),
      auth_time: Math.floor(Date.now() / 1000),
      nonce_supported: true,
      real_user_status: 2,
      ...(nonce !== undefined ? { nonce } : {}),
    })
      .setProtectedHeader({ alg: "RS256", kid: idTokenKid })
      .setIssuer(url)
      .setAudience(standin.clientId)
      .setSubject(user.sub)
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(idTokenKey);
  }

  return standin;
}

/** Apple's answer: a page that posts the fields to the redirect_uri at once (form_post), or a redirect. */
function answer(res: ServerResponse, mode: string, redirectUri: string, fields: Record<string, string>): void {
  if (mode === "form_post") {
    const inputs = Object.entries(fields)
      .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}"/>`)
      .join("");
    res
      .writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
      .end(
        `<!DOCTYPE html><html><head><title>Sign in with Apple</title></head>` +
          `<body onload="document.forms[0].submit()"><form method="post" action="${escape(redirectUri)}">${inputs}</form></body></html>`,
      );
    return;
  }
  const location = new URL(redirectUri);
  const params = new URLSearchParams(fields);
  if (mode === "fragment") location.hash = params.toString();
  else for (const [name, value] of params) location.searchParams.set(name, value);
  res.writeHead(302, { location: location.href }).end();
}

/** Reads a form_post page as a browser would submit it. */
export function readFormPost(html: string): FormPost {
  const action = /<form method="post" action="([^"]*)">/.exec(html)?.[1];
  if (action === undefined) throw new Error(`not a form_post page: ${html.slice(0, 200)}`);
  const fields = new URLSearchParams();
  for (const input of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"\/>/g))
    fields.append(unescape(input[1]), unescape(input[2]));
  return { action: unescape(action), fields };
}

/** A P-256 key as Apple hands it out: the private half as PKCS#8 PEM (the .p8 file). */
export function newAppleKey(): { keyId: string; privateKeyPem: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return {
    keyId: randomBytes(5).toString("hex").toUpperCase(),
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKey,
  };
}

function escape(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function unescape(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}
