import type { JWK } from "jose";
import type { FlowDeps } from "../deps.js";

/**
 * The public keys of the project a login id names: every key not retired, and retired keys
 * until the last token they signed has expired. Undefined when no project has this login id
 * (never existed, or deleted).
 */
export async function projectJwks(
  deps: Pick<FlowDeps, "clock" | "db">,
  loginId: string,
): Promise<{ keys: JWK[] } | undefined> {
  const project = await deps.db.repos.projects.getByLoginId(loginId);
  if (!project) return undefined;
  const retiredAfter = new Date(deps.clock.now().getTime() - project.tokenExpiry * 1000);
  const keys = await deps.db.repos.signingKeys.listPublic(project.id, retiredAfter);
  return {
    keys: keys.map((k) => ({
      kty: k.publicJwk.kty,
      crv: k.publicJwk.crv,
      x: k.publicJwk.x,
      y: k.publicJwk.y,
      kid: k.kid,
      alg: k.algorithm,
      use: "sig",
    })),
  };
}
