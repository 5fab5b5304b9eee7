import { newId } from "../../../crypto/ids.js";
import { newTotpSecret, qrCodeDataUri, totpUri } from "../../../crypto/totp.js";
import { DomainError } from "../../../domain/errors.js";
import type { MemberMfaMethod } from "../../../domain/member-mfa.js";
import type { FlowDeps } from "../../deps.js";
import { enrollingIdentity, type MemberCaller } from "./identity.js";

/** The issuer an authenticator app shows beside the code: the console's, not an organization's. */
const ISSUER = "Gatehouse";

/**
 * StartMemberMfaEnrollment: a pending TOTP factor of the identity, replacing a pending one. A new
 * 160-bit secret, sealed at rest (associated data: the factor id) and answered once as an
 * `otpauth://` URI and its QR code; VerifyMemberMfa makes it active with its first code.
 */
export async function startMemberMfaEnrollment(
  deps: Pick<FlowDeps, "db" | "clock" | "secrets">,
  caller: MemberCaller,
  method: MemberMfaMethod,
): Promise<{ method: MemberMfaMethod; totpUri: string; qrCode: string }> {
  const id = newId("mmf");
  const uri = await deps.db.transaction(async (repos) => {
    const { identity } = await enrollingIdentity(deps, repos, caller);
    const secret = newTotpSecret();
    const fresh = await repos.memberMfaFactors.startPending({
      id,
      identityId: identity.id,
      method,
      secretSealed: deps.secrets.seal(secret, id),
      now: deps.clock.now(),
    });
    if (!fresh)
      throw new DomainError("MFA_ALREADY_ENROLLED", `${method} is already enrolled; unenroll it first to replace it`);
    return totpUri({ issuer: ISSUER, account: identity.email, secret });
  });
  // Drawn after commit: rendering the image needs no connection.
  return { method, totpUri: uri, qrCode: await qrCodeDataUri(uri) };
}
