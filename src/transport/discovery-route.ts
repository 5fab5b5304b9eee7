import { openidConfiguration } from "../flows/auth/discovery.js";
import type { FlowDeps } from "../flows/deps.js";
import { writeJson, writeReasonError, type NodeResponse } from "./error-body.js";

/** GET /v1/auth/{login_id}/.well-known/openid-configuration, beside the project's JWKS. */
export const OPENID_CONFIGURATION_PATH = /^\/v1\/auth\/(lp_[0-9a-z]{26})\/\.well-known\/openid-configuration$/;

/**
 * The project's OpenID Provider Metadata: public, the same for everyone, and cacheable for as
 * long as the JWKS it points at (jwks-route.ts). Any origin may read it, answer or 404, since
 * browsers' JWT libraries discover too.
 */
export async function serveOpenidConfiguration(
  deps: FlowDeps,
  loginId: string,
  res: NodeResponse,
  requestId: string,
): Promise<void> {
  res.setHeader("access-control-allow-origin", "*");
  const configuration = await openidConfiguration(deps, loginId);
  if (!configuration) return writeReasonError(res, requestId, "PROJECT_NOT_FOUND", "no project has this login id");
  res.setHeader("cache-control", "public, max-age=300");
  writeJson(res, 200, configuration);
}
