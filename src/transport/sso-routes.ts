import { DomainError } from "../domain/errors.js";
import { checkHttpUri } from "../domain/formats.js";
import { ssoAuthorize } from "../flows/auth/sso/authorize.js";
import { ssoCallback } from "../flows/auth/sso/callback.js";
import type { FlowDeps } from "../flows/deps.js";
import { answerInWords } from "../pages-route/message.js";
import type { NodeResponse } from "./error-body.js";
import type { PlainRoute } from "./http-handler.js";
import { BodyTooLarge, readBody } from "./read-body.js";

// The SSO routes a browser visits: the entry (GET /v1/auth/sso/authorize, no API key: the
// public login_id names the project) and the callback providers send the browser back to.
// Both answer a redirect, or a small page in words when there is nowhere safe to redirect.

const LOGIN_ID = /^lp_[0-9a-z]{26}$/;
const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function ssoAuthorizeRoute(deps: FlowDeps): PlainRoute {
  return async (req, res) => {
    const query = new URL(req.url ?? "/", "http://gatehouse").searchParams;
    const loginId = query.get("login_id") ?? "";
    const redirectUrl = query.get("redirect_url") ?? "";
    const codeChallenge = query.get("code_challenge") ?? "";
    if (!LOGIN_ID.test(loginId))
      return page(res, 400, "This sign-in link names no project: login_id is missing or malformed.");
    if (
      redirectUrl !== "" &&
      (redirectUrl.length > 2048 || redirectUrl.includes("\0") || checkHttpUri(redirectUrl) !== undefined)
    ) {
      return page(res, 400, "This sign-in link's redirect_url is not an http(s) URL.");
    }
    if (codeChallenge !== "" && !CODE_CHALLENGE.test(codeChallenge))
      return page(res, 400, "This sign-in link's code_challenge is not an S256 challenge.");
    const project = await deps.db.repos.projects.getByLoginId(loginId);
    if (!project) return page(res, 400, "This sign-in link names no project.");
    try {
      const { authorizationUrl } = await ssoAuthorize(deps, project, {
        connectionId: query.get("connection_id") ?? "",
        redirectUrl,
        codeChallenge,
      });
      redirect(res, authorizationUrl);
    } catch (error) {
      if (error instanceof DomainError) return page(res, 400, `This sign-in cannot start: ${error.message}.`);
      throw error;
    }
  };
}

export function ssoCallbackRoute(deps: FlowDeps): PlainRoute {
  return async (req, res, record) => {
    const query = new URL(req.url ?? "/", "http://gatehouse").searchParams;
    const answer = await ssoCallback(deps, query, { ipAddress: record.ip, userAgent: record.userAgent });
    if ("redirect" in answer) redirect(res, answer.redirect);
    else page(res, 400, answer.page);
  };
}

/** Apple's form: a code, a state, a name once; a few hundred bytes. */
const MAX_FORM_POST_BYTES = 16 * 1024;

/**
 * POST /v1/auth/sso/callback: the same callback answered by `response_mode=form_post`, which
 * Sign in with Apple uses (its browser form posts the code and state here). The post comes
 * cross-site, so no SameSite cookie could vouch for it; none is needed: the single-use `state`
 * names the flow as it does for GET, and the flow refuses a post unless its connection is
 * Apple's (callback.ts). 303, so the browser follows with a GET.
 */
export function ssoFormPostCallbackRoute(deps: FlowDeps): PlainRoute {
  return async (req, res, record) => {
    const type = String(req.headers["content-type"] ?? "")
      .split(";", 1)[0]
      .trim()
      .toLowerCase();
    if (type !== "application/x-www-form-urlencoded")
      return page(res, 415, "This sign-in answer is not a form post. Start again from the application.");
    let body: Buffer;
    try {
      body = await readBody(req, MAX_FORM_POST_BYTES);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      res.setHeader("connection", "close");
      return page(res, 413, "This sign-in answer is too large. Start again from the application.");
    }
    const form = new URLSearchParams(body.toString("utf8"));
    const answer = await ssoCallback(deps, form, { ipAddress: record.ip, userAgent: record.userAgent }, "form_post");
    if ("redirect" in answer) redirect(res, answer.redirect, 303);
    else page(res, 400, answer.page);
  };
}

/** The routes a browser's form posts to, by path (http-handler.ts `form`). */
export function ssoFormRoutes(deps: FlowDeps): (path: string) => PlainRoute | undefined {
  const callback = ssoFormPostCallbackRoute(deps);
  return (path) => (path === "/v1/auth/sso/callback" ? callback : undefined);
}

function redirect(res: NodeResponse, location: string, status: 302 | 303 = 302): void {
  res.writeHead(status, {
    location,
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    "content-length": 0,
  });
  res.end();
}

/** A page in words for a person, not JSON: this route is a browser's. */
function page(res: NodeResponse, status: number, message: string): void {
  answerInWords(res, status, "Sign-in failed", message);
}
