import { normalizeRecoveryCode, recoveryCode } from "../../../crypto/one-time-codes.js";
import { totpStep } from "../../../crypto/totp.js";
import type { MemberMfaFactor, MemberMfaMethod } from "../../../domain/member-mfa.js";
import { RECOVERY_CODE_COUNT } from "../../../domain/mfa.js";
import type { Repositories } from "../../../store/database.js";
import type { FlowDeps } from "../../deps.js";

// The codes a member answers with: TOTP (crypto/totp.ts, a step accepted once) and recovery
// codes (HMACs under GATEHOUSE_SECRET, each spent by one conditional UPDATE), as end users'.

/** Bound to the identity: a code of one identity is nothing for another, nor for an end user. */
export function memberRecoveryCodeHmac(deps: Pick<FlowDeps, "codes">, identityId: string, code: string): string {
  return deps.codes.hmac(`member-recovery:${identityId}`, normalizeRecoveryCode(code));
}

/** Ten new single-use codes, replacing the identity's earlier ones; shown once, stored as HMACs. */
export async function issueMemberRecoveryCodes(
  deps: Pick<FlowDeps, "clock" | "codes">,
  repos: Repositories,
  identityId: string,
): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
  await repos.memberRecoveryCodes.replace(
    identityId,
    codes.map((code) => memberRecoveryCodeHmac(deps, identityId, code)),
    deps.clock.now(),
  );
  return codes;
}

/**
 * A challenge's code: six digits for the identity's confirmed TOTP factor, anything else as a
 * recovery code. Each acceptance is recorded atomically, so a code is never accepted twice,
 * even by two processes at once.
 */
export async function checkMemberCode(
  deps: Pick<FlowDeps, "clock" | "secrets" | "codes">,
  repos: Repositories,
  identityId: string,
  code: string,
  method?: MemberMfaMethod,
): Promise<"totp" | "recovery_code" | undefined> {
  const trimmed = code.trim();
  const now = deps.clock.now();
  if (!/^\d{6}$/.test(trimmed)) {
    if (method !== undefined) return undefined;
    const spent = await repos.memberRecoveryCodes.use(
      identityId,
      memberRecoveryCodeHmac(deps, identityId, trimmed),
      now,
    );
    return spent ? "recovery_code" : undefined;
  }
  for (const factor of await repos.memberMfaFactors.list(identityId)) {
    if (factor.confirmedAt === null) continue;
    if (await acceptTotp(deps, repos, factor, trimmed, now)) return "totp";
  }
  return undefined;
}

/** The first code of a pending TOTP enrollment, from the new secret. */
export function checkMemberEnrollmentCode(
  deps: Pick<FlowDeps, "clock" | "secrets">,
  repos: Repositories,
  factor: MemberMfaFactor,
  code: string,
): Promise<boolean> {
  return acceptTotp(deps, repos, factor, code.trim(), deps.clock.now());
}

async function acceptTotp(
  deps: Pick<FlowDeps, "secrets">,
  repos: Repositories,
  factor: MemberMfaFactor,
  code: string,
  now: Date,
): Promise<boolean> {
  const secret = deps.secrets.open(factor.secretSealed, factor.id).toString("utf8");
  const step = await totpStep(secret, code, now);
  return step !== undefined && (await repos.memberMfaFactors.acceptStep(factor.identityId, factor.id, step));
}
