import { assertPasskeyRpId, passkeySettings, type PasskeySettingsInput } from "./passkey-settings.js";
import type { Project } from "../../domain/account.js";
import { isIdOf } from "../../domain/ids.js";
import type { ProjectChanges } from "../../store/repositories/projects.js";
import { assertRateLimits } from "../../domain/rate-limits.js";
import type { AuditOrigin } from "../../domain/audit.js";
import type { FlowDeps } from "../deps.js";
import { validationFailed } from "../../domain/errors.js";
import { localeSetting } from "../../domain/locale-setting.js";
import { assertSessionIdleTimeout, normalizeCallingCodes, normalizeOrigins } from "./create-project.js";
import { projectNotFound } from "./not-found.js";
import { assertAllowlistHasDomains, signupSettings, type SignupSettingsInput } from "./signup-settings.js";

/**
 * Absent fields stay as they are; an empty allowedOrigins or smsCountryCodes too (a repeated
 * field has no presence), so emptying the SMS countries has its own flag.
 */
export type UpdateProjectInput = Omit<
  ProjectChanges,
  "signups" | "signupEmailDomains" | "signupMethods" | "passkeyUserVerification" | "passkeyAttestation"
> &
  SignupSettingsInput &
  PasskeySettingsInput & { clearSmsCountryCodes?: boolean };

export async function updateProject(
  deps: Pick<FlowDeps, "config" | "db">,
  organizationId: string,
  id: string,
  input: UpdateProjectInput,
  origin: AuditOrigin,
): Promise<Project> {
  // An input rule, so refused before the project is looked up, as the proto's own rules are.
  assertSessionIdleTimeout(input.sessionIdleTimeout);
  assertRateLimits(input.rateLimits);
  // A project always has a default language: "" is no tag, so it is refused like any other.
  if (input.defaultLocale !== undefined)
    input = { ...input, defaultLocale: localeSetting("default_locale", input.defaultLocale) };
  if (!isIdOf("proj", id)) throw projectNotFound();
  const {
    allowedOrigins,
    smsCountryCodes,
    clearSmsCountryCodes,
    signups,
    signupEmailDomains,
    signupMethods,
    passkeyRpId,
    passkeyUserVerification,
    passkeyAttestation,
    ...rest
  } = input;
  const signup = signupSettings({ signups, signupEmailDomains, signupMethods });
  const newCodes = smsCountryCodes && smsCountryCodes.length > 0 ? normalizeCallingCodes(smsCountryCodes) : undefined;
  if (clearSmsCountryCodes && newCodes) {
    throw validationFailed([
      { field: "clear_sms_country_codes", description: "cannot be sent together with sms_country_codes" },
    ]);
  }
  const changes: ProjectChanges = {
    ...rest,
    // A project always keeps at least one allowed origin, so an empty list cannot mean "none".
    allowedOrigins: allowedOrigins && allowedOrigins.length > 0 ? normalizeOrigins(allowedOrigins) : undefined,
    smsCountryCodes: clearSmsCountryCodes ? [] : newCodes,
    ...signup,
    ...passkeySettings({ passkeyRpId, passkeyUserVerification, passkeyAttestation }),
  };
  const project = await deps.db.transaction(async (repos) => {
    // Nothing to change: the project is answered as it is, and updated_at does not move.
    if (Object.values(changes).every((v) => v === undefined)) return repos.projects.get(organizationId, id);
    const updated = await repos.projects.update(organizationId, id, changes);
    // Checked against the limits now in force, and rolled back with the transaction if wrong.
    if (updated && changes.rateLimits) assertRateLimits(changes.rateLimits, updated.rateLimits);
    if (updated) assertAllowlistHasDomains(updated);
    // Only when it could have broken: a server moved to another PUBLIC_URL keeps its projects editable.
    if (updated && (changes.passkeyRpId !== undefined || changes.allowedOrigins !== undefined))
      assertPasskeyRpId(updated, deps.config.publicUrl);
    if (updated) {
      const fields = Object.entries(changes)
        .filter(([, v]) => v !== undefined)
        .map(([k]) => k)
        .sort();
      await repos.auditEvents.record({
        type: "project.updated",
        organizationId,
        projectId: id,
        targetId: id,
        details: { fields },
        origin,
      });
    }
    return updated;
  });
  if (!project) throw projectNotFound();
  return project;
}
