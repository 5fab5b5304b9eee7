import type { IncomingMessage, ServerResponse } from "node:http";
import type { Provider } from "oidc-provider";
import { DomainError } from "../domain/errors.js";
import type { FlowDeps } from "../flows/deps.js";
import { createEngines } from "../flows/oidc/engines.js";
import { describe, finishConsent, finishLogin, nextStep, type InteractionCall } from "../flows/oidc/interactions.js";
import { userinfo } from "../flows/oidc/userinfo.js";
import { writeDomainError, writeJson, writeReasonError, type NodeResponse } from "../transport/error-body.js";
import type { PlainRoute } from "../transport/http-handler.js";
import { readBody } from "../transport/read-body.js";
import type { NodeRequest } from "../transport/rest-handler.js";

/** Everything of a project's OpenID Provider: the engine's endpoints and discovery, and Gatehouse's interaction and userinfo endpoints. */
const OIDC_PATH = /^\/v1\/auth\/(lp_[0-9a-z]{26})(\/oauth\/.*|\/\.well-known\/openid-configuration)$/;
const DISCOVERY = "/.well-known/openid-configuration";
/** The engine's own paths (flows/oidc/engine.ts ENGINE_ROUTES and the ones it derives from them); any other is the API's 404. */
const ENGINE_PATH =
  /^(?:\/\.well-known\/openid-configuration|\/oauth\/(?:authorize(?:\/[A-Za-z0-9_-]+)?|token|introspect|revoke|par|logout(?:\/confirm|\/success)?|device(?:\/auth|\/[A-Za-z0-9_-]+)?))$/;
const INTERACTION = /^\/oauth\/interaction\/([A-Za-z0-9_-]{1,64})(?:\/(details|login|consent))?$/;

/** What the engine's own pages may load: the hosted pages' stylesheet, and the form_post script whose hash the engine adds. */
const ENGINE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; frame-ancestors 'none'; base-uri 'none'";

/** Interaction answers are small JSON objects. */
const MAX_INTERACTION_BODY = 16 * 1024;

/**
 * The routes of the projects' OpenID Providers (docs/openid-provider.md), any method. Undefined
 * for any other path. The engine (oidc-provider, a koa app) sees paths below the issuer, and
 * URLs built from PUBLIC_URL whatever the request's Host.
 */
export function oidcRoutes(deps: FlowDeps): (path: string) => PlainRoute | undefined {
  const engines = createEngines(deps);
  const handlers = new WeakMap<Provider, ReturnType<Provider["callback"]>>();
  const publicUrl = new URL(deps.config.publicUrl);
  return (path) => {
    const match = OIDC_PATH.exec(path);
    if (!match) return undefined;
    const [, loginId, rest] = match;
    return async (req, res, record) => {
      const project = await deps.db.repos.projects.getByLoginId(loginId);
      if (!project) return writeReasonError(res, record.id, "PROJECT_NOT_FOUND", "no project has this login id");
      const engine = await engines.of(project);
      const nodeReq = req as IncomingMessage;
      const nodeRes = res as ServerResponse;
      const interaction = INTERACTION.exec(rest);
      if (interaction) {
        try {
          const from = { ipAddress: record.ip, userAgent: record.userAgent };
          const call = { deps, engine, project, req: nodeReq, res: nodeRes, uid: interaction[1], from };
          return await serveInteraction(call, interaction[2]);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          return writeDomainError(res, record.id, error);
        }
      }
      if (rest === "/oauth/userinfo") return serveUserinfo(deps, project, req, res);
      if (!ENGINE_PATH.test(rest))
        return writeReasonError(res, record.id, "ROUTE_NOT_FOUND", `no route for ${req.method} ${path}`);
      if (rest === DISCOVERY) {
        if (req.method !== "GET" && req.method !== "HEAD") {
          res.setHeader("allow", "GET");
          return writeReasonError(
            res,
            record.id,
            "METHOD_NOT_ALLOWED",
            `${req.method} is not allowed on ${path}; allowed: GET`,
            405,
          );
        }
        // Public and the same for everyone, as the JWKS it names (routes/jwks.ts).
        res.setHeader("cache-control", "public, max-age=300");
      }
      let handler = handlers.get(engine);
      if (!handler) handlers.set(engine, (handler = engine.callback()));
      const url = req.url ?? "/";
      Object.assign(nodeReq, { originalUrl: url, url: url.slice(`/v1/auth/${loginId}`.length) });
      // Overwritten, never trusted from the client: the engine's URLs are PUBLIC_URL's.
      nodeReq.headers["x-forwarded-proto"] = publicUrl.protocol.slice(0, -1);
      nodeReq.headers["x-forwarded-host"] = publicUrl.host;
      // The client address after TRUSTED_PROXIES: the engine's ctx.ip, which the device page's
      // limits count by (flows/oidc/user-codes.ts) and a device code records.
      nodeReq.headers["x-forwarded-for"] = record.ip;
      res.setHeader("content-security-policy", ENGINE_CSP);
      await handler(nodeReq, nodeRes);
    };
  };
}

