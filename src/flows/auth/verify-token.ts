import type { Project } from "../../domain/account.js";
import type { AccessClaims } from "../../crypto/access-tokens.js";
import type { FlowDeps } from "../deps.js";
import { checkAccessToken } from "./verify-access-token.js";

/** VerifyToken: `{valid: false}` rather than an error for any token that does not hold. */
export async function verifyToken(
  deps: FlowDeps,
  project: Project,
  token: string,
): Promise<{ valid: boolean; claims?: AccessClaims }> {
  const verified = await checkAccessToken(deps, project, token);
  return verified ? { valid: true, claims: verified.claims } : { valid: false };
}
