import { createHash } from "node:crypto";
import { constantTimeEqual, hashToken } from "../../../crypto/tokens.js";
import type { Project } from "../../../domain/account.js";
import type { ClientInfo } from "../../../domain/auth.js";
import { DomainError } from "../../../domain/errors.js";
import { auditedSignIn, type SignInAttempt } from "../../audit/sign-in.js";
import type { FlowDeps } from "../../deps.js";
import type { SignInOutcome } from "../complete-sign-in.js";
import { signInWithIdentity } from "./identity-sign-in.js";

/**
 * SsoExchange: the code handover's second half. The code is spent on first sight (a wrong
 * verifier burns it too, so it cannot be guessed at), must come within a minute, with this
 * project's key and the verifier of the challenge given to SsoAuthorize; then the identity
 * signs in as the fragment would have, through the completion step.
 */
export async function ssoExchange(
  deps: Pick<
    FlowDeps,
    | "config"
    | "db"
    | "clock"
    | "secrets"
    | "logger"
    | "sms"
    | "codes"
    | "verification"
    | "limits"
    | "hooks"
    | "detached"
  >,
  project: Project,
  input: { code: string; codeVerifier: string; client: ClientInfo },
): Promise<SignInOutcome> {
  const attempt: SignInAttempt = { method: "sso" };
  return auditedSignIn(deps, project, input.client, attempt, async () => {
    const now = deps.clock.now();
    const codeHash = hashToken(input.code.trim());
    const handover = await deps.db.repos.ssoHandovers.consume(project.id, codeHash, now);
    // A real code burnt by a wrong verifier is logged under its identity's email (as a hash).
    attempt.email = handover?.email;
    if (!handover || !constantTimeEqual(s256(input.codeVerifier), handover.codeChallenge)) {
      throw new DomainError("INVALID_CODE", "the code is unknown, used, or does not match the code_verifier");
    }
    if (handover.expiresAt <= now)
      throw new DomainError("CODE_EXPIRED", "the code has expired; start the sign-in again");
    const { connectionId, issuer, subject, email, newUserMetadataSealed } = handover;
    const newUserMetadata = newUserMetadataSealed
      ? (JSON.parse(deps.secrets.open(newUserMetadataSealed, codeHash).toString("utf8")) as Record<string, unknown>)
      : {};
    return signInWithIdentity(
      deps,
      project,
      { connectionId, issuer, subject, email },
      input.client,
      attempt,
      newUserMetadata,
    );
  });
}

/** RFC 7636 S256: BASE64URL(SHA-256(verifier)). */
function s256(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}
