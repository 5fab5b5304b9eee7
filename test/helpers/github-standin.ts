import { createHash, randomBytes, randomInt } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { json, readBody, startStandinServer, text } from "./standin-server.js";

// GitHub's OAuth App flow and the two REST endpoints a sign-in reads, played by a loopback HTTP
// server, with the quirks a client must handle: GitHub is OAuth 2.0 without an ID token; its
// token endpoint answers errors with status 200 and speaks form-urlencoded unless asked for
// JSON; the API refuses a request without a User-Agent; `/user/emails` needs the `user:email`
// (or `user`) scope and answers 404 without it; the public email in `/user` may be null while
// the verified ones are only in `/user/emails`. The API lives under `/api/v3`, as on GitHub
// Enterprise Server, so one origin serves both. No sign-in page: `authorize` signs in the user
// named by `?login=` (a test-only parameter) or `defaultLogin` and redirects at once.

export interface GithubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

export interface GithubUser {
  login: string;
  id: number;
  name: string | null;
  avatar_url: string;
  /** What `/user` answers as `email`: the email the user made public, or null (GitHub's default). */
  public_email: string | null;
  emails: GithubEmail[];
}

export type GithubUserInput = Partial<Omit<GithubUser, "login">>;

export interface RecordedRequest {
  method: string;
  /** The path without the query. */
  path: string;
  /** Path and query, as requested. */
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface GithubStandinOptions {
  /** The OAuth App's credentials. Default "standin-client-id" / "standin-client-secret". */
  clientId?: string;
  clientSecret?: string;
  /**
   * The registered callback URL. A redirect_uri must be it or a path below it (GitHub's rule);
   * unset, any redirect_uri is accepted. (GitHub also ignores the port of loopback callbacks; not
   * played here, since every test server is on 127.0.0.1 and a wrong port must show.)
   */
  redirectUri?: string;
  /** Who `authorize` signs in without `?login=`. Default "octocat", a user that exists. */
  defaultLogin?: string;
  /** For the codes' ten-minute lifetime; a test clock (test/helpers/clock.ts) fits. */
  clock?: { now(): Date };
}

export interface GithubStandin {
  /** The origin, e.g. http://127.0.0.1:PORT. */
  url: string;
  authorizeUrl: string;
  tokenUrl: string;
  /** The REST API base (GitHub Enterprise shape: `${url}/api/v3`). */
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  defaultLogin: string;
  users: Map<string, GithubUser>;
  /** Adds or replaces a user; missing fields get defaults (a fresh id, no name, no public email, no emails). */
  setUser(login: string, user?: GithubUserInput): GithubUser;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  stop(): Promise<void>;
}

const CODE_TTL_MS = 10 * 60_000;
const DOCS = "https://docs.github.com";
const NO_USER_AGENT =
  "Request forbidden by administrative rules. Please make sure your request has a User-Agent header " +
  `(${DOCS}/rest/overview/resources-in-the-rest-api#user-agent-required). Check https://developer.github.com for other possible causes.\n`;
const TOKEN_ERRORS = {
  incorrect_client_credentials: "The client_id and/or client_secret passed are incorrect.",
  bad_verification_code: "The code passed is incorrect or expired.",
  redirect_uri_mismatch: "The redirect_uri MUST match the registered callback URL for this application.",
} as const;

interface IssuedCode {
  login: string;
  scopes: string[];
  redirectUri: string | undefined;
  challenge: string | undefined;
  expiresAt: number;
}

const base62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const newToken = () => "gho_" + Array.from({ length: 36 }, () => base62[randomInt(base62.length)]).join("");

/** `read:user user:email` or `read:user,user:email` → unique scope names, in order. */
function parseScopes(raw: string | null): string[] {
  return [...new Set((raw ?? "").split(/[\s,]+/).filter(Boolean))];
}

/** GitHub's rule: same scheme, host and port; the path equal to the callback's or below it. */
function redirectAllowed(registered: string | undefined, given: string): boolean {
  if (!registered) return true;
  let a: URL, b: URL;
  try {
    [a, b] = [new URL(registered), new URL(given)];
  } catch {
    return false;
  }
  const base = a.pathname.endsWith("/") ? a.pathname : `${a.pathname}/`;
  return a.origin === b.origin && (b.pathname === a.pathname || b.pathname.startsWith(base));
}

export async function startGithubStandin(options: GithubStandinOptions = {}): Promise<GithubStandin> {
  const clock = options.clock ?? { now: () => new Date() };
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, { login: string; scopes: string[] }>();
  let nextId = 1000;

  const { url, stop } = await startStandinServer((req, res) => route(req, res));

  const standin: GithubStandin = {
    url,
    authorizeUrl: `${url}/login/oauth/authorize`,
    tokenUrl: `${url}/login/oauth/access_token`,
    apiUrl: `${url}/api/v3`,
    clientId: options.clientId ?? "standin-client-id",
    clientSecret: options.clientSecret ?? "standin-client-secret",
    defaultLogin: options.defaultLogin ?? "octocat",
    users: new Map(),
    setUser(login, user = {}) {
      const id = user.id ?? nextId++;
      const full: GithubUser = {
        login,
        id,
        name: user.name ?? null,
        avatar_url: user.avatar_url ?? `${url}/avatars/u/${id}`,
        public_email: user.public_email ?? null,
        emails: user.emails ?? [],
      };
      standin.users.set(login, full);
      return full;
    },
    requests: [],
    stop,
  };
  standin.setUser("octocat", {
    id: 583231,
    name: "The Octocat",
    emails: [{ email: "octocat@example.com", primary: true, verified: true }],
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = new URL(req.url ?? "/", url);
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join(", ") : (value ?? ""),
      ]),
    );
    const body = await readBody(req);
    standin.requests.push({ method: req.method ?? "", path: target.pathname, url: req.url ?? "", headers, body });
    if (req.method === "GET" && target.pathname === "/login/oauth/authorize")
      return authorize(target.searchParams, res);
    if (req.method === "POST" && target.pathname === "/login/oauth/access_token") {
      return accessToken(target.searchParams, headers, body, res);
    }
    if (target.pathname.startsWith("/api/v3/")) return api(req.method ?? "", target.pathname.slice(7), headers, res);
    text(res, 404, "Not Found");
  }

  function authorize(query: URLSearchParams, res: ServerResponse): void {
    // GitHub shows an error page (no redirect) when it cannot trust the client or the callback.
    if (query.get("client_id") !== standin.clientId) return text(res, 404, "Not Found: no such OAuth App");
    const given = query.get("redirect_uri") ?? undefined;
    const callback = given ?? options.redirectUri;
    if (!callback) return text(res, 400, "no redirect_uri given and no callback URL registered");
    const back = (params: Record<string, string>) => {
      const location = new URL(callback);
      for (const [name, value] of Object.entries(params)) location.searchParams.set(name, value);
      const state = query.get("state");
      if (state !== null) location.searchParams.set("state", state);
      res.writeHead(302, { location: location.toString() }).end();
    };
    if (given !== undefined && !redirectAllowed(options.redirectUri, given)) {
      return back({
        error: "redirect_uri_mismatch",
        error_description: TOKEN_ERRORS.redirect_uri_mismatch,
        error_uri: `${DOCS}/apps/managing-oauth-apps/troubleshooting-authorization-request-errors/#redirect-uri-mismatch`,
      });
    }
    const challenge = query.get("code_challenge") ?? undefined;
    if (challenge !== undefined && query.get("code_challenge_method") !== "S256") {
      return back({ error: "invalid_request", error_description: "Only the S256 code_challenge_method is supported." });
    }
    const login = query.get("login") ?? standin.defaultLogin;
    if (!standin.users.has(login)) return text(res, 404, `the stand-in has no user ${login}`);
    const code = randomBytes(10).toString("hex");
    const scopes = parseScopes(query.get("scope"));
    codes.set(code, { login, scopes, redirectUri: given, challenge, expiresAt: clock.now().getTime() + CODE_TTL_MS });
    back({ code });
  }

  function accessToken(
    query: URLSearchParams,
    headers: Record<string, string>,
    raw: string,
    res: ServerResponse,
  ): void {
    // Parameters may come in the query, a form body or a JSON body; the secret also as Basic auth.
    const params = new Map<string, string>(query);
    if (headers["content-type"]?.startsWith("application/json")) {
      for (const [k, v] of Object.entries(JSON.parse(raw || "{}") as Record<string, unknown>)) params.set(k, String(v));
    } else for (const [k, v] of new URLSearchParams(raw)) params.set(k, v);
    const basic = /^Basic\s+(.+)$/i.exec(headers.authorization ?? "")?.[1];
    if (basic) {
      const pair = Buffer.from(basic, "base64").toString("utf8");
      const colon = pair.indexOf(":");
      params.set("client_id", decodeURIComponent(pair.slice(0, colon)));
      params.set("client_secret", decodeURIComponent(pair.slice(colon + 1)));
    }
    // GitHub's quirk: without Accept: application/json the answer is form-urlencoded, errors too,
    // and errors come with status 200.
    const wantsJson = /application\/json/i.test(headers.accept ?? "");
    const answer = (fields: Record<string, string>): void => {
      if (wantsJson) return json(res, 200, fields);
      res
        .writeHead(200, { "content-type": "application/x-www-form-urlencoded; charset=utf-8" })
        .end(new URLSearchParams(fields).toString());
    };
    const fail = (error: keyof typeof TOKEN_ERRORS, description: string = TOKEN_ERRORS[error]) =>
      answer({
        error,
        error_description: description,
        error_uri: `${DOCS}/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors/#${error.replaceAll("_", "-")}`,
      });

    if (params.get("client_id") !== standin.clientId || params.get("client_secret") !== standin.clientSecret) {
      return fail("incorrect_client_credentials");
    }
    const code = params.get("code") ?? "";
    const issued = codes.get(code);
    codes.delete(code); // single use, whatever happens next
    if (!issued || issued.expiresAt <= clock.now().getTime()) return fail("bad_verification_code");
    const redirectUri = params.get("redirect_uri");
    if (redirectUri && redirectUri !== (issued.redirectUri ?? options.redirectUri))
      return fail("redirect_uri_mismatch");
    if (issued.challenge !== undefined) {
      const verifier = params.get("code_verifier") ?? "";
      if (createHash("sha256").update(verifier).digest("base64url") !== issued.challenge) {
        return fail("bad_verification_code", "The code_verifier does not match the code_challenge.");
      }
    }
    const accessToken = newToken();
    tokens.set(accessToken, { login: issued.login, scopes: issued.scopes });
    answer({ access_token: accessToken, token_type: "bearer", scope: issued.scopes.join(",") });
  }

  function api(method: string, path: string, headers: Record<string, string>, res: ServerResponse): void {
    if (!headers["user-agent"]) return text(res, 403, NO_USER_AGENT);
    const presented = /^(?:Bearer|token)\s+(\S+)$/i.exec(headers.authorization ?? "")?.[1] ?? "";
    const grant = tokens.get(presented);
    const user = grant && standin.users.get(grant.login);
    if (!grant || !user) return json(res, 401, { message: "Bad credentials", documentation_url: `${DOCS}/rest` });
    const scopeHeaders = { "x-oauth-scopes": grant.scopes.join(", "), "x-github-media-type": "github.v3" };
    if (method === "GET" && path === "/user") {
      const { login, id, name, avatar_url, public_email } = user;
      return json(res, 200, { login, id, type: "User", name, avatar_url, email: public_email }, scopeHeaders);
    }
    if (method === "GET" && path === "/user/emails") {
      if (!grant.scopes.includes("user:email") && !grant.scopes.includes("user")) {
        return json(res, 404, { message: "Not Found", documentation_url: `${DOCS}/rest` }, scopeHeaders);
      }
      // GitHub marks only the primary address with a visibility; the others carry null.
      const emails = user.emails.map((e) => ({
        ...e,
        visibility: e.primary ? (e.email === user.public_email ? "public" : "private") : null,
      }));
      return json(res, 200, emails, scopeHeaders);
    }
    json(res, 404, { message: "Not Found", documentation_url: `${DOCS}/rest` }, scopeHeaders);
  }

  return standin;
}
