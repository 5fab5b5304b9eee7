import { projectJwks } from "../flows/auth/jwks.js";
import type { FlowDeps } from "../flows/deps.js";
import { writeJson, writeReasonError, type NodeResponse } from "../transport/error-body.js";

/**
 * GET /v1/auth/{login_id}/.well-known/jwks.json: public keys only, cacheable for five minutes
 * (retired keys stay listed until their tokens expire, and JOSE clients such as jose's
 * createRemoteJWKSet refetch when a token names a kid they have not seen). 404 once the
 * project is deleted.
 */
export async function serveJwks(deps: FlowDeps, loginId: string, res: NodeResponse, requestId: string): Promise<void> {
  const jwks = await projectJwks(deps, loginId);
  if (!jwks) return writeReasonError(res, requestId, "PROJECT_NOT_FOUND", "no project has this login id");
  res.setHeader("cache-control", "public, max-age=300");
  res.setHeader("access-control-allow-origin", "*");
  writeJson(res, 200, jwks);
}
