import { totpStep } from "../../../crypto/totp.js";
import type { Project } from "../../../domain/account.js";
import type { User } from "../../../domain/auth.js";
import type { MfaFactor, MfaMethod } from "../../../domain/mfa.js";
import type { Repositories } from "../../../store/database.js";
import type { FlowDeps } from "../../deps.js";
import { recoveryCodeHmac } from "./recovery-codes.js";

/** The `amr` a second factor adds to the session. */
export type SecondFactor = "totp" | "sms" | "recovery_code";

/** The HMAC context of the code that confirms an SMS enrollment: valid for that enrollment only. */
export function enrollmentSmsContext(projectId: string, factorId: string): string {
  return `mfa-enroll:${projectId}:${factorId}`;
}

/**
 * A sign-in challenge's code: six digits for the user's confirmed factors (`method`, or each
 * in turn), anything else as a recovery code. Each acceptance is recorded atomically (the TOTP
 * step, the recovery code spent), so a code is never accepted twice, even by two processes.
 */
export async function checkChallengeCode(
  deps: Pick<FlowDeps, "clock" | "secrets" | "codes">,
  repos: Repositories,
  project: Project,
  user: User,
  input: { code: string; method?: MfaMethod; smsCodeHmac: string | null; smsContext: string },
): Promise<SecondFactor | undefined> {
  const now = deps.clock.now();
  const code = input.code.trim();
  if (!/^\d{6}$/.test(code)) {
    const spent = await repos.recoveryCodes.use(
      project.id,
      user.id,
      recoveryCodeHmac(deps, project.id, user.id, code),
      now,
    );
    return spent ? "recovery_code" : undefined;
  }
  const factors = await repos.mfaFactors.list(project.id, user.id);
  for (const factor of factors) {
    if (factor.confirmedAt === null || (input.method !== undefined && factor.method !== input.method)) continue;
    if (factor.method === "totp" && (await acceptTotp(deps, repos, project, factor, code, now))) return "totp";
    if (
      factor.method === "sms" &&
      input.smsCodeHmac !== null &&
      deps.codes.matches(input.smsContext, code, input.smsCodeHmac)
    )
      return "sms";
  }
  return undefined;
}

/** The first code of a pending enrollment: from the new TOTP secret, or the SMS sent to the new phone. */
export async function checkEnrollmentCode(
  deps: Pick<FlowDeps, "clock" | "secrets" | "codes">,
  repos: Repositories,
  project: Project,
  factor: MfaFactor,
  code: string,
): Promise<boolean> {
  const now = deps.clock.now();
  if (factor.method === "totp") return acceptTotp(deps, repos, project, factor, code.trim(), now);
  return (
    factor.pendingCodeHmac !== null &&
    factor.pendingCodeExpiresAt !== null &&
    factor.pendingCodeExpiresAt > now &&
    deps.codes.matches(enrollmentSmsContext(project.id, factor.id), code.trim(), factor.pendingCodeHmac)
  );
}

async function acceptTotp(
  deps: Pick<FlowDeps, "secrets">,
  repos: Repositories,
  project: Project,
  factor: MfaFactor,
  code: string,
  now: Date,
): Promise<boolean> {
  if (factor.secretSealed === null) return false;
  const secret = deps.secrets.open(factor.secretSealed, factor.id).toString("utf8");
  const step = await totpStep(secret, code, now);
  return step !== undefined && (await repos.mfaFactors.acceptStep(project.id, factor.id, step));
}
