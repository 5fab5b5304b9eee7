import { DEFAULT_MAX_SESSIONS_PER_USER, type Project } from "./account.js";
import { OPEN_SIGNUPS } from "./signup-policy.js";

/** What a new project has for each setting its creator leaves out (CreateProject, the console, the CLI). */
export const PROJECT_DEFAULTS = {
  description: "",
  // 0: no idle timeout.
  sessionIdleTimeout: 0,
  displayName: "",
  logoUrl: "",
  accentColor: "",
  smsCountryCodes: [],
  botProtection: false,
  maxSessionsPerUser: DEFAULT_MAX_SESSIONS_PER_USER,
  revealEmailExists: false,
  signups: OPEN_SIGNUPS.signups,
  signupEmailDomains: OPEN_SIGNUPS.signupEmailDomains,
  signupMethods: OPEN_SIGNUPS.signupMethods,
  // "": chosen from the origin a ceremony runs on (domain/relying-party.ts).
  passkeyRpId: "",
  passkeyUserVerification: "preferred",
  passkeyAttestation: "none",
  defaultLocale: "en",
} as const satisfies { readonly [K in keyof Project]?: Readonly<Project[K]> };

export type DefaultedSetting = keyof typeof PROJECT_DEFAULTS;

/** The settings given, and the default of each one left out (undefined counts as left out); arrays copied. */
export function withProjectDefaults(given: Partial<Pick<Project, DefaultedSetting>>): Pick<Project, DefaultedSetting> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(PROJECT_DEFAULTS) as DefaultedSetting[]) {
    const value = given[key] ?? PROJECT_DEFAULTS[key];
    out[key] = Array.isArray(value) ? [...(value as readonly unknown[])] : value;
  }
  return out as Pick<Project, DefaultedSetting>;
}
