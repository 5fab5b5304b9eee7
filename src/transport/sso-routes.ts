import { DomainError } from "../domain/errors.js";
import { checkHttpUri } from "../domain/formats.js";
import { ssoAuthorize } from "../flows/auth/sso/authorize.js";
import { ssoCallback } from "../flows/auth/sso/callback.js";
import type { FlowDeps } from "../flows/deps.js";
import { answerInWords } from "../pages-route/message.js";
import type { NodeResponse } from "./error-body.js";
import type { PlainRoute } from "./http-handler.js";

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

function redirect(res: NodeResponse, location: string): void {
  res.writeHead(302, { location, "cache-control": "no-store", "referrer-policy": "no-referrer", "content-length": 0 });
  res.end();
}

/** A page in words for a person, not JSON: this route is a browser's. */
function page(res: NodeResponse, status: number, message: string): void {
  answerInWords(res, status, "Sign-in failed", message);
}