async function serveInteraction(call: InteractionCall, action: string | undefined): Promise<void> {
  const { deps, req, res } = call;
  const method = req.method ?? "GET";
  if (!action && method === "GET") {
    res.writeHead(303, { location: await nextStep(call), "content-length": 0 }).end();
    return;
  }
  if (action === "details" && method === "GET") {
    writeJson(res, 200, await describe(call));
    return;
  }
  if ((action === "login" || action === "consent") && method === "POST") {
    // Only the hosted pages answer an interaction (its cookie is SameSite=Lax as well): a page
    // elsewhere must not sign a person into someone else's account or consent for them.
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== new URL(deps.config.publicUrl).origin)
      throw new DomainError("ORIGIN_NOT_ALLOWED", "an authorization is answered from the hosted pages only");
    const body = await jsonBody(req);
    const redirectTo =
      action === "login" ? await finishLogin(call, body.access_token) : await finishConsent(call, body.approve);
    writeJson(res, 200, { redirect_to: redirectTo });
    return;
  }
  throw new DomainError("VALIDATION_FAILED", `${method} is not served on this interaction path`);
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  if (!String(req.headers["content-type"] ?? "").startsWith("application/json"))
    throw new DomainError("VALIDATION_FAILED", "send a JSON body (Content-Type: application/json)");
  let parsed: unknown;
  try {
    parsed = JSON.parse((await readBody(req, MAX_INTERACTION_BODY)).toString("utf8"));
  } catch {
    throw new DomainError("VALIDATION_FAILED", "the body is not JSON");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw new DomainError("VALIDATION_FAILED", "the body must be a JSON object");
  return parsed as Record<string, unknown>;
}

async function serveUserinfo(
  deps: FlowDeps,
  project: Parameters<typeof userinfo>[1],
  req: NodeRequest,
  res: NodeResponse,
): Promise<void> {
  // Tokens in a header, no cookies: any origin may ask.
  res.setHeader("access-control-allow-origin", "*");
  const authorization = /^(Bearer|DPoP) ([!-~]+)$/i.exec(String(req.headers.authorization ?? ""));
  const proof = req.headers.dpop;
  const answer = await userinfo(
    deps,
    project,
    authorization
      ? {
          scheme: authorization[1].toLowerCase() === "dpop" ? "dpop" : "bearer",
          token: authorization[2],
          method: req.method ?? "GET",
          dpopProof: typeof proof === "string" ? proof : undefined,
        }
      : undefined,
  );
  if ("claims" in answer) return writeJson(res, 200, answer.claims);
  const dpop = answer.error === "invalid_dpop_proof" || authorization?.[1].toLowerCase() === "dpop";
  const scheme = dpop ? "DPoP" : "Bearer";
  res.setHeader("www-authenticate", `${scheme} error="${answer.error}", error_description="${answer.description}"`);
  writeJson(res, answer.status, { error: answer.error, error_description: answer.description });
}
