import { DomainError } from "../domain/errors.js";
import { checkHttpUri } from "../domain/formats.js";
import { ssoAuthorize } from "../flows/auth/sso/authorize.js";
import { ssoCallback } from "../flows/auth/sso/callback.js";
import type { FlowDeps } from "../flows/deps.js";
import { choosePageLanguage } from "../pages-route/language.js";
import { answerInWords } from "../pages-route/message.js";
import { pageTranslator } from "../pages-route/words.js";
import type { NodeResponse } from "../transport/error-body.js";
import type { NodeRequest } from "../transport/rest-handler.js";
import type { PlainRoute } from "../transport/http-handler.js";
import { BodyTooLarge, readBody } from "../transport/read-body.js";

// The SSO routes a browser visits: the entry (GET /v1/auth/sso/authorize, no API key: the
// public login_id names the project) and the callback providers send the browser back to.
// Both answer a redirect, or a small page in words when there is nowhere safe to redirect,
// in the language the address or the browser asks for (pages-route/language.ts).

const LOGIN_ID = /^lp_[0-9a-z]{26}$/;
const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function ssoAuthorizeRoute(deps: FlowDeps): PlainRoute {
  return async (req, res) => {
    const url = new URL(req.url ?? "/", "http://gatehouse");
    const query = url.searchParams;
    const loginId = query.get("login_id") ?? "";
    const redirectUrl = query.get("redirect_url") ?? "";
    const codeChallenge = query.get("code_challenge") ?? "";
    const refuse = (key: string, projectDefault?: string, values?: Record<string, string>) =>
      page(req, res, 400, key, projectDefault, values);
    if (!LOGIN_ID.test(loginId)) return refuse("ssoRoute.malformedLoginId");
    if (
      redirectUrl !== "" &&
      (redirectUrl.length > 2048 || redirectUrl.includes("\0") || checkHttpUri(redirectUrl) !== undefined)
    ) {
      return refuse("ssoRoute.badRedirect");
    }
    if (codeChallenge !== "" && !CODE_CHALLENGE.test(codeChallenge)) return refuse("ssoRoute.badChallenge");
    const project = await deps.db.repos.projects.getByLoginId(loginId);
    if (!project) return refuse("ssoRoute.noProject");
    try {
      const { authorizationUrl } = await ssoAuthorize(deps, project, {
        connectionId: query.get("connection_id") ?? "",
        redirectUrl,
        codeChallenge,
      });
      redirect(res, authorizationUrl);
    } catch (error) {
      // The reason's words (the catalog's), not the flow's English message.
      if (error instanceof DomainError)
        return refuse("ssoRoute.cannotStart", project.defaultLocale, { reason: `reason.${error.reason}` });
      throw error;
    }
  };
}

const NO_FLOW_WORDS = { incomplete: "ssoRoute.incomplete", unknown_flow: "ssoRoute.unknownFlow" } as const;

export function ssoCallbackRoute(deps: FlowDeps): PlainRoute {
  return async (req, res, record) => {
    const query = new URL(req.url ?? "/", "http://gatehouse").searchParams;
    const answer = await ssoCallback(deps, query, { ipAddress: record.ip, userAgent: record.userAgent });
    if ("redirect" in answer) redirect(res, answer.redirect);
    else page(req, res, 400, NO_FLOW_WORDS[answer.page]);
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
    if (type !== "application/x-www-form-urlencoded") return page(req, res, 415, "ssoRoute.notForm");
    let body: Buffer;
    try {
      body = await readBody(req, MAX_FORM_POST_BYTES);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      res.setHeader("connection", "close");
      return page(req, res, 413, "ssoRoute.tooLarge");
    }
    const form = new URLSearchParams(body.toString("utf8"));
    const answer = await ssoCallback(deps, form, { ipAddress: record.ip, userAgent: record.userAgent }, "form_post");
    if ("redirect" in answer) redirect(res, answer.redirect, 303);
    else page(req, res, 400, NO_FLOW_WORDS[answer.page]);
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

/**
 * A page in words for a person, not JSON: this route is a browser's. `key` is a pages-catalog
 * key; a value that is itself a catalog key (a reason) is worded too.
 */
function page(
  req: NodeRequest,
  res: NodeResponse,
  status: number,
  key: string,
  projectDefault?: string,
  values: Record<string, string> = {},
): void {
  const speech = choosePageLanguage(
    new URL(req.url ?? "/", "http://gatehouse"),
    req.headers["accept-language"],
    projectDefault,
  );
  const t = pageTranslator(speech.language);
  const worded = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, t(value)]));
  answerInWords(res, status, t("ssoRoute.failed"), t(key, worded), undefined, speech);
}
